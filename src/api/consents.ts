/**
 * Consent routes: register a consent and read its status, at Berlin Group's path and at the
 * singular path the spec's scaStatus link names.
 */
import type { FastifyInstance } from "fastify";
import type { ConsentInput, Consents } from "../domain/consents.js";
import type { createIdempotency } from "../domain/idempotency.js";
import { readRedirectTargets } from "./headers.js";
import { requestFingerprint } from "./plugin.js";
import { consentStatusPath, presentConsentCreated, presentConsentStatus } from "./present.js";
import { presentConsent } from "./present-accounts.js";
import { consentBody, consentCreatedResponse, consentStatusResponse, errorResponse } from "./schemas.js";

export interface ConsentRoutesOptions {
  base: string;
  consents: Consents;
  idempotency: ReturnType<typeof createIdempotency>;
  allowHttpLocalhost: boolean;
}

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export function consentRoutes(app: FastifyInstance, options: ConsentRoutesOptions): void {
  const { base, consents, idempotency } = options;
  const config = { role: "PSP_AI" } as const;

  app.post<{ Body: ConsentInput }>(`${base}/consents`, {
    config, schema: { body: consentBody, response: { 200: consentCreatedResponse, ...refusals } },
  }, async (request, reply) => {
    const redirect = readRedirectTargets(request.headers, options.allowHttpLocalhost);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const response = await idempotency.once({
      tppId: tpp.id,
      requestId: String(request.headers["x-request-id"]),
      bodyHash: requestFingerprint(request, redirect),
    }, async (tx) => {
      const registered = await consents.registerConsent(tx, tpp, request.body, redirect);
      return { statusCode: 200, body: presentConsentCreated(registered) };
    });
    return reply.code(response.statusCode).send(response.body);
  });

  type ById = { Params: { consentId: string } };
  const status = { config, schema: { response: { 200: consentStatusResponse, ...refusals } } };
  const statusPaths = [
    `${base}/consents/:consentId/status`,
    // The spec's scaStatus link is "/consent/<id>/status"; it is served relative to the
    // service root and below the version prefix alike.
    `${base}${consentStatusPath(":consentId")}`,
    consentStatusPath(":consentId"),
  ];
  for (const path of statusPaths) {
    app.get<ById>(path, status, async (request) =>
      presentConsentStatus(await consents.getConsent(request.tpp.id, request.params.consentId, "path")));
  }

  app.get<ById>(`${base}/consents/:consentId`, { config, schema: { response: refusals } }, async (request) =>
    presentConsent(await consents.consentDetails(request.tpp.id, request.params.consentId)));

  app.delete<ById>(`${base}/consents/:consentId`, { config, schema: { response: refusals } },
    async (request, reply) => {
      await consents.terminate(request.tpp.id, request.params.consentId);
      return reply.code(204).send();
    });
}
