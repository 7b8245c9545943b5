/**
 * The openFinance Consent API 2.1 for account access at /v2 (base /psd2/v2): create, read,
 * status, delete, and the generic authorisation sub-resources for the redirect approach, over
 * the same consent aggregate and SCA sessions as /v1. The Client-* headers follow the rules of
 * their 1.3 counterparts (headers.ts); answers are the file's shapes, refusals apiClientMessages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Consents } from "../../domain/consent/registration.js";
import { relocated, Xs2aError } from "../../domain/kernel/errors.js";
import { answerCreation, type CreationRoute } from "../creation.js";
import {
  psuLanguage, readCorporateId, readExplicitAuthorisation, readPsuId, readRedirectTargets,
  V2_HEADERS, type UriRules,
} from "../headers.js";
import { REDIRECT } from "../profile.js";
import { readApproachPreference } from "../sca-approach.js";
import { referenceHeaders, V2_REFUSAL } from "./reference.js";
import {
  presentV2Consent, readV2Consent, v2ConsentBody, type V2ConsentBody,
} from "./consent-body.js";

export interface V2ConsentRoutesOptions extends CreationRoute {
  base: string;
  /** The consents of /v2 (createConsents(deps, "v2")). */
  consents: Consents;
  redirects: UriRules;
}

const V2_REFUSALS = { 400: V2_REFUSAL, 401: V2_REFUSAL, 403: V2_REFUSAL, 404: V2_REFUSAL,
  409: V2_REFUSAL };

const CATEGORY = "consents/account-access";

const reference = referenceHeaders("Consent API for V2.x", "2.1");

/** A /v2 consent route's options: the AIS role, 2.x refusals, the reference headers. */
const route = (schema: object = {}) => ({ config: { role: "PSP_AI" as const },
  schema: { response: V2_REFUSALS, ...schema }, onSend: reference });
type ById = { Params: { consentId: string } };
type ByAuthorisation = { Params: { consentId: string; authorisationId: string } };

const href = (path: string) => ({ href: path });

/** The Consent API 2.1 file requires PSU-IP-Address on a creation: the PSU is there to grant it. */
const PSU_PRESENT = {
  type: "object", required: ["PSU-IP-Address"],
  properties: { "PSU-IP-Address": { type: "string" } },
} as const;

type CreationRequest = FastifyRequest<{ Body: V2ConsentBody }>;

/** POST /v2/consents/account-access: the consent and, unless the TPP starts it, its redirect. */
async function createConsent(request: CreationRequest, reply: FastifyReply,
  options: V2ConsentRoutesOptions, selfOf: (id: string) => string): Promise<FastifyReply> {
  readApproachPreference(request.headers);
  const { input, type } = readV2Consent(request.body);
  const redirect = { ...readRedirectTargets(request.headers, options.redirects,
    request.tpp.domains, true, V2_HEADERS), approach: "redirect" as const };
  const explicit = readExplicitAuthorisation(request.headers, V2_HEADERS);
  const corporateId = readCorporateId(request.headers);
  const tpp = { id: request.tpp.id, name: request.tpp.name };
  return answerCreation(request, reply, options, {
    resourceType: "consent", idField: "consentId", selfOf, chosen: REDIRECT,
    fingerprint: { ...redirect, explicit, corporateId },
    create: async (tx) => {
      const registered = await options.consents.registerConsent(tx, tpp, input, redirect,
        { explicit, corporateId, consentType: type }).catch(asV2Field);
      const { consent, scaRedirect, authorisationId } = registered;
      return { resourceId: consent.id, authorisationId, present: (paths) => ({
        consentStatus: consent.status, consentId: consent.id,
        _links: {
          ...(scaRedirect === null ? { startAuthorisation: href(paths.authorisations) }
            : { scaRedirect: href(scaRedirect),
              scaStatus: href(paths.authorisation ?? paths.authorisations) }),
          self: href(paths.self), status: href(paths.status),
        },
      }) };
    },
  });
}

export function v2ConsentRoutes(app: FastifyInstance, options: V2ConsentRoutesOptions): void {
  const { base, consents } = options;
  const selfOf = (id: string) => `${base}/${CATEGORY}/${id}`;
  app.post<{ Body: V2ConsentBody }>(`${base}/${CATEGORY}`,
    route({ body: v2ConsentBody, headers: PSU_PRESENT }),
    (request, reply) => createConsent(request, reply, options, selfOf));
  app.get<ById>(`${base}/${CATEGORY}/:consentId`, route(), async (request) => presentV2Consent(
    await consents.consentDetails(request.tpp.id, request.params.consentId)));
  app.get<ById>(`${base}/${CATEGORY}/:consentId/status`, route(), async (request) => {
    const consent = await consents.getConsent(request.tpp.id, request.params.consentId, "path");
    return { consentStatus: consent.status };
  });
  app.delete<ById>(`${base}/${CATEGORY}/:consentId`, route(), async (request, reply) => {
    await consents.terminate(request.tpp.id, request.params.consentId);
    return reply.code(204).send();
  });
  v2AuthorisationRoutes(app, options, selfOf);
}

/** The aggregate's validUntil is 2.x's validTo: a refusal names the field the TPP sent. */
function asV2Field(error: unknown): never {
  if (error instanceof Xs2aError && error.path === "validUntil") {
    throw relocated(error, "validTo");
  }
  throw error;
}

/** The generic authorisation sub-resources of a /v2 consent, for the redirect approach. */
function v2AuthorisationRoutes(
  app: FastifyInstance, options: V2ConsentRoutesOptions, selfOf: (id: string) => string,
): void {
  const { consents } = options;
  const reading = route();
  app.post<ById>(`${selfOf(":consentId")}/authorisations`, reading, async (request, reply) => {
    readApproachPreference(request.headers);
    const sca = { lang: psuLanguage(request.headers), namedPsu: readPsuId(request.headers),
      approach: "redirect" as const };
    const started = await consents.authoriseConsent(request.tpp.id, request.params.consentId, sca);
    const self = `${selfOf(request.params.consentId)}/authorisations/${started.authorisationId}`;
    return reply.code(201).headers({ Location: self, "ASPSP-SCA-Approach": "REDIRECT" }).send({
      scaStatus: "received", authorisationId: started.authorisationId,
      _links: { scaRedirect: href(started.scaRedirect), scaStatus: href(self) },
    });
  });
  app.get<ById>(`${selfOf(":consentId")}/authorisations`, reading, async (request) => {
    const all = await consents.listAuthorisations(request.tpp.id, request.params.consentId);
    return { authorisationIds: all.map((a) => a.id) };
  });
  app.get<ByAuthorisation>(`${selfOf(":consentId")}/authorisations/:authorisationId`, reading,
    async (request) => {
      const { scaStatus } = await consents.getAuthorisation(request.tpp.id,
        request.params.consentId, request.params.authorisationId);
      return { scaStatus };
    });
}
