/**
 * The catalog of every refusal the bank answers a TPP with, after Fastify's lib/errors.js: each is
 * a named constructor here, so a reader finds every text a TPP can receive in one file, and
 * docs/errors.md is checked against it (test/docs.test.ts). Refusals are thrown from domain/ and
 * the api/ readers and rendered in exactly one place (src/api/errors.ts). The codes are the
 * Berlin Group message codes (shared/reference/berlin-group-notes.md, section 8).
 *
 * Operators' mistakes at the command line are OperatorError, never Xs2aError: they are not
 * answers to a TPP and have no HTTP status.
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
  | "REQUESTED_FORMATS_INVALID"
  | "PAYLOAD_TOO_LARGE"
  | "INTERNAL_ERROR"
  | "SIGNATURE_INVALID"
  | "SIGNATURE_MISSING"
  | "HEADERS_TOO_LARGE"
  | "REQUEST_TIMEOUT"
  | "PSU_CREDENTIALS_INVALID"
  | "SCA_METHOD_UNKNOWN"
  | "SCA_INVALID"
  | "RESOURCE_BLOCKED"
  | "REFERENCE_MIX_INVALID"
  | "REFERENCE_STATUS_INVALID"
  | "TOKEN_UNKNOWN"
  | "TOKEN_INVALID"
  | "TOKEN_EXPIRED"
  | "CORPORATE_ID_INVALID"
  | "CONSENT_TYPE_NOT_SUPPORTED";

/**
 * Where the offending value came from: Berlin Group gives some codes a different status per
 * place.
 */
export const ORIGINS = ["path", "query", "header", "body", "certificate", "state"] as const;
export type Origin = typeof ORIGINS[number];

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

  /** The same refusal about a field nested under `prefix`, e.g. one entry of a bulk payment. */
  under(prefix: string): Xs2aError {
    return new Xs2aError(this.code, this.origin, this.text, `${prefix}.${this.path ?? ""}`);
  }
}

/** A mistake of the operator at the command line: shown as "field: text", exit status 2. */
export class OperatorError extends Error {
  constructor(readonly text: string, readonly field?: string) {
    super(field === undefined ? text : `${field}: ${text}`);
  }
}

// ---- The request as sent: form, media type, size ----

export const formatError = (origin: Origin, path: string, text: string): Xs2aError =>
  new Xs2aError("FORMAT_ERROR", origin, text, path);

export const malformedHttp = (): Xs2aError =>
  new Xs2aError("FORMAT_ERROR", "header", "The request is not well-formed HTTP.");

export const requestIdReused = (): Xs2aError =>
  formatError("header", "X-Request-ID",
    "This X-Request-ID was already used for a different request; use a new one.");

export const unsupportedMediaType = (expected = "application/json"): Xs2aError =>
  new Xs2aError("UNSUPPORTED_MEDIA_TYPE", "header", `Content-Type must be ${expected}.`,
    "Content-Type");

/** The Accept header allows none of the media types the endpoint answers in. */
export const requestedFormatsInvalid = (offered: string): Xs2aError =>
  new Xs2aError("REQUESTED_FORMATS_INVALID", "header",
    `Accept must allow one of: ${offered}.`, "Accept");

/** The same refusal naming another field: a pain.001's element instead of its JSON field. */
export const relocated = (error: Xs2aError, path: string): Xs2aError =>
  new Xs2aError(error.code, error.origin, error.text, path);

export const payloadTooLarge = (): Xs2aError =>
  new Xs2aError("PAYLOAD_TOO_LARGE", "body", "The request body is too large.");

export const headersTooLarge = (): Xs2aError =>
  new Xs2aError("HEADERS_TOO_LARGE", "header",
    "The request headers are larger than the bank accepts.");

/** Node's headers and request timeouts (REQUEST_TIMEOUT_SECONDS, HEADERS_TIMEOUT_SECONDS). */
export const requestTimedOut = (): Xs2aError =>
  new Xs2aError("REQUEST_TIMEOUT", "state",
    "The request did not arrive in time; the connection is closed.");

export const parameterNotSupported = (path: string, text: string): Xs2aError =>
  new Xs2aError("PARAMETER_NOT_SUPPORTED", "query", text, path);

export const redirectApproachOnly = (): Xs2aError =>
  new Xs2aError("SERVICE_INVALID", "state", "This bank offers the redirect SCA approach only: "
    + "the PSU completes the authorisation at its scaRedirect link.");

/** PUT on an authorisation of the redirect approach: its PSU acts on the bank's pages. */
export const notEmbedded = (): Xs2aError =>
  new Xs2aError("SERVICE_INVALID", "state", "This authorisation uses the redirect SCA approach: "
    + "the PSU completes it at its scaRedirect link, not through updates of the TPP.");

