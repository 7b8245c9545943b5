/**
 * The TPP API on its listener: the plugin that judges certificates, signatures and bearer tokens,
 * and the routes of every resource, in the order the OpenAPI document collects them.
 */
import type { FastifyInstance } from "fastify";
import { accountRoutes } from "../api/accounts.js";
import { consentRoutes } from "../api/consents.js";
import { createDownloadLinks } from "../api/downloads.js";
import { fundsConfirmationRoutes } from "../api/funds-confirmations.js";
import { fundsConsentRoutes } from "../api/funds-consents.js";
import { oauthEndpoints } from "../api/oauth-endpoints.js";
import { openApiRoutes } from "../api/openapi.js";
import { paymentRoutes } from "../api/payments.js";
import { installApiPlugin, type ApiPluginOptions } from "../api/plugin.js";
import { presentersFor } from "../api/profile.js";
import { API_V2_BASE, v2Routes } from "./api-v2-routes.js";
import { basketRoutes } from "../api/signing-baskets.js";
import type { CertificateSources } from "../api/tpp-certificate.js";
import { vopRoutes } from "../api/vop.js";
import type { XmlBodyOptions } from "../api/xml/body.js";
import { createXmlReaders } from "../api/xml/readers.js";
import type { Config } from "../config.js";
import { createBaskets } from "../domain/basket/baskets.js";
import { createAccounts } from "../domain/consent/accounts.js";
import { createFundsConfirmations } from "../domain/consent/funds-confirmations.js";
import { createDeclaredPurposes } from "../domain/dashboard/purposes.js";
import { createFundsConsents } from "../domain/consent/funds-consents.js";
import type { createConsents } from "../domain/consent/registration.js";
import type { Deps } from "../domain/deps.js";
import type { AuditLog } from "../domain/kernel/audit.js";
import { createIdempotency } from "../domain/kernel/idempotency.js";
import type { RedirectRules } from "../domain/kernel/redirect-uri.js";
import type { Scheduler } from "../domain/kernel/scheduler.js";
import { createTppRegistry } from "../domain/kernel/tpps.js";
import { createPayments } from "../domain/payment/initiation.js";
import { confirmAuthorisation } from "../domain/sca/confirmation.js";
import { createDecoupled } from "../domain/sca/decoupled.js";
import { createEmbeddedAuthorisations } from "../domain/sca/embedded.js";
import type { Authorisation } from "../domain/sca/model.js";
import { createNotificationSubscriptions } from "../domain/notification/subscriptions.js";
import { createPartyVerification } from "../domain/vop/parties.js";
import { createVopResponder } from "../domain/vop/responder.js";
import { MTLS_ROUTES, type OAuthServer } from "../oauth/server.js";
import type { TppIdentity } from "../tpp/certificate.js";
import { combineRevocation, createOcspChecker } from "../tpp/ocsp.js";
import { createCrlChecker } from "../tpp/revocation.js";
import { createTrustStore } from "../tpp/trust.js";

export const API_BASE = "/psd2/v1";

/** One rule for TPP-Redirect-URI and an OAuth pushed request's redirect_uri. */
export const redirectRules = (config: Config): RedirectRules => ({
  allowHttpLocalhost: config.mode === "sandbox", domainCheck: config.redirectUriDomainCheck,
});

export interface ApiParts {
  deps: Deps;
  consents: ReturnType<typeof createConsents>;
  scheduler: Scheduler;
  audit: AuditLog;
  trustedCas: string[];
  /** The database-held key redirect links are signed with; download links derive their own. */
  linkKey: Uint8Array;
  /** The OAuth authorisation server, where the bank offers the oauth approach. */
  oauth: OAuthServer | null;
  /** The API's URL as TPPs reach it: known only after listening with port 0. */
  apiUrl: () => string;
}

/** The authorisation server's certificate-bound endpoints; before the API description sees them. */
function oauthApiRoutes(
  api: FastifyInstance, oauth: OAuthServer, plugin: Pick<ApiPluginOptions,
    "certificates" | "ensureTpp" | "admitTpp">,
) {
  oauthEndpoints(api, { ...plugin, paths: MTLS_ROUTES, handle: oauth.handle });
}

/** Where a TPP's certificate is judged: the trusted CAs, CRLs, OCSP, a proxy's header. */
function certificateSources(config: Config, trustedCas: string[]): CertificateSources {
  return {
    revocation: combineRevocation([
      createCrlChecker(config.tppCrlFiles, trustedCas),
      createOcspChecker({
        trusted: trustedCas, failClosed: config.ocspFailClosed, timeoutMs: 5_000,
      }),
    ]),
    trust: createTrustStore(trustedCas),
    certHeader: config.tppCertHeader, trustedProxies: config.trustedProxies,
  };
}

/** The limits of XML bodies and their readers, which stop when the listener closes. */
function xmlBodies(api: FastifyInstance, config: Config): XmlBodyOptions {
  const readers = createXmlReaders({ readers: config.xmlReaders,
    queueMax: config.xmlQueueMax, timeoutMs: config.xmlReadTimeoutMs });
  api.addHook("onClose", () => readers.close());
  return { bodyLimit: config.xmlBodyLimitBytes, elementsMax: config.xmlElementsMax,
    attributesMax: config.xmlAttributesMax, readers };
}

