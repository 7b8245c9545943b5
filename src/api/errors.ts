/**
 * The one renderer of refusals for TPPs: Xs2aError → HTTP status + { tppMessages } (NextGenPSD2
 * 1.3, /v1) or { apiClientMessages } (openFinance 2.x, /v2: the same messages under 2.x's name).
 * The status of a code can depend on where the offending value came from (Berlin Group
 * message-code table).
 */
import type { MessageCode, Origin, Xs2aError } from "../domain/kernel/errors.js";

const STATUS: Record<MessageCode, number> = {
  FORMAT_ERROR: 400,
  PARAMETER_NOT_SUPPORTED: 400,
  SERVICE_INVALID: 405,
  RESOURCE_UNKNOWN: 404,
  CONSENT_UNKNOWN: 400,
  CONSENT_INVALID: 401,
  CONSENT_EXPIRED: 401,
  PERIOD_INVALID: 400,
  ACCESS_EXCEEDED: 429,
  CERTIFICATE_MISSING: 401,
  CERTIFICATE_INVALID: 401,
  CERTIFICATE_EXPIRED: 401,
  CERTIFICATE_BLOCKED: 401,
  ROLE_INVALID: 403,
  CERTIFICATE_REVOKED: 401,
  PRODUCT_UNKNOWN: 404,
  STATUS_INVALID: 409,
  CANCELLATION_INVALID: 405,
  PRODUCT_INVALID: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUESTED_FORMATS_INVALID: 406,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
  SIGNATURE_INVALID: 401,
  SIGNATURE_MISSING: 401,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  PSU_CREDENTIALS_INVALID: 401,
  SCA_METHOD_UNKNOWN: 400,
  SCA_INVALID: 400,
  TOKEN_UNKNOWN: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  CORPORATE_ID_INVALID: 401,
  RESOURCE_BLOCKED: 400,
  REFERENCE_MIX_INVALID: 400,
  REFERENCE_STATUS_INVALID: 409,
  CONSENT_TYPE_NOT_SUPPORTED: 400,
};

/** Codes whose status differs by origin: an unknown consent in the path is 403, in a header 400. */
const STATUS_BY_ORIGIN: Partial<Record<MessageCode, Partial<Record<Origin, number>>>> = {
  CONSENT_UNKNOWN: { path: 403 },
  RESOURCE_UNKNOWN: { body: 400 },
  // A service the payload asks for (Berlin Group: 405 only for the HTTP method).
  SERVICE_INVALID: { body: 400 },
  // A Digest that does not match the body is a malformed request; a bad signature is not.
  SIGNATURE_INVALID: { body: 400 },
};

/**
 * Codes the openFinance 2.x files list under another status than this table: ROLE_INVALID is one
 * of their 401 codes and none of their 403 ones.
 */
const V2_STATUS: Partial<Record<MessageCode, number>> = { ROLE_INVALID: 401 };

function statusOf(code: MessageCode, origin: Origin, field: MessagesField): number {
  const v2 = field === "apiClientMessages" ? V2_STATUS[code] : undefined;
  return v2 ?? STATUS_BY_ORIGIN[code]?.[origin] ?? STATUS[code];
}

export interface TppMessage { category: "ERROR"; code: string; text: string; path?: string }

/** 415, 413, 431 and 408 have no Berlin Group code; FORMAT_ERROR names the problem for the TPP. */
function wireCode(code: MessageCode): string {
  const unnamed: MessageCode[] = [
    "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "HEADERS_TOO_LARGE", "REQUEST_TIMEOUT",
  ];
  return unnamed.includes(code) ? "FORMAT_ERROR" : code;
}

/** Where an interface's refusals list their messages. */
export type MessagesField = "tppMessages" | "apiClientMessages";

/** Whether a request path is of /v2, openFinance 2.x (else NextGenPSD2 1.3). */
export const isV2Path = (path: string): boolean => /^\/psd2\/v2\//.test(path);

/** The field of the interface a request path belongs to. */
export function messagesFieldOf(path: string): MessagesField {
  return isV2Path(path) ? "apiClientMessages" : "tppMessages";
}

export function renderError(
  error: Xs2aError, field: MessagesField = "tppMessages",
): { status: number; body: Partial<Record<MessagesField, TppMessage[]>> } {
  const message: TppMessage = { category: "ERROR", code: wireCode(error.code), text: error.text };
  if (error.path !== undefined) message.path = error.path;
  return { status: statusOf(error.code, error.origin, field), body: { [field]: [message] } };
}

/** Every (code, status) pair a TPP can receive: what docs/errors.md must describe. */
export function errorCatalogue(): { code: string; status: number }[] {
  const pairs = (Object.keys(STATUS) as MessageCode[]).flatMap((code) =>
    [STATUS[code], ...Object.values(STATUS_BY_ORIGIN[code] ?? {}), V2_STATUS[code]]
      .filter((status) => status !== undefined)
      .map((status) => `${wireCode(code)} ${status}`));
  return [...new Set(pairs)].map((pair) => {
    const [code = "", status = ""] = pair.split(" ");
    return { code, status: Number(status) };
  });
}
