/**
 * The openFinance Consent API 2.1 at /v2 (base /psd2/v2) for account access: create, read, and
 * what every consent category shares (status, delete, the generic authorisation sub-resources for
 * every approach /v2 offers), over the same consent aggregate and SCA sessions as /v1. The Client-*
 * headers follow the rules of their 1.3 counterparts (headers.ts); answers are the file's shapes,
 * refusals apiClientMessages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Consents, RegisteredConsent } from "../../domain/consent/registration.js";
import type { RedirectTargets, TppRef } from "../../domain/deps.js";
import type { Tx } from "../../domain/kernel/ports.js";
import { relocated, Xs2aError } from "../../domain/kernel/errors.js";
import type { PspRole } from "../../tpp/certificate.js";
import { answerCreation, type CreationRoute } from "../creation.js";
import {
  readCorporateId, readExplicitAuthorisation, V2_HEADERS, type UriRules,
} from "../headers.js";
import { readScaTargets, V2_APPROACH } from "../sca-approach.js";
import type { ReadWire } from "../statement-files.js";
import { authorisationRoutes, type V2Sca } from "./authorisations.js";
import { PSU_NAMED, PSU_PRESENT, referenceHeaders, V2_REFUSAL } from "./reference.js";
import {
  presentV2Consent, readV2Consent, v2ConsentBody, type V2ConsentBody,
} from "./consent-body.js";

export interface V2ConsentRoutesOptions extends CreationRoute {
  base: string;
  /** The account-access consents of /v2 (createConsents(deps, "v2", "account-access")). */
  consents: Consents;
  redirects: UriRules;
  sca: V2Sca;
}

/** One consent category of the Consent API 2.1 (`consents/{path}`) and the role it needs. */
export interface V2Category {
  base: string;
  path: "account-access" | "funds-confirmations";
  role: PspRole;
  /** The category's consents: of its kind, created through /v2. */
  consents: Consents;
  sca: V2Sca;
}

const V2_REFUSALS = { 400: V2_REFUSAL, 401: V2_REFUSAL, 403: V2_REFUSAL, 404: V2_REFUSAL,
  409: V2_REFUSAL };

const reference = referenceHeaders("Consent API for V2.x", "2.1");
const WIRE: Required<ReadWire> = { refusal: V2_REFUSAL, onSend: reference };

/** A /v2 consent route's options: the category's role, 2.x refusals, the reference headers. */
export const v2ConsentRoute = (role: PspRole, schema: object = {}) => ({ config: { role },
  schema: { response: V2_REFUSALS, headers: PSU_NAMED, ...schema }, onSend: reference });
type ById = { Params: { consentId: string } };

/** Where a category's consents are created: /v2/consents/{category}. */
export const v2ConsentsPath = (category: Pick<V2Category, "base" | "path">) =>
  `${category.base}/consents/${category.path}`;

const selfOf = (category: Pick<V2Category, "base" | "path">) => (id: string) =>
  `${v2ConsentsPath(category)}/${id}`;

/** How the TPP asks for a /v2 consent's authorisation: its approach, whether the TPP starts it. */
export interface V2Authorisation { redirect: RedirectTargets; explicit: boolean }

/**
 * What one /v2 consent creation registers, in `tx`, and what else (headers read) makes two
 * requests the same.
 */
export interface V2Registration {
  register(tx: Tx, tpp: TppRef, sca: V2Authorisation): Promise<RegisteredConsent>;
  fingerprint?: Record<string, unknown>;
  /** The aggregate's fields by the names the 2.x body gives them, for refusals' paths. */
  fields?: Record<string, string>;
}

/**
 * POST /v2/consents/{category}: the consent and, unless the TPP starts it, its authorisation in
 * the approach Client-SCA-Approach-Preference asks for.
 */
