/**
 * Funds-confirmation consents (Berlin Group PIIS, POST /v2/consents/confirmation-of-funds,
 * served under the 1.3 prefix) for card issuers with the PSP_IC role.
 */
import type { FastifyInstance } from "fastify";
import type { FundsConsentInput, FundsConsents } from "../domain/consent/funds-consents.js";
import { resourceUnknown } from "../domain/kernel/errors.js";
import type { DeclaredPurposes } from "../domain/dashboard/purposes.js";
import type { createIdempotency } from "../domain/kernel/idempotency.js";
import type { Decoupled } from "../domain/sca/decoupled.js";
import type { EmbeddedAuthorisations } from "../domain/sca/embedded.js";
import { authorisationUpdateRoutes, type UpdateRequest } from "./authorisation-updates.js";
import type { RedirectRules } from "../domain/kernel/redirect-uri.js";
import { declaredPurpose } from "./headers.js";
import { requestFingerprint } from "./plugin.js";
import { presentConsentStatus } from "./present.js";
import { sendCreated, type Presenters } from "./profile.js";
import {
  approachLinks, readScaTargets, type ChosenApproach, type ScaApproachRules,
} from "./sca-approach.js";
import {
  accountReference, authorisationListResponse, consentStatusResponse, errorResponse, links,
  scaStatusResponse,
} from "./schemas.js";

export interface FundsConsentRoutesOptions {
  base: string;
  fundsConsents: FundsConsents;
  idempotency: ReturnType<typeof createIdempotency>;
  redirects: RedirectRules;
  presenters: Presenters;
  approaches: ScaApproachRules;
  embedded: EmbeddedAuthorisations;
  decoupled: Decoupled;
  purposes: DeclaredPurposes;
}

const body = {
  type: "object",
  required: ["account"],
  properties: {
    account: accountReference,
    cardNumber: { type: "string", maxLength: 35 },
    cardExpiryDate: { type: "string", maxLength: 10 },
    cardInformation: { type: "string", maxLength: 140 },
    registrationInformation: { type: "string", maxLength: 140 },
  },
  additionalProperties: false,
} as const;

const created = {
  type: "object",
  properties: {
    consentStatus: { type: "string" }, consentId: { type: "string" },
    _links: links("scaRedirect", "self", "status", "scaStatus", "updatePsuIdentification",
      "updatePsuAuthentication"),
  },
} as const;

const details = {
  type: "object",
  properties: {
    account: { type: "object", properties: { iban: { type: "string" } } },
    consentStatus: { type: "string" },
  },
} as const;

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export function fundsConsentRoutes(app: FastifyInstance, options: FundsConsentRoutesOptions): void {
  const { fundsConsents, idempotency, presenters } = options;
  const path = `${options.base}/consents/confirmation-of-funds`;
  const config = { role: "PSP_IC" } as const;
  app.post<{ Body: FundsConsentInput }>(path, {
    config, schema: { body, response: { 201: presenters.schema(created), ...refusals } },
  }, async (request, reply) => {
    const { chosen, redirect } = readScaTargets(request.headers, options, request.tpp.domains);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const purpose = declaredPurpose(request.headers);
    const response = await idempotency.once({
      tppId: tpp.id, requestId: String(request.headers["x-request-id"]),
      bodyHash: requestFingerprint(request, { ...redirect, chosen }),
    }, async (tx) => {
      const registered = await fundsConsents.registerFundsConsent(tx, tpp, request.body, redirect);
      const { consent } = registered;
      if (purpose !== null) await options.purposes.declare(tx, consent.id, purpose);
      const self = `${path}/${consent.id}`;
      return {
        statusCode: 201,
        body: presenters.answer({
          consentStatus: consent.status, consentId: consent.id,
          _links: { ...scaLinks(registered, self, chosen), self, status: `${self}/status` },
        }),
      };
    });
    return sendCreated(reply, presenters, response, "consentId", (id) => `${path}/${id}`,
      chosen);
  });
  fundsAuthorisationRoutes(app, options, path);

  type ById = { Params: { consentId: string } };
  app.get<ById>(`${path}/:consentId/status`, {
    config, schema: { response: { 200: consentStatusResponse, ...refusals } },
  }, async (request) => presentConsentStatus(
    await fundsConsents.getFundsConsent(request.tpp.id, request.params.consentId)));
  app.get<ById>(`${path}/:consentId`,
    { config, schema: { response: { 200: details, ...refusals } } },
    async (request) => {
      const consent = await fundsConsents.getFundsConsent(request.tpp.id, request.params.consentId);
      return { account: { iban: consent.access.accounts[0] }, consentStatus: consent.status };
    });
}

/** The redirect's scaRedirect, or the links of the approach chosen instead. */
function scaLinks(
  registered: { scaRedirect: string | null; authorisationId: string | null }, self: string,
  chosen: ChosenApproach,
) {
  if (chosen.approach === "redirect") return { scaRedirect: registered.scaRedirect };
  const authorisations = `${self}/authorisations`;
  return approachLinks(chosen,
    { authorisations, authorisation: `${authorisations}/${registered.authorisationId}` });
}

/** The consent's authorisations: list, read one's scaStatus, update one (embedded). */
function fundsAuthorisationRoutes(
  app: FastifyInstance, options: FundsConsentRoutesOptions, path: string,
) {
  const { fundsConsents } = options;
  const config = { role: "PSP_IC" } as const;
  const reading = (schema: object) =>
    ({ config, schema: { response: { 200: schema, ...refusals } } });
  type ById = { Params: { consentId: string; authorisationId: string } };
  const find = async (tppId: string, consentId: string, authorisationId: string) => {
    const all = await fundsConsents.listAuthorisations(tppId, consentId);
    const found = all.find((a) => a.id === authorisationId);
    if (!found) throw resourceUnknown("authorisation");
    return found;
  };
  app.get<ById>(`${path}/:consentId/authorisations`, reading(authorisationListResponse),
    async (request) => ({ authorisationIds: (await fundsConsents.listAuthorisations(
      request.tpp.id, request.params.consentId)).map((a) => a.id) }));
  app.get<ById>(`${path}/:consentId/authorisations/:authorisationId`, reading(scaStatusResponse),
    async (request) => ({ scaStatus: (await find(request.tpp.id, request.params.consentId,
      request.params.authorisationId)).scaStatus }));
  authorisationUpdateRoutes(app, [{
    path: `${path}/:consentId/authorisations`,
    find: (request: UpdateRequest) => find(request.tpp.id, request.params.consentId ?? "",
      request.params.authorisationId ?? ""),
  }], { role: config.role, ...options });
}