/** A redirect authorisation of a resource created without TPP-Redirect-URI (embedded). */
export const noWayBack = (): Xs2aError =>
  new Xs2aError("FORMAT_ERROR", "header", "The resource was created without TPP-Redirect-URI, "
    + "so a redirect has nowhere to return: start its authorisation in the embedded approach "
    + "(TPP-Redirect-Preferred: false).", "TPP-Redirect-URI");

/** Berlin Group: a bank-offered consent (empty account lists) needs the bank's own pages. */
export const bankOfferedNotEmbedded = (): Xs2aError =>
  new Xs2aError("SERVICE_INVALID", "body", "A bank-offered consent (empty account lists) lets "
    + "the PSU choose accounts on the bank's pages: not offered in the embedded or decoupled "
    + "SCA approach.",
  "access");

// ---- What the request names ----

export const resourceUnknown = (what: string): Xs2aError =>
  new Xs2aError("RESOURCE_UNKNOWN", "path", `No ${what} with this id exists for this TPP.`);

export const endpointUnknown = (method: string, path: string): Xs2aError =>
  new Xs2aError("RESOURCE_UNKNOWN", "path",
    `${method} ${path} is not an endpoint of this interface.`);

/** A path the interface serves, asked with a method it does not take there (`allowed`: Allow). */
export const methodNotAllowed = (method: string, path: string, allowed: string): Xs2aError =>
  new Xs2aError("SERVICE_INVALID", "path", `${method} is not a method of ${path}; it takes ${
    allowed}.`);

/** A payment whose creditor is its debtor account: it would move nothing, so it is refused. */
export const paymentToItself = (path: string): Xs2aError =>
  new Xs2aError("FORMAT_ERROR", "body", "The creditor account is the debtor account: a payment "
    + "from an account to itself moves nothing. Name another creditor account.", path);

/** The body refers to something the bank does not hold, e.g. an account of another bank. */
export const referenceUnknown = (path: string, text: string): Xs2aError =>
  new Xs2aError("RESOURCE_UNKNOWN", "body", text, path);

export const productUnknown = (product: string): Xs2aError =>
  new Xs2aError("PRODUCT_UNKNOWN", "path", `The payment product "${product}" is not offered.`);

export const instantNotFutureDated = (): Xs2aError =>
  new Xs2aError("PRODUCT_INVALID", "body",
    "Instant payments execute at once; use sepa-credit-transfers for a future date.",
    "requestedExecutionDate");

// ---- Consents ----

export const consentUnknown = (origin: Origin): Xs2aError =>
  new Xs2aError(
    "CONSENT_UNKNOWN", origin, "No consent with this Consent-ID exists for this TPP.",
    origin === "header" ? "Consent-ID" : undefined,
  );

/**
 * A resource created through the other interface (/v1 or /v2): known to the bank, but not to
 * this interface, so answered as `unknown` (its code, origin and path), with a text that says
 * where the `what` lives.
 */
export const ofOtherInterface = (unknown: Xs2aError, what: string, createdOn: string): Xs2aError =>
  new Xs2aError(unknown.code, unknown.origin,
    `This ${what} was created through /${createdOn}; use it through /${createdOn} only.`,
    unknown.path);

const KIND_TEXT = {
  "account-access": "access to account information", "funds-confirmation": "funds confirmations",
} as const;

/**
 * A consent of another kind than the request is about (an account-access consent where a
 * funds-confirmation one is meant, or the reverse).
 */
export const consentOfOtherKind = (
  origin: Origin, kind: keyof typeof KIND_TEXT, wanted: keyof typeof KIND_TEXT,
): Xs2aError =>
  new Xs2aError("CONSENT_UNKNOWN", origin,
    `This consent gives ${KIND_TEXT[kind]}, not ${KIND_TEXT[wanted]}.`,
    origin === "header" ? "Consent-ID" : undefined);

/** openFinance 2.x: a consentType the bank does not offer for this kind of consent. */
export const consentTypeNotSupported = (...offered: string[]): Xs2aError =>
  new Xs2aError("CONSENT_TYPE_NOT_SUPPORTED", "body",
    `This bank offers the consent types ${offered.join(" and ")} here.`, "consentType");

export const fundsConsentUnknown = (): Xs2aError =>
  new Xs2aError("CONSENT_UNKNOWN", "path",
    "No funds-confirmation consent with this id exists for this TPP.");

/** The consent in Consent-ID cannot be used (not authorised, rejected, revoked, another kind). */
export const consentUnusable = (text: string): Xs2aError =>
  new Xs2aError("CONSENT_INVALID", "header", text, "Consent-ID");

