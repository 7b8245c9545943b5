/**
 * How the published OpenAPI document names and secures an operation: the Berlin Group file's
 * operationId where the route is one of its operations (generators name methods after it, so a
 * TPP's code reads as the standard does), a name made from the path elsewhere; the TPP's
 * certificate on every operation but the probes, and the OAuth bearer where the bank checks one
 * (bearer.ts). Derived from the route, so a route added later is named and secured too.
 */
import { PAYMENT_SERVICES, type PaymentService } from "../domain/payment/model.js";
import type { OperationFacts } from "./openapi-rules.js";
import { initiationProducts } from "./xml/initiation.js";

type Json = Record<string, unknown>;

/**
 * The Berlin Group NextGenPSD2 1.3.12 file's operationIds (test/fixtures, CC BY 4.0), by method
 * and path below /v1: `{service}` a payment service, `{product}` a payment product, `{}` an id.
 */
export const BERLIN_GROUP_OPERATION_IDS: Readonly<Record<string, string>> = {
  "POST {service}/{product}": "initiatePayment",
  "GET {service}/{product}/{}": "getPaymentInformation",
  "DELETE {service}/{product}/{}": "cancelPayment",
  "GET {service}/{product}/{}/status": "getPaymentInitiationStatus",
  "POST {service}/{product}/{}/authorisations": "startPaymentAuthorisation",
  "GET {service}/{product}/{}/authorisations": "getPaymentInitiationAuthorisation",
  "GET {service}/{product}/{}/authorisations/{}": "getPaymentInitiationScaStatus",
  "PUT {service}/{product}/{}/authorisations/{}": "updatePaymentPsuData",
  "POST {service}/{product}/{}/cancellation-authorisations":
    "startPaymentInitiationCancellationAuthorisation",
  "GET {service}/{product}/{}/cancellation-authorisations":
    "getPaymentInitiationCancellationAuthorisationInformation",
  "GET {service}/{product}/{}/cancellation-authorisations/{}": "getPaymentCancellationScaStatus",
  "PUT {service}/{product}/{}/cancellation-authorisations/{}": "updatePaymentCancellationPsuData",
  "GET accounts": "getAccountList",
  "GET accounts/{}": "readAccountDetails",
  "GET accounts/{}/balances": "getBalances",
  "GET accounts/{}/transactions": "getTransactionList",
  "GET accounts/{}/transactions/{}": "getTransactionDetails",
  "GET card-accounts": "getCardAccountList",
  "GET card-accounts/{}": "readCardAccountDetails",
  "GET card-accounts/{}/balances": "getCardAccountBalances",
  "GET card-accounts/{}/transactions": "getCardAccountTransactionList",
  "POST consents": "createConsent",
  "GET consents/{}": "getConsentInformation",
  "DELETE consents/{}": "deleteConsent",
  "GET consents/{}/status": "getConsentStatus",
  "POST consents/{}/authorisations": "startConsentAuthorisation",
  "GET consents/{}/authorisations": "getConsentAuthorisation",
  "GET consents/{}/authorisations/{}": "getConsentScaStatus",
  "PUT consents/{}/authorisations/{}": "updateConsentsPsuData",
  "POST funds-confirmations": "checkAvailabilityOfFunds",
  "POST signing-baskets": "createSigningBasket",
  "GET signing-baskets/{}": "getSigningBasket",
  "DELETE signing-baskets/{}": "deleteSigningBasket",
  "GET signing-baskets/{}/status": "getSigningBasketStatus",
  "POST signing-baskets/{}/authorisations": "startSigningBasketAuthorisation",
  "GET signing-baskets/{}/authorisations": "getSigningBasketAuthorisation",
  "GET signing-baskets/{}/authorisations/{}": "getSigningBasketScaStatus",
  "PUT signing-baskets/{}/authorisations/{}": "updateSigningBasketPsuData",
};

const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/)
  .map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");

const paymentService = (segment: string | undefined) =>
  PAYMENT_SERVICES.find((service) => service === segment);