export async function createV2Consent(request: FastifyRequest, reply: FastifyReply,
  options: CreationRoute & { redirects: UriRules; base: string; path: V2Category["path"];
    sca: V2Sca },
  registration: V2Registration): Promise<FastifyReply> {
  const { chosen, redirect } = readScaTargets(request.headers,
    { approaches: options.sca.approaches, redirects: options.redirects }, request.tpp.domains,
    V2_APPROACH);
  const explicit = readExplicitAuthorisation(request.headers, V2_HEADERS);
  const tpp = { id: request.tpp.id, name: request.tpp.name };
  return answerCreation(request, reply, options, {
    resourceType: "consent", idField: "consentId", selfOf: selfOf(options), chosen,
    fingerprint: { ...redirect, explicit, chosen, ...registration.fingerprint },
    create: async (tx) => {
      const registered = await registration.register(tx, tpp, { redirect, explicit })
        .catch((error: unknown) => asV2Field(error, registration.fields));
      return { resourceId: registered.consent.id, authorisationId: registered.authorisationId,
        present: (paths) => options.presenters.consentCreated(registered, paths, chosen) };
    },
  });
}

export function v2ConsentRoutes(app: FastifyInstance, options: V2ConsentRoutesOptions): void {
  const { base, consents, sca } = options;
  const category: V2Category = { base, path: "account-access", role: "PSP_AI", consents, sca };
  app.post<{ Body: V2ConsentBody }>(v2ConsentsPath(category), v2ConsentRoute("PSP_AI",
    { body: v2ConsentBody, headers: PSU_PRESENT }), (request, reply) => {
    const { input, type } = readV2Consent(request.body);
    const corporateId = readCorporateId(request.headers);
    return createV2Consent(request, reply, { ...options, path: category.path }, {
      fingerprint: { corporateId },
      register: (tx, tpp, { redirect, explicit }) => consents.registerConsent(tx, tpp, input,
        redirect, { explicit, corporateId, consentType: type }),
    });
  });
  app.get<ById>(selfOf(category)(":consentId"), v2ConsentRoute("PSP_AI"), async (request) =>
    presentV2Consent(await consents.consentDetails(request.tpp.id, request.params.consentId)));
  v2ConsentResourceRoutes(app, category);
}

/**
 * The aggregate's validUntil is 2.x's validTo (and so on, `fields`): a refusal names the field the
 * TPP sent.
 */
function asV2Field(error: unknown, fields: Record<string, string> = {}): never {
  const renamed: Record<string, string> = { validUntil: "validTo", ...fields };
  const to = error instanceof Xs2aError && error.path !== undefined
    && Object.hasOwn(renamed, error.path) ? renamed[error.path] : undefined;
  if (to !== undefined) throw relocated(error as Xs2aError, to);
  throw error;
}

/**
 * What every consent category shares: its status, its deletion by the TPP, and the generic
 * authorisation sub-resources.
 */
export function v2ConsentResourceRoutes(app: FastifyInstance, category: V2Category): void {
  const { consents } = category;
  const self = selfOf(category)(":consentId");
  const reading = v2ConsentRoute(category.role);
  app.get<ById>(`${self}/status`, reading, async (request) => {
    const consent = await consents.getConsent(request.tpp.id, request.params.consentId, "path");
    return { consentStatus: consent.status };
  });
  app.delete<ById>(self, reading, async (request, reply) => {
    await consents.terminate(request.tpp.id, request.params.consentId);
    return reply.code(204).send();
  });
  v2AuthorisationRoutes(app, category);
}

/** The generic authorisation sub-resources of a /v2 consent. */
function v2AuthorisationRoutes(app: FastifyInstance, category: V2Category): void {
  const { consents } = category;
  authorisationRoutes(app, {
    path: selfOf(category)(":consentId"), role: category.role, wire: WIRE, sca: category.sca,
    refOf: (request) => ({ tppId: request.tpp.id,
      consentId: (request.params as ById["Params"]).consentId }),
    categories: [{
      segment: "authorisations",
      start: (ref, sca) => consents.authoriseConsent(ref.tppId, ref.consentId, sca),
      list: (ref) => consents.listAuthorisations(ref.tppId, ref.consentId),
      find: (ref, id) => consents.getAuthorisation(ref.tppId, ref.consentId, id),
    }],
  });
}