export const consentExpired = (status: string): Xs2aError =>
  new Xs2aError("CONSENT_EXPIRED", "header",
    `This consent is ${status}; ask the PSU for a new one.`, "Consent-ID");

/** The consent does not grant what the request reads (an account, a kind of access). */
export const accessNotGranted = (text: string): Xs2aError =>
  new Xs2aError("CONSENT_INVALID", "path", text);

export const balancesNotGranted = (): Xs2aError =>
  new Xs2aError("CONSENT_INVALID", "query",
    "This consent does not grant access to balances.", "withBalance");

export const accountNotCovered = (): Xs2aError =>
  new Xs2aError("CONSENT_INVALID", "body", "The consent does not cover this account.", "account");

export const periodInvalid = (text: string): Xs2aError =>
  new Xs2aError("PERIOD_INVALID", "query", text, "dateFrom");

export const consentUsedUp = (text: string): Xs2aError =>
  new Xs2aError("ACCESS_EXCEEDED", "state", text);

export const tppPasswordChecksExceeded = (): Xs2aError =>
  new Xs2aError("ACCESS_EXCEEDED", "state",
    "Too many PSU passwords of this TPP are being checked at once; retry later.");

export const tppRateLimited = (): Xs2aError =>
  new Xs2aError("ACCESS_EXCEEDED", "state", "Too many requests from this TPP; retry later.");

/** Every XML document reader is busy and the queue for them is full (XML_QUEUE_MAX). */
export const xmlReadersBusy = (): Xs2aError =>
  new Xs2aError("ACCESS_EXCEEDED", "state",
    "The bank is reading too many XML documents at once; retry later.");

// ---- Lifecycles ----

export const authorisationOver = (
  resource: "payment" | "consent" | "signing basket", status: string,
): Xs2aError =>
  new Xs2aError("STATUS_INVALID", "state",
    `The ${resource} is ${status}: its authorisation is over.`);

export const cancellationTooLate = (status: string): Xs2aError =>
  new Xs2aError("CANCELLATION_INVALID", "state",
    `The payment can no longer be cancelled: its status is ${status}.`);

export const cancellationNotNeeded = (status: string): Xs2aError =>
  new Xs2aError("CANCELLATION_INVALID", "state", "Only an authorised payment not yet executed "
    + `needs a cancellation authorisation; its status is ${status}.`);

/**
 * openFinance 2.x has no CANCELLATION_INVALID on its authorisation paths: a cancellation
 * authorisation the payment's status rules out is a conflict there (STATUS_INVALID, 409).
 */
export const cancellationConflict = (error: unknown): unknown =>
  error instanceof Xs2aError && error.code === "CANCELLATION_INVALID"
    ? new Xs2aError("STATUS_INVALID", "state", error.text) : error;

/** PUT creditor-confirmation of a payment whose payee check asked for none (VOP 1.1). */
export const nothingToConfirm = (status: string): Xs2aError =>
  new Xs2aError("STATUS_INVALID", "state", `The payment is ${status}: only a payment whose `
    + "payee check found a close or no match (RVCM) awaits a creditor confirmation.");

/** An authorisation of a /v2 payment in RVCM before the TPP confirmed its payee (VOP 1.1). */
export const creditorUnconfirmed = (): Xs2aError =>
  new Xs2aError("STATUS_INVALID", "state", "The payee check found a close or no match (RVCM): "
    + "confirm the creditor (PUT creditor-confirmation) after showing the PSU, then authorise.");

// ---- Signing baskets ----

/** The payment or consent is held by a signing basket: only the basket is authorised. */
export const resourceBlocked = (text: string): Xs2aError =>
  new Xs2aError("RESOURCE_BLOCKED", "state", text);

export const heldByBasket = (what: "payment" | "consent", basketId: string): Xs2aError =>
  resourceBlocked(`The ${what} is in the signing basket ${basketId}: authorise the basket, `
    + `or delete it to act on the ${what} on its own.`);

/** A basket's body names what a basket cannot hold (e.g. a bulk payment) or nothing at all. */
export const referenceMixInvalid = (path: string, text: string): Xs2aError =>
  new Xs2aError("REFERENCE_MIX_INVALID", "body", text, path);

/** A basket's body names a payment or consent that no longer awaits its authorisation. */
export const referenceStatusInvalid = (path: string, text: string): Xs2aError =>
  new Xs2aError("REFERENCE_STATUS_INVALID", "body", text, path);

/** DELETE of a basket the PSU has decided already. */
export const basketNotDeletable = (status: string): Xs2aError =>
  new Xs2aError("STATUS_INVALID", "state",
    `The signing basket is ${status}: only a basket not yet authorised can be deleted.`);

