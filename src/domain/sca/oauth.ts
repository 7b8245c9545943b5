/**
 * OAuth2 as Berlin Group uses it: a token's scope names one consent or payment (`AIS:<consentId>`,
 * `PIS:<paymentId>`, `PIIS:<consentId>`), and the PSU's authorisation of the token IS the SCA of
 * that resource: the authorisation server's interaction opens a session of the one SCA session
 * machine (redirect channel) on the resource's open authorisation, and grants the token only once
 * that authorisation is finalised.
 */
import { hashSecret, newSecret } from "../../lib/ids.js";
import { BROWSER_APPROACHES } from "../../lib/sca-approaches.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { confirmationCodeOf } from "./confirmation.js";
import type { Authorisation } from "./model.js";
import { openScaSession } from "./session.js";
import { loadSubject } from "./subjects.js";

export const SCOPE_SERVICES = ["AIS", "PIS", "PIIS"] as const;
export type ScopeService = (typeof SCOPE_SERVICES)[number];

/** One consent or payment a scope names. */
export interface ScopedResource { service: ScopeService; id: string }

/** A scope naming a resource: the service, a colon, the resource's id. */
export const RESOURCE_SCOPE = /^(AIS|PIS|PIIS):([A-Za-z0-9-]{1,64})$/;

/** The resources a space-separated scope names; other scopes (offline_access) are skipped. */
export function scopedResources(scope: string): ScopedResource[] {
  return scope.split(" ").flatMap((s) => {
    const match = RESOURCE_SCOPE.exec(s);
    return match ? [{ service: match[1] as ScopeService, id: match[2] ?? "" }] : [];
  });
}

/** Why the interaction cannot authorise: the TPP learns it as an OAuth error. */
export type OAuthRefusal =
  | "scope_invalid" | "resource_unknown" | "already_decided" | "no_authorisation";

/** The TPP's own resource of the scope's service, or undefined. */
async function ownResource(
  deps: Pick<Deps, "store">, tx: Tx, tppId: string, scoped: ScopedResource,
) {
  const { store } = deps;
  if (scoped.service === "PIS") {
    const payment = await store.payments.findForTpp(tx, scoped.id, tppId);
    return payment && payment.bulkId === null ? payment : undefined;
  }
  const consent = await store.consents.find(tx, scoped.id);
  const wanted = scoped.service === "PIIS" ? "funds-confirmation" : undefined;
  return consent?.tppId === tppId && consent.kind === wanted ? consent : undefined;
}

/**
 * The resource's newest authorisation still waiting for its PSU on the bank's pages (redirect or
 * oauth approach): the one the creation started, or one the TPP started later.
 */
async function openAuthorisation(
  deps: Pick<Deps, "store">, tx: Tx, resourceId: string,
): Promise<Authorisation | undefined> {
  const all = await deps.store.sca.authorisationsOf(tx, resourceId);
  return all.reverse().find((a) => a.scaStatus === "received"
    && BROWSER_APPROACHES.includes(a.approach ?? "redirect"));
}

export interface OAuthSessionRequest {
  tppId: string;
  scope: string;
  lang: string;
  /** Where the browser goes once the PSU decided: the interaction's own address. */
  returnTo: string;
}

type Opened =
  | { ok: true; secret: string; resource: ScopedResource } | { ok: false; refusal: OAuthRefusal };

async function open(deps: Deps, tx: Tx, request: OAuthSessionRequest): Promise<Opened> {
  const scoped = scopedResources(request.scope);
  const [only] = scoped;
  if (scoped.length !== 1 || !only) return { ok: false, refusal: "scope_invalid" };
  if (!(await ownResource(deps, tx, request.tppId, only))) {
    return { ok: false, refusal: "resource_unknown" };
  }
  const authorisation = await openAuthorisation(deps, tx, only.id);
  if (!authorisation) return { ok: false, refusal: "no_authorisation" };
  const subject = await loadSubject(deps, tx, authorisation);
  if (!subject?.awaiting) return { ok: false, refusal: "already_decided" };
  const secret = newSecret();
  await openScaSession(deps, tx, { secret, authorisationId: authorisation.id,
    lang: request.lang, returnTo: request.returnTo });
  return { ok: true, secret, resource: only };
}

/**
 * What the PSU's session decided about the scope's resource. With AUTHORISATION_CONFIRMATION the
 * PSU's confirmation is held: the token is granted with the code the TPP then confirms with, as
 * the redirect approach's way back carries it; until then the token reaches nothing authorised.
 */
export type OAuthOutcome =
  | { granted: true; psuId: string; confirmationCode?: string }
  | { granted: false; refusal: OAuthRefusal | "denied" };

async function outcome(
  deps: Deps, tx: Tx, secret: string | undefined, expected: { tppId: string; scope: string },
): Promise<OAuthOutcome> {
  const session = secret ? await deps.store.scaSessions.find(tx, hashSecret(secret)) : undefined;
  const authorisation = session
    && await deps.store.sca.findAuthorisation(tx, session.authorisationId);
  const [only, ...more] = scopedResources(expected.scope);
  const same = authorisation && only && more.length === 0
    && authorisation.resourceId === only.id && authorisation.tppId === expected.tppId;
  if (!session || !same || !secret || session.step !== "done") {
    return { granted: false, refusal: "no_authorisation" };
  }
  const { psuId, scaStatus } = authorisation;
  if (!psuId) return { granted: false, refusal: "denied" };
  if (scaStatus === "unconfirmed") {
    return { granted: true, psuId, confirmationCode: confirmationCodeOf(secret, authorisation.id) };
  }
  // An SCA exemption (RTS) authorises as the second factor would have.
  return ["finalised", "exempted"].includes(scaStatus)
    ? { granted: true, psuId } : { granted: false, refusal: "denied" };
}

export function createOAuthAuthorisations(deps: Deps) {
  return {
    /** Opens the SCA session for the scope's resource; its secret is the SCA pages' cookie. */
    open: (request: OAuthSessionRequest) => deps.store.transaction((tx) => open(deps, tx, request)),
    /** Whether the session authorised the scope's resource, and by which PSU. */
    outcome: (secret: string | undefined, expected: { tppId: string; scope: string }) =>
      deps.store.transaction((tx) => outcome(deps, tx, secret, expected)),
  };
}

export type OAuthAuthorisations = ReturnType<typeof createOAuthAuthorisations>;
