/**
 * What the published OpenAPI document says of an operation beyond its route's schemas: the
 * headers the bank reads on it (plugin, signature check, route handlers) and the refusals the
 * plugin can answer on any operation. Kept beside the readers so a generated client can send
 * every header the bank looks at and expects every status it can get.
 */
import { errorResponse } from "./schemas.js";

type Json = Record<string, unknown>;

export interface OperationFacts {
  method: string;
  url: string;
  role: string | undefined;
  /** Load balancer probes: no certificate, no refusal of the plugin's. */
  probe: boolean;
  /** The API description itself: no X-Request-ID required. */
  document: boolean;
}

interface HeaderRule {
  name: string;
  required?: boolean;
  schema: Json;
  applies(op: OperationFacts): boolean;
}

const text = { type: "string" } as const;
const ipAddress = {
  anyOf: [{ type: "string", format: "ipv4" }, { type: "string", format: "ipv6" }],
} as const;
const uri = { type: "string", format: "uri", maxLength: 500 } as const;
export const requestIdSchema = { type: "string", format: "uuid" } as const;

const tppOperation = (op: OperationFacts) => !op.probe;
const withRole = (op: OperationFacts) => op.role !== undefined;
/** Creations of payments, consents and signing baskets: they carry the PSU's redirect targets. */
const CREATIONS = [
  /\/(payments|periodic-payments|bulk-payments)\/:product$/,
  /\/consents(\/confirmation-of-funds)?$/,
  /\/signing-baskets$/,
];
const creation = (op: OperationFacts) =>
  op.method === "POST" && CREATIONS.some((path) => path.test(op.url));
const explicitAuthorisation = (op: OperationFacts) =>
  creation(op) && !op.url.endsWith("/confirmation-of-funds");
/** Operations that start an authorisation and so name the language of the PSU's pages. */
const startsAuthorisation = (op: OperationFacts) => creation(op)
  || (op.method === "POST" && /authorisations$/.test(op.url))
  || (op.method === "DELETE" && /payments\/:product\/:paymentId$/.test(op.url));
const paymentCreation = (op: OperationFacts) => creation(op) && CREATIONS[0]?.test(op.url) === true;
const accountInformation = (op: OperationFacts) => /\/(card-)?accounts(\/|$)/.test(op.url);

const HEADERS: readonly HeaderRule[] = [
  // Recorded in the audit log of every request; refused when present but malformed.
  { name: "PSU-IP-Address", schema: ipAddress, applies: tppOperation },
  // Must be covered by a Signature when present (tpp/http-signature.ts).
  { name: "PSU-ID", schema: text, applies: tppOperation },
  { name: "PSU-Corporate-ID", schema: text, applies: tppOperation },
  { name: "Digest", schema: text, applies: tppOperation },
  { name: "Signature", schema: text, applies: tppOperation },
  { name: "TPP-Signature-Certificate", schema: text, applies: tppOperation },
  { name: "Consent-ID", required: true, schema: text, applies: accountInformation },
  { name: "Consent-ID", schema: text, applies: (op) => op.url.endsWith("/funds-confirmations") },
  { name: "TPP-Redirect-URI", required: true, schema: uri, applies: creation },
  { name: "TPP-Nok-Redirect-URI", schema: uri, applies: creation },
  {
    name: "TPP-Explicit-Authorisation-Preferred", schema: { type: "boolean" },
    applies: explicitAuthorisation,
  },
  // The SCA approach's choice (sca-approach.ts), on the same creations.
  { name: "TPP-Redirect-Preferred", schema: { type: "boolean" }, applies: explicitAuthorisation },
  { name: "TPP-Decoupled-Preferred", schema: { type: "boolean" }, applies: explicitAuthorisation },
  { name: "PSU-Accept-Language", schema: text, applies: startsAuthorisation },
  // Status pushed to the TPP (notification-headers.ts).
  { name: "TPP-Notification-URI", schema: uri, applies: explicitAuthorisation },
  { name: "TPP-Notification-Content-Preferred", schema: text, applies: explicitAuthorisation },
  // Verification of Payee in the status (Berlin Group 1.3.16; headers.ts).
  { name: "Client-VOP-Requested", schema: { type: "boolean" }, applies: paymentCreation },
  { name: "Client-VOP-Request-ID", schema: text, applies: paymentCreation },
];

/** The header parameters the bank reads on this operation besides X-Request-ID. */
export function readHeaders(op: OperationFacts): Json[] {
  return HEADERS.filter((rule) => rule.applies(op)).map(({ name, required, schema }) =>
    ({ name, in: "header", required: required ?? false, schema }));
}

const REFUSAL_TEXT: Readonly<Record<string, string>> = {
  400: "Malformed request (FORMAT_ERROR, SIGNATURE_INVALID of a Digest, ...)",
  401: "Certificate, signature or consent refused",
  403: "The certificate lacks the role, or the resource is another TPP's",
  413: "The body is larger than the bank accepts",
  406: "The Accept header allows none of the answer's media types",
  415: "The body is not application/json",
  429: "Too many requests from this TPP; see Retry-After",
  500: "The bank could not process the request",
};

/** The statuses the plugin (certificate, role, rate limit, body parser) can answer on `op`. */
export function pluginRefusals(op: OperationFacts): Record<string, object> {
  if (op.probe) return {};
  const statuses = ["400", "401", "429", "500"];
  if (withRole(op)) statuses.push("403");
  if (["POST", "PUT", "DELETE"].includes(op.method)) statuses.push("413", "415");
  return Object.fromEntries(statuses.map((status) => [status, errorResponse]));
}

export const refusalText = (status: string): string =>
  REFUSAL_TEXT[status] ?? "Refused (Berlin Group tppMessages)";

/** Headers of every answer: X-Request-ID echoed; Retry-After on 429. */
export function answerHeaders(op: OperationFacts, status: string): Json {
  const headers: Json = op.probe ? {} : { "X-Request-ID": { schema: requestIdSchema } };
  if (status === "429") headers["Retry-After"] = { schema: { type: "integer" } };
  return headers;
}