// ---- The PSU's factors in the embedded SCA approach ----

/** A wrong password or code, an unknown or blocked PSU: which one is said only where safe. */
export const psuCredentialsInvalid = (text: string): Xs2aError =>
  new Xs2aError("PSU_CREDENTIALS_INVALID", "body", text);

export const scaMethodUnknown = (text: string): Xs2aError =>
  new Xs2aError("SCA_METHOD_UNKNOWN", "body", text, "authenticationMethodId");

/** PSU-Corporate-ID names no company of this bank, or not the one holding the account. */
export const corporateIdInvalid = (text: string): Xs2aError =>
  new Xs2aError("CORPORATE_ID_INVALID", "header", text, "PSU-Corporate-ID");

/** The authorisation cannot take this update now: another step is due, or it is over. */
export const scaInvalid = (text: string): Xs2aError =>
  new Xs2aError("SCA_INVALID", "state", text);

// ---- Authorisation confirmation (AUTHORISATION_CONFIRMATION) ----

/** Not the code the redirect back to the TPP carried; counted as an attempt. */
export const confirmationCodeWrong = (): Xs2aError => formatError("body", "confirmationCode",
  "The confirmation code is not the one this authorisation's redirect back to the TPP carried.");

/** Nothing to confirm: the PSU has not confirmed yet, the code was used, or it is over. */
export const noConfirmationAwaited = (): Xs2aError => scaInvalid("This authorisation awaits no "
  + "confirmation code: its scaStatus is not unconfirmed (the PSU has not confirmed yet, the "
  + "code was used already, or the authorisation is over).");

// ---- The TPP's certificate and signature ----

export const CERTIFICATE_CODES = [
  "CERTIFICATE_MISSING", "CERTIFICATE_INVALID", "CERTIFICATE_EXPIRED", "CERTIFICATE_REVOKED",
] as const satisfies readonly MessageCode[];
export type CertificateCode = typeof CERTIFICATE_CODES[number];

export const certificateRefused = (code: CertificateCode, text: string): Xs2aError =>
  new Xs2aError(code, "certificate", text);

export const tppBlocked = (): Xs2aError =>
  new Xs2aError("CERTIFICATE_BLOCKED", "certificate",
    "The bank has blocked this TPP's access; contact the bank.");

export const roleInvalid = (role: string): Xs2aError =>
  new Xs2aError("ROLE_INVALID", "certificate",
    `This service needs the PSD2 role ${role}, which the certificate does not carry.`);

// ---- OAuth2 access tokens (Authorization: Bearer) ----

export const tokenUnknown = (): Xs2aError =>
  new Xs2aError("TOKEN_UNKNOWN", "header",
    "The access token is not one the bank issued, or it was revoked.", "Authorization");

export const tokenExpired = (): Xs2aError =>
  new Xs2aError("TOKEN_EXPIRED", "header", "The access token has expired.", "Authorization");

export const tokenInvalid = (text: string): Xs2aError =>
  new Xs2aError("TOKEN_INVALID", "header", text, "Authorization");

export const tokenRequired = (): Xs2aError => tokenInvalid("This bank requires an OAuth access "
  + "token for the consent or payment this call names: send Authorization: Bearer <token>.");

export const tokenNotBound = (): Xs2aError => tokenInvalid(
  "The access token was issued to another client certificate than the one of this connection.");

export const tokenOutOfScope = (): Xs2aError => tokenInvalid(
  "The access token's scope does not name the consent or payment this call is about.");

export const signatureInvalid = (path: string, text: string): Xs2aError =>
  new Xs2aError("SIGNATURE_INVALID", "header", text, path);

/** A Digest that does not match the body: a malformed request rather than a bad signature. */
export const digestInvalid = (text: string): Xs2aError =>
  new Xs2aError("SIGNATURE_INVALID", "body", text, "Digest");

export const signatureMissing = (): Xs2aError =>
  new Xs2aError("SIGNATURE_MISSING", "header", "The bank requires every request to be signed: "
    + "send Digest, Signature and TPP-Signature-Certificate.", "Signature");

/** openFinance 2.x (/v2) signs with x-jws-signature instead (V2_JWS_SIGNATURE_REQUIRED). */
export const jwsSignatureMissing = (): Xs2aError =>
  new Xs2aError("SIGNATURE_MISSING", "header", "The bank requires every /v2 request to be "
    + "signed: send Digest and x-jws-signature.", "x-jws-signature");

// ---- The bank itself ----

export const internalError = (): Xs2aError =>
  new Xs2aError("INTERNAL_ERROR", "state",
    "The bank could not process the request; try again later.");
