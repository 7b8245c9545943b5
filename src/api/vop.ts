/**
 * Verification of Payee, this bank responding (EPC VOP inter-PSP API, field names as the EPC
 * scheme's API gives them; README cites the source): another PSP, over mutual TLS with its QWAC,
 * asks whether a name is the holder of an IBAN of ours.
 */
import type { FastifyInstance } from "fastify";
import { tppRateLimited } from "../domain/kernel/errors.js";
import type { VopResponder } from "../domain/vop/responder.js";
import { errorResponse } from "./schemas.js";

export const VOP_PATH = "/vop/v1/payee-verifications";

interface VerificationRequest {
  party: { name: string };
  partyAccount: { iban: string };
}

const agent = {
  type: "object", properties: { financialInstitutionId: { type: "object" } },
} as const;

const verificationBody = {
  type: "object",
  required: ["party", "partyAccount"],
  properties: {
    party: {
      type: "object", required: ["name"],
      properties: { name: { type: "string", minLength: 1, maxLength: 140 } },
    },
    partyAccount: {
      type: "object", required: ["iban"], properties: { iban: { type: "string", maxLength: 34 } },
    },
    partyAgent: agent,
    requestingAgent: agent,
    unstructuredRemittanceInformation: {
      type: "array", maxItems: 1, items: { type: "string", maxLength: 140 },
    },
  },
} as const;

const verificationResponse = {
  type: "object",
  properties: {
    partyNameMatch: { type: "string", enum: ["MTCH", "CMTC", "NMTC", "NOAP"] },
    matchedName: { type: "string" },
  },
} as const;

export function vopRoutes(app: FastifyInstance, responder: VopResponder): void {
  app.post<{ Body: VerificationRequest }>(VOP_PATH, {
    schema: {
      body: verificationBody,
      response: { 200: verificationResponse, 400: errorResponse, 429: errorResponse },
    },
  }, async (request, reply) => {
    const answer = await responder.answer(request.tpp.id,
      { iban: request.body.partyAccount.iban, name: request.body.party.name });
    if ("retryAfterSeconds" in answer) {
      void reply.header("Retry-After", String(answer.retryAfterSeconds));
      throw tppRateLimited();
    }
    void reply.header("X-Response-Timestamp", answer.at);
    const { result, matchedName } = answer.outcome;
    return { partyNameMatch: result, ...(matchedName === null ? {} : { matchedName }) };
  });
}