/** The checks of every TPP request (plugin.ts) and the authorisation server's endpoints. */
function installTppChecks(api: FastifyInstance, config: Config, parts: ApiParts): void {
  const { deps, scheduler, audit, trustedCas, oauth } = parts;
  const registry = createTppRegistry(deps, config.tppRequestsPerMinute);
  if (config.tppRequestsPerMinute > 0) {
    scheduler.every("tpp-request-counts", 60_000, () => registry.forgetPastWindows());
  }
  const plugin = {
    ensureTpp: (tpp: TppIdentity) => registry.ensure(tpp),
    certificates: certificateSources(config, trustedCas),
    admitTpp: (id: string) => registry.admit(id),
  };
  if (oauth) oauthApiRoutes(api, oauth, plugin);
  installApiPlugin(api, {
    ...plugin, bodyLimit: config.bodyLimitBytes, xml: xmlBodies(api, config),
    audit: (entry) => audit.record(entry),
    requireSignature: config.requireHttpSignature,
    requireJwsSignature: config.v2JwsSignatureRequired,
    bearer: oauth ? {
      verify: (token, der) => oauth.verifyAccessToken(token, der),
      required: config.oauthBearerRequired, bases: [API_BASE, API_V2_BASE],
    } : undefined,
  });
}

/**
 * Verification of Party for /v2: accepted bulks are answered by a scheduled run, once across
 * instances, every VOP_BULK_POLL_MS.
 */
function partyVerification(config: Config, { deps, scheduler }: ApiParts) {
  const parties = createPartyVerification(deps, { bulkEntriesMax: config.vopBulkEntriesMax });
  scheduler.every("vop-bulks", config.vopBulkPollMs, async () => { await parties.processBulks(); });
  return { parties, bulkEntriesMax: config.vopBulkEntriesMax, bodyLimit: config.bodyLimitBytes };
}

/** The TPP API's plugin and routes; returns the OpenAPI document of /v1 they make up. */
export function apiRoutes(api: FastifyInstance, config: Config, parts: ApiParts): () => object {
  const { deps, consents, oauth } = parts;
  const idempotency = createIdempotency(deps);
  const base = API_BASE;
  installTppChecks(api, config, parts);
  const redirects = { ...redirectRules(config), notificationPorts: config.notificationPorts,
    notificationLoopback: config.notificationLoopback };
  const presenters = presentersFor(config.apiProfile);
  const notifications = createNotificationSubscriptions(deps);
  const purposes = createDeclaredPurposes(deps);
  const downloads = createDownloadLinks(parts.linkKey, deps.clock);
  // Before the v1 document: its contract is the openFinance files (schemas/openfinance/).
  const documented = {
    apiUrl: parts.apiUrl,
    oauth: oauth
      ? { metadataUrl: oauth.metadataUrl, required: config.oauthBearerRequired } : undefined,
  };
  const approaches = { offered: config.scaApproaches, fallback: config.scaDefaultApproach,
    oauthMetadata: oauth?.metadataUrl, confirmation: config.authorisationConfirmation };
  const confirmation = config.authorisationConfirmation
    ? (a: Authorisation, code: string) => confirmAuthorisation(deps, a, code) : undefined;
  if (config.apiVersions.includes("v2")) {
    v2Routes(api, deps, { idempotency, redirects, notifications, purposes, downloads,
      downloadThreshold: config.downloadThresholdEntries,
      fundsConsentRequired: config.fundsConfirmationConsentRequired,
      document: { ...documented, title: `${config.bankName} openFinance API` },
      sca: { approaches, confirmation }, vop: partyVerification(config, parts) });
  }
  // First of v1's: it collects every route registered after it.
  const openApiDocument = openApiRoutes(api, {
    base, profile: config.apiProfile, presenters, title: `${config.bankName} PSD2 API`,
    version: "v1", ...documented,
  });
  const embedded = createEmbeddedAuthorisations(deps);
  const decoupled = createDecoupled(deps);
  paymentRoutes(api, {
    base, payments: createPayments(deps), idempotency, redirects, presenters, approaches,
    embedded, decoupled, confirmation, notifications, purposes, clock: deps.clock,
  });
  consentRoutes(api, {
    base, consents, idempotency, redirects, presenters, approaches, embedded, decoupled,
    confirmation, notifications, purposes,
  });
  basketRoutes(api, {
    base, baskets: createBaskets(deps), idempotency, redirects, presenters,
    approaches, embedded, decoupled, confirmation, notifications, purposes,
  });
  accountRoutes(api, {
    base, accounts: createAccounts(deps, consents), presenters, clock: deps.clock,
    downloads, downloadThreshold: config.downloadThresholdEntries,
  });
  const fundsConsents = createFundsConsents(deps, consents);
  fundsConsentRoutes(api, {
    base, fundsConsents, idempotency, redirects, presenters, approaches, embedded, decoupled,
    purposes,
  });
  fundsConfirmationRoutes(api, { base, funds: createFundsConfirmations(deps),
    consentGate: config.fundsConfirmationConsentRequired
      ? fundsConsents.requireConsent : undefined });
  vopRoutes(api, createVopResponder(deps, {
    requestsPerMinute: config.vopRequestsPerMinute,
    mismatchesPerMinute: config.vopMismatchesPerMinute,
  }));
  return openApiDocument;
}
