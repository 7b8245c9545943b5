/**
 * What every /v2 answer carries beside its body: the openFinance reference headers (the files
 * require X-Reference-API-Version on each answer, naming the guideline the service follows), and
 * refusals as apiClientMessages (errors.ts renders them so on /v2).
 */
import type { FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import type { ReadWire } from "../statement-files.js";

/** The route hook that names the guideline (`document`, `version`) its answers follow. */
export function referenceHeaders(document: string, version: string): onSendHookHandler {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    void reply.headers({ "X-Reference-API-Name": "Berlin Group openFinance API",
      "X-Reference-API-Document": document, "X-Reference-API-Version": version });
    return payload;
  };
}

const message = {
  type: "object",
  properties: { category: { type: "string" }, code: { type: "string" }, path: { type: "string" },
    text: { type: "string" } },
} as const;

/**
 * The PSU the TPP names, read by a consent's or payment's routes (creation, authorisation,
 * cancellation): the files' Max140Text, refused beyond it.
 */
export const PSU_NAMED = {
  type: "object",
  properties: { "PSU-ID": { type: "string", maxLength: 140 },
    "PSU-Corporate-ID": { type: "string", maxLength: 140 } },
} as const;

/**
 * The openFinance files require PSU-IP-Address on every creation (consents and payments): the
 * PSU is there to grant it.
 */
export const PSU_PRESENT = {
  type: "object", required: ["PSU-IP-Address"],
  properties: { ...PSU_NAMED.properties, "PSU-IP-Address": { type: "string" } },
} as const;

/**
 * A funds confirmation's Consent-ID: PIIS's Max70Text, refused beyond it even where the bank
 * requires no consent and so reads no Consent-ID at all.
 */
export const CONSENT_NAMED = {
  type: "object", properties: { "Consent-ID": { type: "string", maxLength: 70 } },
} as const;

/** The body of a /v2 refusal, as Fastify serializes it. */
export const V2_REFUSAL = {
  type: "object", properties: { apiClientMessages: { type: "array", items: message } },
} as const;

/** /v2's account reads: AIS 2.4.1. */
export const V2_AIS: ReadWire = {
  refusal: V2_REFUSAL,
  onSend: referenceHeaders("XS2A API as PSD2 Interface, Account Information Service", "2.4.1"),
};

/** /v2's funds confirmations: PIIS 2.4.1. */
export const V2_PIIS: ReadWire = {
  refusal: V2_REFUSAL,
  onSend: referenceHeaders("XS2A API as PSD2 Interface, Confirmation of Funds Service", "2.4.1"),
};
