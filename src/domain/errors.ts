/**
 * Xs2aError: the only error type a TPP ever sees. Refusals are thrown as Xs2aError from domain/
 * and from the api/ readers, and rendered in exactly one place (src/api/errors.ts). The codes are
 * the Berlin Group message codes (shared/reference/berlin-group-notes.md, section 8).
 */
export type MessageCode =
  | "FORMAT_ERROR"
  | "PARAMETER_NOT_SUPPORTED"
  | "SERVICE_INVALID"
  | "RESOURCE_UNKNOWN"
  | "CONSENT_UNKNOWN"
  | "CONSENT_INVALID"
  | "CONSENT_EXPIRED"
  | "PERIOD_INVALID"
  | "ACCESS_EXCEEDED"
  | "CERTIFICATE_MISSING"
  | "CERTIFICATE_INVALID"
  | "CERTIFICATE_EXPIRED"
  | "CERTIFICATE_BLOCKED"
  | "ROLE_INVALID"
  | "CERTIFICATE_REVOKED"
  | "PRODUCT_UNKNOWN"
  | "STATUS_INVALID"
  | "CANCELLATION_INVALID"
  | "PRODUCT_INVALID"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "INTERNAL_ERROR"
  | "SIGNATURE_INVALID"
  | "SIGNATURE_MISSING"
  | "HEADERS_TOO_LARGE"
  | "REQUEST_TIMEOUT";

/** Where the offending value came from: Berlin Group gives some codes a different status per place. */
export type Origin = "path" | "query" | "header" | "body" | "certificate" | "state";

export class Xs2aError extends Error {
  constructor(
    readonly code: MessageCode,
    readonly origin: Origin,
    readonly text: string,
    /** The offending field, e.g. "instructedAmount.amount" or "X-Request-ID". */
    readonly path?: string,
  ) {
    super(`${code}: ${text}`);
  }
}

export const formatError = (origin: Origin, path: string, text: string): Xs2aError =>
  new Xs2aError("FORMAT_ERROR", origin, text, path);

export const resourceUnknown = (what: string): Xs2aError =>
  new Xs2aError("RESOURCE_UNKNOWN", "path", `No ${what} with this id exists for this TPP.`);

export const consentUnknown = (origin: Origin): Xs2aError =>
  new Xs2aError(
    "CONSENT_UNKNOWN", origin, "No consent with this Consent-ID exists for this TPP.",
    origin === "header" ? "Consent-ID" : undefined,
  );

export const productUnknown = (product: string): Xs2aError =>
  new Xs2aError("PRODUCT_UNKNOWN", "path", `The payment product "${product}" is not offered.`);
