/**
 * POST /funds-confirmations for card-based payment instrument issuers (role PSP_IC): NextGenPSD2
 * 1.3 at /v1, PIIS 2.4.1 at /v2 (the same body; refusals and headers as `wire` says).
 */
import type { FastifyInstance } from "fastify";
import type { FundsConsentGate } from "../domain/consent/funds-consents.js";
import type {
  FundsConfirmationInput, FundsConfirmations,
} from "../domain/consent/funds-confirmations.js";
import { amount, cardOrAccountReference, errorResponse } from "./schemas.js";
import type { ReadWire } from "./statement-files.js";

const fundsConfirmationBody = {
  type: "object",
  required: ["account", "instructedAmount"],
  properties: {
    account: cardOrAccountReference,
    cardNumber: { type: "string", maxLength: 35 },
    payee: { type: "string", maxLength: 70 },
    instructedAmount: amount,
  },
  additionalProperties: false,
} as const;

const fundsConfirmationResponse = {
  type: "object", properties: { fundsAvailable: { type: "boolean" } },
} as const;

export function fundsConfirmationRoutes(
  app: FastifyInstance,
  options: {
    base: string; funds: FundsConfirmations; consentGate?: FundsConsentGate; wire?: ReadWire;
    /** The request headers' schema, where the profile's files bound them. */
    headers?: object;
  },
): void {
  const refusal = options.wire?.refusal ?? errorResponse;
  const refusals = { 400: refusal, 401: refusal, 403: refusal };
  app.post<{ Body: FundsConfirmationInput }>(`${options.base}/funds-confirmations`, {
    config: { role: "PSP_IC" }, onSend: options.wire?.onSend,
    schema: {
      body: fundsConfirmationBody, response: { 200: fundsConfirmationResponse, ...refusals },
      ...(options.headers && { headers: options.headers }),
    },
  }, async (request) => {
    const consentId = request.headers["consent-id"];
    await options.consentGate?.(request.tpp.id,
      typeof consentId === "string" ? consentId : undefined, request.body.account);
    return { fundsAvailable: await options.funds.fundsAvailable(request.body) };
  });
}