/** A route's key in BERLIN_GROUP_OPERATION_IDS, and its payment service if any. */
function berlinGroupKey(op: OperationFacts, base: string) {
  if (!op.url.startsWith(`${base}/`)) return null;
  const segments = op.url.slice(base.length + 1).split("/");
  const service = paymentService(segments[0]);
  const shape = segments.map((segment, i) => {
    if (i === 0 && service) return "{service}";
    if (segment === ":product") return "{product}";
    return segment.startsWith(":") ? "{}" : segment;
  });
  return { key: `${op.method} ${shape.join("/")}`, service };
}

/** "getPaymentInformation" of periodic payments is "getPeriodicPaymentInformation". */
const ofService = (id: string, service: PaymentService | undefined) =>
  (service ? id.replace("Payment", pascal(service).replace(/s$/, "")) : id);

/** Elsewhere method and path: GET /psd2/v1/payments/{paymentId} is getPsd2V1PaymentsByPaymentId. */
const pathName = (method: string, path: string) => method.toLowerCase() + path.split("/")
  .map((segment) => segment.replace(/^\{(.+)\}$/, "By-$1")).map(pascal).join("");

export function operationId(op: OperationFacts, base: string, path: string): string {
  const found = berlinGroupKey(op, base);
  const id = found && BERLIN_GROUP_OPERATION_IDS[found.key];
  return id ? ofService(id, found.service) : pathName(op.method, path);
}

/** One documented operation of a route: its path, name, and the one media type of its body. */
export interface Documented { path: string; operationId: string; bodyMedia?: string }

/**
 * An initiation is documented per product: beside the spec's GET /payments/{paymentId}, a POST
 * /payments/{product} would be a second path differing only in its parameter's name.
 */
export function documentedPaths(op: OperationFacts, base: string, path: string): Documented[] {
  const id = operationId(op, base, path);
  const service = paymentService(path.slice(base.length + 1).split("/")[0]);
  if (op.method !== "POST" || !service || !path.endsWith("/{product}")) {
    return [{ path, operationId: id }];
  }
  return Object.entries(initiationProducts(service)).map(([product, bodyMedia]) => ({
    path: path.replace(/\{product\}$/, product), operationId: id + pascal(product), bodyMedia,
  }));
}

export const CERTIFICATE = "tppCertificate";
export const BEARER = "BearerAuthOAuth";

export interface OAuthFacts {
  /** RFC 8414 metadata of the bank's authorisation server. */
  metadataUrl: () => string;
  /** OAUTH_BEARER_REQUIRED. */
  required: boolean;
}

export function securitySchemes(oauth: OAuthFacts | undefined): Json {
  const certificate = {
    type: "mutualTLS",
    description: "The TPP's eIDAS QWAC, presented in the TLS handshake; its PSD2 roles decide "
      + "which operations it may call (x-psd2-role).",
  };
  if (!oauth) return { [CERTIFICATE]: certificate };
  const bearer = {
    type: "http", scheme: "bearer",
    description: "An access token of the bank's authorisation server "
      + `(${oauth.metadataUrl()}), bound to the TPP's certificate (RFC 8705), for the consent or `
      + "payment the call names. Checked whenever sent"
      + (oauth.required ? "; required on every call naming a consent or payment." : "."),
  };
  return { [CERTIFICATE]: certificate, [BEARER]: bearer };
}

/** Calls on these name a consent or payment, by path or Consent-ID (bearer.ts's namedResource). */
const namesResource = (op: OperationFacts) =>
  /:(paymentId|consentId)(\/|$)/.test(op.url) || /\/(card-)?accounts(\/|$)/.test(op.url);

/** XS2A: the API's operations and those with a PSD2 role (the spec's consent status alias). */
const xs2a = (op: OperationFacts, base: string) =>
  !op.document && (op.role !== undefined || op.url.startsWith(`${base}/`));

/** Probes: none; the document and other APIs: the certificate; XS2A: and the bearer. */
export function security(op: OperationFacts, base: string, oauth: OAuthFacts | undefined) {
  if (op.probe) return [];
  const certificate = { [CERTIFICATE]: [] };
  if (!oauth || !xs2a(op, base)) return [certificate];
  const both = { ...certificate, [BEARER]: [] };
  return oauth.required && namesResource(op) ? [both] : [certificate, both];
}
