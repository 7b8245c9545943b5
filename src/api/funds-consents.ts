/**
 * Funds-confirmation consents (Berlin Group PIIS, POST /v2/consents/confirmation-of-funds,
 * served under the 1.3 prefix) for card issuers with the PSP_IC role.
 */
import type { FastifyInstance } from "fastify";
import type { FundsConsentInput, FundsConsents } from "../domain/consent/funds-consents.js";
import type { createIdempotency } from "../domain/idempotency.js";
import { readRedirectTargets, type RedirectRules } from "./headers.js";
import { requestFingerprint } from "./plugin.js";
import { presentConsentStatus } from "./present.js";
import { sendCreated, type Presenters } from "./profile.js";
import { accountReference, consentStatusResponse, errorResponse, links } from "./schemas.js";

export interface FundsConsentRoutesOptions {
  base: string;
  fundsConsents: FundsConsents;
  idempotency: ReturnType<typeof createIdempotency>;
  redirects: RedirectRules;
  presenters: Presenters;
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
    _links: links("scaRedirect", "self", "status"),
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
    const redirect = readRedirectTargets(request.headers, options.redirects, request.tpp.domains);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const response = await idempotency.once({
      tppId: tpp.id, requestId: String(request.headers["x-request-id"]),
      bodyHash: requestFingerprint(request, redirect),
    }, async (tx) => {
      const { consent, scaRedirect } =
        await fundsConsents.registerFundsConsent(tx, tpp, request.body, redirect);
      const self = `${path}/${consent.id}`;
      return {
        statusCode: 201,
        body: presenters.answer({
          consentStatus: consent.status, consentId: consent.id,
          _links: { scaRedirect, self, status: `${self}/status` },
        }),
      };
    });
    return sendCreated(reply, presenters, response, "consentId", (id) => `${path}/${id}`);
  });

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
