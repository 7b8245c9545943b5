/**
 * oidc-provider's persistence on our store (OAuthRecordPort), never its in-memory default: every
 * instance behind the load balancer sees the grants, codes and tokens another issued, and a code
 * is consumed once across all of them. Clients are not stored: a TPP is a client once its
 * certificate registered it on the API (first use), with its organizationIdentifier as client id.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";
import type { Deps } from "../domain/deps.js";
import { scopedResources } from "../domain/sca/oauth.js";

/** The subject a client's certificate must carry: its organizationIdentifier (ETSI 119 495). */
export const subjectOf = (clientId: string) => `organizationIdentifier=${clientId}`;

const epochSeconds = (deps: Deps) => Math.floor(deps.clock.now().getTime() / 1000);

/** The consent or payment a record's scope names; a grant keeps its scopes per resource server. */
function resourceOf(payload: AdapterPayload): string | null {
  const servers = (payload as { resources?: Record<string, string> }).resources ?? {};
  const scope = [payload.scope ?? "", ...Object.values(servers)].join(" ");
  return scopedResources(scope)[0]?.id ?? null;
}

/**
 * A TPP as an OAuth client: mutual-TLS client authentication, certificate-bound tokens, pushed
 * requests only; its redirect_uri comes in each pushed request, which its certificate
 * authenticated (FAPI 2.0 allows unregistered redirect URIs with PAR).
 */
export function clientOf(clientId: string): AdapterPayload {
  return {
    client_id: clientId, token_endpoint_auth_method: "tls_client_auth",
    tls_client_auth_subject_dn: subjectOf(clientId),
    tls_client_certificate_bound_access_tokens: true, require_pushed_authorization_requests: true,
    grant_types: ["authorization_code", "refresh_token"], response_types: ["code"],
    redirect_uris: [], id_token_signed_response_alg: "ES256",
  };
}

async function findClient(deps: Deps, clientId: string): Promise<AdapterPayload | undefined> {
  const { store } = deps;
  const known = await store.tpps.name(store.db, clientId);
  if (known === undefined || await store.tpps.isBlocked(store.db, clientId)) return undefined;
  return clientOf(clientId);
}

/** The library's refusal of a code used before (its InvalidGrant). */
type CodeReused = () => Error;

function recordAdapter(deps: Deps, model: string, codeReused: CodeReused): Adapter {
  const { store } = deps;
  const records = store.oauthRecords;
  const find = async (id: string): Promise<AdapterPayload | undefined> => {
    if (model === "Client") return findClient(deps, id);
    // Expiry is the library's to judge (an expired token is refused as expired); prune() deletes.
    const found = await records.find(store.db, model, id);
    if (!found) return undefined;
    const payload = JSON.parse(found.payload) as AdapterPayload;
    return found.consumedAt === null ? payload : { ...payload, consumed: found.consumedAt };
  };
  return {
    async upsert(id, payload, expiresIn) {
      await records.save(store.db, model, id, {
        payload: JSON.stringify(payload), grantId: payload.grantId ?? null,
        uid: payload.uid ?? null, resourceId: resourceOf(payload),
        expiresAt: expiresIn === undefined ? null : epochSeconds(deps) + expiresIn,
      });
    },
    find,
    async findByUid(uid) {
      const found = await records.findByUid(store.db, model, uid);
      return found && find(found.id);
    },
    // The device flow is not offered: no record has a user code.
    findByUserCode: async () => undefined,
    // Two instances racing on one code: the loser's exchange fails as a reused code would.
    async consume(id) {
      if (!(await records.consume(store.db, model, id, epochSeconds(deps)))) {
        throw codeReused();
      }
    },
    destroy: (id) => records.destroy(store.db, model, id),
    revokeByGrantId: (grantId) => store.transaction((tx) => records.revokeGrant(tx, grantId)),
  };
}

export function createRecordAdapter(deps: Deps, codeReused: CodeReused): AdapterFactory {
  return (model) => recordAdapter(deps, model, codeReused);
}
