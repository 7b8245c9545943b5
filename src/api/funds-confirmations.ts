/**
 * POST /funds-confirmations for card-based payment instrument issuers (role PSP_IC).
 */
import type { FastifyInstance } from "fastify";
import type { FundsConsentGate } from "../domain/consent/funds-consents.js";
import type {
  FundsConfirmationInput, FundsConfirmations,
} from "../domain/consent/funds-confirmations.js";
import { amount, cardOrAccountReference, errorResponse } from "./schemas.js";

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
  options: { base: string; funds: FundsConfirmations; consentGate?: FundsConsentGate },
): void {
  const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
  app.post<{ Body: FundsConfirmationInput }>(`${options.base}/funds-confirmations`, {
    config: { role: "PSP_IC" },
    schema: {
      body: fundsConfirmationBody, response: { 200: fundsConfirmationResponse, ...refusals },
    },
  }, async (request) => {
    const consentId = request.headers["consent-id"];
    await options.consentGate?.(request.tpp.id,
      typeof consentId === "string" ? consentId : undefined, request.body.account);
    return { fundsAvailable: await options.funds.fundsAvailable(request.body) };
  });
}
