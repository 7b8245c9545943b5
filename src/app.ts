/**
 * The composition root: opens the store, picks the core banking system, builds the use cases and
 * both servers (the TPP API with client certificates, the PSU pages without). The only importer
 * of ledger/: a bank's own core replaces createEmbeddedLedger here and nowhere else.
 */
import { readFile } from "node:fs/promises";
import type { Server as NetServer, Socket } from "node:net";
import { join } from "node:path";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import pino from "pino";
import { adminRoutes, createMetrics } from "./admin.js";
import { accountRoutes } from "./api/accounts.js";
import { basketRoutes } from "./api/signing-baskets.js";
import { createBaskets } from "./domain/basket/baskets.js";
import { carryOutUnfinished } from "./domain/basket/carry-out.js";
import { createDownloadLinks } from "./api/downloads.js";
import { consentRoutes } from "./api/consents.js";
import { fundsConsentRoutes } from "./api/funds-consents.js";
import { healthRoutes } from "./api/health.js";
import { paymentRoutes } from "./api/payments.js";
import { vopRoutes } from "./api/vop.js";
import { createVopResponder } from "./domain/vop/responder.js";
import { fundsConfirmationRoutes } from "./api/funds-confirmations.js";
import {
  apiClientErrorHandler, installApiPlugin, type ApiPluginOptions,
} from "./api/plugin.js";
import type { CertificateSources } from "./api/tpp-certificate.js";
import type { TppIdentity } from "./tpp/certificate.js";
import { presentersFor } from "./api/profile.js";
import { openApiRoutes } from "./api/openapi.js";
import type { XmlBodyOptions } from "./api/xml/body.js";
import { createXmlReaders } from "./api/xml/readers.js";
import { ConfigError, type Config } from "./config.js";
import {
  createAccountAdministration, type AccountAdministration,
} from "./domain/administration/accounts.js";
import { createAccounts } from "./domain/consent/accounts.js";
import { createAuditLog, type AuditLog } from "./domain/kernel/audit.js";
import { createAuthorisations } from "./domain/sca/authorisation.js";
import { SCA_SUBJECTS } from "./domain/subjects/registry.js";
import { confirmAuthorisation } from "./domain/sca/confirmation.js";
import type { Authorisation } from "./domain/sca/model.js";
import { createConsents } from "./domain/consent/registration.js";
import type { Deps, ScaLinks } from "./domain/deps.js";
import { createIdempotency } from "./domain/kernel/idempotency.js";
import { createPayments } from "./domain/payment/initiation.js";
import {
  createPsuAdministration, demoPsuLogins, demoPsusRefusal, type PsuAdministration,
} from "./domain/administration/psus.js";
import { createResourceQueries, type ResourceQueries } from "./domain/administration/resources.js";
import {
  createNotificationAdministration, type NotificationAdministration,
} from "./domain/notification/administration.js";
import { createFundsConfirmations } from "./domain/consent/funds-confirmations.js";
import { createFundsConsents } from "./domain/consent/funds-consents.js";
import { executeDuePayments } from "./domain/payment/execution.js";
import type { RedirectRules } from "./domain/kernel/redirect-uri.js";
import { createRetention } from "./domain/kernel/retention.js";
import { createScheduler, type Scheduler } from "./domain/kernel/scheduler.js";
import { createDecoupled } from "./domain/sca/decoupled.js";
import { createEmbeddedAuthorisations } from "./domain/sca/embedded.js";
import { createNotificationSubscriptions } from "./domain/notification/subscriptions.js";
import { deliverNotifications } from "./domain/notification/delivery.js";
import { createNotificationSender } from "./tpp/notification-sender.js";
import { createTppRegistry, type TppRegistry } from "./domain/kernel/tpps.js";
import { dataDirProblem } from "./lib/data-dir.js";
import { systemClock, type Clock } from "./lib/clock.js";
import { newSecret } from "./lib/ids.js";
import { createOpenCount, createRateLimit } from "./lib/rate-limit.js";
import { createEmbeddedLedger, type LedgerLimits } from "./ledger/core.js";
import { generateDataSet, type DataSet, type DataSetRequest } from "./ledger/data-set.js";
import { ALL_DEMO_PSUS, DEMO_PSUS, seedDemoData } from "./ledger/demo-data.js";
import { DEMO_VOP_DIRECTORY, readVopDirectory, sandboxVopScheme } from "./ledger/vop-directory.js";
import type { PayeeVerificationPort } from "./domain/vop/ports.js";
import { createPayeeVerification } from "./domain/vop/verification.js";
import { loadBankLogo } from "./sca/logo.js";
import { scaPages } from "./sca/pages.js";
import { psuPagesPlugin } from "./sca/plugin.js";
import { appPages } from "./sca/app.js";
import { dashboardPages } from "./sca/dashboard.js";
import { createPsuDashboard } from "./domain/dashboard/dashboard.js";
import { createPasswords, hashPassword } from "./sca/passwords.js";
import { createScaRedirects, type ScaRedirects } from "./sca/redirect.js";
import { createSmsTexts } from "./sca/sms-texts.js";
import { openStore, sqliteFile, type Store, type StoreOptions } from "./store/db.js";
import {
  ensureDevCertificates, mentionsDevelopmentCa, type DevCertificatePaths,
} from "./tpp/dev-ca.js";
import { combineRevocation, createOcspChecker } from "./tpp/ocsp.js";
import { createCrlChecker } from "./tpp/revocation.js";
import { createTrustStore } from "./tpp/trust.js";
import { oauthEndpoints } from "./api/oauth-endpoints.js";
import { createOAuthAuthorisations } from "./domain/sca/oauth.js";
import { createOAuthServer, MTLS_ROUTES, type OAuthServer } from "./oauth/server.js";
import { freshCookieKey, freshSigningKey, parseSigningKey } from "./oauth/keys.js";

export const API_BASE = "/psd2/v1";

/** The sandbox's demo PSUs, for the start banner: app.ts is the only importer of ledger/. */
export { demoCodeLines, demoPsuLines } from "./ledger/demo-guide.js";

export interface App {
  config: Config;
  store: Store;
  api: FastifyInstance;
  auth: FastifyInstance;
  /** The operator's listener: /metrics. */
  admin: FastifyInstance;
  /**
   * The development CA's files in sandbox mode; null where the bank brings its own TLS material.
   */
  certificates: DevCertificatePaths | null;
  /** Scheduled jobs run once across instances; stopped by close(). */
  scheduler: Scheduler;
  /** Starts both listeners; returns the URLs they are reachable at. */
  listen(): Promise<{ apiUrl: string; authUrl: string; adminUrl: string }>;
  close(): Promise<void>;
  /** Executes the due future-dated payments now; the interval below calls it every minute. */
  executeDuePayments(): Promise<number>;
  /**
   * Carries out the items of decided signing baskets that a crash left held; the interval
   * below calls it every minute. Returns how many baskets it finished.
   */
  carryOutBaskets(): Promise<number>;
  /**
   * Prunes idempotency answers past IDEMPOTENCY_RETENTION_HOURS and used redirect tokens past
   * their expiry now; the scheduler does it every hour.
   */
  pruneRetained(): Promise<{ idempotency: number; tokens: number }>;
  /** Pushes the due status notifications now (the scheduler does it every NOTIFICATION_POLL_MS). */
  deliverNotifications(): Promise<unknown>;
  /** The OpenAPI document served at {API_BASE}/openapi.json, without a request. */
  openApiDocument(): object;
}

export interface AppOverrides { clock?: Clock; logLevel?: string }

function hostnames(config: Config): string[] {
  const names = ["localhost", "127.0.0.1", "::1"];
  for (const url of [config.publicApiUrl, config.publicAuthUrl]) {
    names.push(new URL(url).hostname.replace(/^\[|\]$/g, ""));
  }
  return [...new Set(names)];
}

async function tlsMaterial(certificates: DevCertificatePaths) {
  const [key, cert, ca] = await Promise.all([
    readFile(certificates.serverKey), readFile(certificates.serverCert),
    readFile(certificates.caCert),
  ]);
  return { key, cert, ca: [ca] };
}

type TlsMaterial = Awaited<ReturnType<typeof tlsMaterial>>;

/**
 * Pushes the outbox to the TPPs, once across instances: signed and sent with the bank's client
 * certificate (the server's unless NOTIFICATION_CLIENT_* name one); the development CA is trusted
 * in sandbox.
 */
async function scheduleNotifications(
  config: Config, tls: TlsMaterial, deps: Deps, scheduler: Scheduler,
  ownPorts: () => readonly number[],
): Promise<() => Promise<unknown>> {
  const own = config.notificationClientCertFile !== "";
  const [key, cert, trust] = await Promise.all([
    own ? readFile(config.notificationClientKeyFile, "utf8") : tls.key.toString("utf8"),
    own ? readFile(config.notificationClientCertFile, "utf8") : tls.cert.toString("utf8"),
    config.notificationTrustStoreFile ? readFile(config.notificationTrustStoreFile, "utf8")
      : config.mode === "sandbox" ? tls.ca.map((pem) => pem.toString("utf8")).join("\n") : "",
  ]);
  const send = createNotificationSender({
    clientKeyPem: key, clientCertPem: cert, trustedCaPems: trust ? [trust] : [],
    timeoutMs: config.notificationTimeoutMs,
    targets: { allowLoopback: config.notificationLoopback, ownPorts },
  });
  const deliver = () => deliverNotifications(deps, send, {
    firstRetryMs: 5_000, retryForMs: config.notificationRetryHours * 3_600_000, batch: 20,
    perTpp: config.notificationPushesPerTpp, pollMs: config.notificationPollMs,
    claimMs: config.notificationTimeoutMs + 1_000,
  });
  scheduler.every("notifications", config.notificationPollMs, async () => { await deliver(); });
  return deliver;
}

function ledgerOptions(config: Config, store: Store, clock: Clock) {
  return {
    ledger: store.ledger, clock, timeZone: config.timeZone, bankCode: config.bankCode,
    bic: config.bankBic,
    limits: ledgerLimits(config), cached: store.cached,
  };
}

/** The bank's configured TLS files; production refuses anything made by the development CA. */
async function ownTlsMaterial(config: Config) {
  const read = (name: string, file: string) => readFile(file).catch((error: Error) => {
    throw new ConfigError(`Invalid configuration:\n  - ${name} cannot be read: ${error.message}`);
  });
  const [key, cert, ca] = await Promise.all([
    read("TLS_KEY_FILE", config.tlsKeyFile), read("TLS_CERT_FILE", config.tlsCertFile),
    read("TPP_TRUST_STORE_FILE", config.tppTrustStoreFile),
  ]);
  if (config.mode === "production") {
    const dev = [["TLS_CERT_FILE", cert], ["TPP_TRUST_STORE_FILE", ca]] as const;
    const refused = dev.filter(([, pem]) => mentionsDevelopmentCa(pem.toString()))
      .map(([name]) => name);
    if (refused.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  - ${refused.join(", ")}: `
        + "production mode refuses certificates of the psd2-bank development CA");
    }
  }
  return { key, cert, ca: [ca] };
}

/** Refuses a DATA_DIR the bank cannot create and write, before anything is created in it. */
function checkDataDir(config: Config): void {
  const problem = dataDirProblem(config.dataDir);
  if (problem) {
    throw new ConfigError(`DATA_DIR ${config.dataDir} ${problem}; `
      + "set DATA_DIR to a directory psd2-bank may create and write");
  }
}

/** The development CA's certificates under DATA_DIR, unless the bank has its own TLS files. */
async function devCertificates(config: Config): Promise<DevCertificatePaths | null> {
  if (config.tlsCertFile) return null;
  checkDataDir(config);
  return ensureDevCertificates(join(config.dataDir, "certs"), hostnames(config));
}

/** The store, with a DATA_DIR or database file that cannot be used named in one line. */
async function openBankStore(options: Config & Partial<StoreOptions>): Promise<Store> {
  if (!options.databaseUrl) checkDataDir(options);
  return openStore(options).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    if (code !== "SQLITE_NOTADB") throw error;
    throw new ConfigError(`${sqliteFile(options.dataDir)} is not a SQLite database: `
      + "move it away (a new one is created) or set DATA_DIR to another directory");
  });
}

function ledgerLimits(config: Config): LedgerLimits {
  return {
    overdraftMinor: BigInt(config.overdraftLimitCents),
    dailyPaymentLimitMinor:
      config.dailyPaymentLimitCents > 0 ? BigInt(config.dailyPaymentLimitCents) : null,
  };
}

/**
 * Both listeners' timeouts (Node closes what exceeds them, answering 408 while it can): no slow
 * or idle client holds a connection for long. Node checks the running requests' timeouts every
 * connectionsCheckingInterval, so that interval is kept well below the shortest timeout.
 */
function connectionLimits(config: Config) {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const headersTimeout = config.headersTimeoutSeconds * 1000;
  return {
    server: {
      // A client that never finishes its TLS handshake is dropped at the header deadline too.
      requestTimeout, headersTimeout, handshakeTimeout: headersTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout / 4),
    },
    fastify: { requestTimeout, keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000 },
  };
}

/** Fastify's two lines per request cost throughput; the API logs one line per request itself. */
const quiet = () => new LogController({ disableRequestLogging: true });

/** The other banks' side of Verification of Payee: the sandbox scheme, from its directory. */
async function vopScheme(config: Config): Promise<PayeeVerificationPort> {
  const file = config.vopDirectoryFile;
  if (file) return sandboxVopScheme(await readVopDirectory(file));
  return sandboxVopScheme(config.mode === "sandbox" ? DEMO_VOP_DIRECTORY
    : { holders: {}, notPossible: [], noAnswer: [] });
}

function appDeps(
  config: Config, store: Store, clock: Clock, scaLinks: ScaLinks, scheme: PayeeVerificationPort,
): Deps {
  const core = createEmbeddedLedger(ledgerOptions(config, store, clock));
  return {
    store, clock, scaLinks, passwords: createPasswords(), core,
    smsTexts: createSmsTexts(config.bankName), subjects: SCA_SUBJECTS,
    vop: createPayeeVerification(core, scheme,
      { bankCode: config.bankCode, timeoutMs: config.vopTimeoutMs }),
    settings: {
      timeZone: config.timeZone, bankName: config.bankName,
      smsCodeTtlSeconds: config.smsCodeTtlSeconds,
      scaSessionIdleSeconds: config.scaSessionIdleSeconds,
      loginFailuresMax: config.loginFailuresMax,
      loginBlockSeconds: config.loginBlockSeconds,
      tppConcurrentPasswordChecks: config.tppConcurrentPasswordChecks,
      consentValidityDaysMax: config.consentValidityDaysMax,
      frequencyPerDayMax: config.frequencyPerDayMax,
      consentAuthorisationMinutes: config.consentAuthorisationMinutes,
      paymentScaTimeoutSeconds: config.paymentScaTimeoutSeconds,
      bulkPaymentEntriesMax: config.bulkPaymentEntriesMax,
      clearingSettlementSeconds: config.clearingSettlementSeconds,
      decoupledTimeoutSeconds: config.decoupledTimeoutSeconds,
      sandbox: config.mode === "sandbox",
      authorisationConfirmation: config.authorisationConfirmation,
      exemptions: {
        trustedPayees: config.trustedPayeeExemption, lowValue: config.lowValueExemption,
        transactionRisk: config.traExemption,
      },
    },
  };
}

type Tls = Awaited<ReturnType<typeof tlsMaterial>>;
type Limits = ReturnType<typeof connectionLimits>;

function apiListener(config: Config, logger: pino.Logger, tls: Tls, limits: Limits) {
  return Fastify({
    loggerInstance: logger.child({ listener: "api" }) as FastifyBaseLogger,
    logController: quiet(),
    requestIdHeader: "x-request-id",
    bodyLimit: config.bodyLimitBytes,
    ...limits.fastify,
    https: {
      ...tls, requestCert: true, rejectUnauthorized: false, minVersion: "TLSv1.2",
      maxHeaderSize: config.headerLimitBytes, ...limits.server,
    },
    clientErrorHandler: apiClientErrorHandler,
    ajv: {
      customOptions: {
        coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false,
        allowUnionTypes: true,
      },
    },
  });
}

interface ApiParts {
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

/** The TPP API's plugin and routes; returns the OpenAPI document they make up. */
/** The limits of XML bodies and their readers, which stop when the listener closes. */
function xmlBodies(api: FastifyInstance, config: Config): XmlBodyOptions {
  const readers = createXmlReaders({ readers: config.xmlReaders,
    queueMax: config.xmlQueueMax, timeoutMs: config.xmlReadTimeoutMs });
  api.addHook("onClose", () => readers.close());
  return { bodyLimit: config.xmlBodyLimitBytes, elementsMax: config.xmlElementsMax,
    attributesMax: config.xmlAttributesMax, readers };
}

function apiRoutes(api: FastifyInstance, config: Config, parts: ApiParts): () => object {
  const { deps, consents, scheduler, audit, trustedCas, oauth } = parts;
  const idempotency = createIdempotency(deps);
  const registry = createTppRegistry(deps, config.tppRequestsPerMinute);
  if (config.tppRequestsPerMinute > 0) {
    scheduler.every("tpp-request-counts", 60_000, () => registry.forgetPastWindows());
  }
  const base = API_BASE;
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
    bearer: oauth ? {
      verify: (token, der) => oauth.verifyAccessToken(token, der),
      required: config.oauthBearerRequired, base,
    } : undefined,
  });
  const redirects = { ...redirectRules(config), notificationPorts: config.notificationPorts,
    notificationLoopback: config.notificationLoopback };
  const presenters = presentersFor(config.apiProfile);
  // First: it collects every route registered after it.
  const openApiDocument = openApiRoutes(api, {
    base, profile: config.apiProfile, presenters, title: `${config.bankName} PSD2 API`,
    version: "v1", apiUrl: parts.apiUrl,
    oauth: oauth
      ? { metadataUrl: oauth.metadataUrl, required: config.oauthBearerRequired } : undefined,
  });
  const approaches = { offered: config.scaApproaches, fallback: config.scaDefaultApproach,
    oauthMetadata: oauth?.metadataUrl, confirmation: config.authorisationConfirmation };
  const notifications = createNotificationSubscriptions(deps);
  const embedded = createEmbeddedAuthorisations(deps);
  const decoupled = createDecoupled(deps);
  const confirmation = config.authorisationConfirmation
    ? (a: Authorisation, code: string) => confirmAuthorisation(deps, a, code) : undefined;
  paymentRoutes(api, {
    base, payments: createPayments(deps), idempotency, redirects, presenters, approaches,
    embedded, decoupled, confirmation, notifications, clock: deps.clock,
  });
  consentRoutes(api, {
    base, consents, idempotency, redirects, presenters, approaches, embedded, decoupled,
    confirmation, notifications,
  });
  basketRoutes(api, {
    base, baskets: createBaskets(deps), idempotency, redirects, presenters,
    approaches, embedded, decoupled, confirmation, notifications,
  });
  accountRoutes(api, {
    base, accounts: createAccounts(deps, consents), presenters, clock: deps.clock,
    downloads: createDownloadLinks(parts.linkKey, deps.clock),
    downloadThreshold: config.downloadThresholdEntries,
  });
  const fundsConsents = createFundsConsents(deps, consents);
  fundsConsentRoutes(api, {
    base, fundsConsents, idempotency, redirects, presenters, approaches, embedded, decoupled,
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

/** The PSU's listener: no client certificates. */
function authListener(config: Config, logger: pino.Logger, tls: Tls, limits: Limits) {
  return Fastify({
    loggerInstance: logger.child({ listener: "auth" }) as FastifyBaseLogger,
    logController: quiet(),
    ...limits.fastify,
    https: {
      key: tls.key, cert: tls.cert, minVersion: "TLSv1.2", maxHeaderSize: config.headerLimitBytes,
      ...limits.server,
    },
  });
}

/**
 * Payments due for execution, signing baskets a crash left half carried out (the decision
 * carries them out at once), and, where the bank offers the decoupled approach, its requests
 * past their time (the app's own reads check too; the sweep fails the requests nobody looks at).
 * Returns the due-payments run and the baskets' run.
 */
function scheduleDueWork(scheduler: Scheduler, deps: Deps, config: Config) {
  const executeDue = () => executeDuePayments(deps, deps.clock.now());
  scheduler.every("due-payments", 60_000, async () => { await executeDue(); });
  const carryOutBaskets = () => carryOutUnfinished(deps);
  scheduler.every("signing-baskets", 60_000, async () => { await carryOutBaskets(); });
  if (config.scaApproaches.includes("decoupled")) {
    const decoupled = createDecoupled(deps);
    scheduler.every("decoupled-requests", 2_000, () => decoupled.sweep());
  }
  return { executeDue, carryOutBaskets };
}

/** The authorisation pages and the consent dashboard, with one login throttle. */
async function psuPages(
  auth: FastifyInstance, config: Config, deps: Deps, redirects: ScaRedirects,
  oauth: { server: OAuthServer; authUrl: () => string } | null,
): Promise<void> {
  const loginThrottle = createRateLimit(
    config.loginAttemptsPerIpPerMinute, 60_000, () => deps.clock.now().getTime());
  const authHost = new URL(config.publicAuthUrl).hostname;
  const localHost = ["localhost", "127.0.0.1", "[::1]"].includes(authHost);
  psuPagesPlugin(auth, { hsts: !localHost });
  const links = {
    imprint: config.bankImprintUrl, privacy: config.bankPrivacyUrl, help: config.bankHelpUrl,
  };
  scaPages(auth, {
    authorisations: createAuthorisations(deps), redirects, bankName: config.bankName,
    sandbox: config.mode === "sandbox",
    logo: await loadBankLogo(config.bankLogoFile), loginThrottle,
    loginBlockSeconds: config.loginBlockSeconds, links, timeZone: config.timeZone,
    oauth: oauth ? {
      oauth: createOAuthAuthorisations(deps), interactions: oauth.server, authUrl: oauth.authUrl,
    } : undefined,
  });
  const dashboard = createPsuDashboard(deps);
  dashboardPages(auth, {
    dashboard, bankName: config.bankName, loginThrottle,
    loginBlockSeconds: config.loginBlockSeconds, links, timeZone: config.timeZone,
  });
  appPages(auth, {
    decoupled: createDecoupled(deps), bankName: config.bankName, links,
    loginBlockSeconds: config.loginBlockSeconds, sandbox: config.mode === "sandbox",
  });
}

/** Closes a client address's connections beyond `limit` (0: no limit) as they are accepted. */
function limitPerAddress(server: NetServer, limit: number): void {
  if (limit <= 0) return;
  const open = createOpenCount();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    if (!open.enter(address, limit)) {
      socket.destroy();
      return;
    }
    socket.once("close", () => open.leave(address));
  });
}

function limitConnections(
  config: Config, servers: FastifyInstance[], draining: () => boolean,
): void {
  for (const server of servers) {
    server.server.maxConnections = config.maxConnections;
    limitPerAddress(server.server, config.maxConnectionsPerAddress);
    // While draining, each answer closes its keep-alive connection: otherwise close() would wait
    // out the keep-alive timeout (KEEP_ALIVE_TIMEOUT_SECONDS) of every client that was in flight.
    server.addHook("onSend", async (_request, reply) => {
      if (draining()) reply.header("Connection", "close");
    });
  }
}

/** The operator's listener, with the metrics of the other two. */
function adminListener(
  logger: pino.Logger, store: Store, listeners: Pick<App, "api" | "auth">,
  ready: () => Promise<boolean>,
): FastifyInstance {
  const metrics = createMetrics(store);
  metrics.instrument(listeners.api, "api");
  metrics.instrument(listeners.auth, "auth");
  const admin = Fastify({
    loggerInstance: logger.child({ listener: "admin" }) as FastifyBaseLogger,
    logController: quiet(),
  });
  adminRoutes(admin, metrics);
  healthRoutes(admin, { ready });
  return admin;
}

/** A port the bank cannot listen on, as the operator's mistake it usually is. */
function portProblem(error: unknown, setting: string, address: string): ConfigError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === "EADDRINUSE") {
    return new ConfigError(`${address} is in use (${setting}): is another psd2-bank running? `
      + `Stop it, or set ${setting} to a free port`);
  }
  if (code === "EACCES") {
    return new ConfigError(`${address} needs privileges this user lacks (${setting}): `
      + `set ${setting} to a port above 1023`);
  }
  return undefined;
}

/** Starts the three listeners, closing everything when one fails; returns their ports. */
async function listenAll(
  config: Config, listeners: Pick<App, "api" | "auth" | "admin">, close: () => Promise<void>,
) {
  const { api, auth, admin } = listeners;
  const order = [[auth, config.host, config.authPort, "AUTH_PORT"],
    [api, config.host, config.apiPort, "API_PORT"],
    [admin, config.adminHost, config.adminPort, "ADMIN_PORT"]] as const;
  for (const [server, host, port, setting] of order) {
    try {
      await server.listen({ host, port });
    } catch (error) {
      // A port in use must not leave the other listeners, timers and the database open.
      await close();
      throw portProblem(error, setting, `${host}:${port}`) ?? error;
    }
  }
  return { api: boundPort(api), auth: boundPort(auth), admin: boundPort(admin) };
}

/** The port a listener is bound to; 0 before it listens. */
function boundPort(server: FastifyInstance): number {
  const address = server.server.address();
  return typeof address === "object" && address ? address.port : 0;
}

/** One rule for TPP-Redirect-URI and an OAuth pushed request's redirect_uri. */
const redirectRules = (config: Config): RedirectRules => ({
  allowHttpLocalhost: config.mode === "sandbox", domainCheck: config.redirectUriDomainCheck,
});

/** Expired codes, tokens and pushed requests of the authorisation server go. */
const pruneOAuthRecords = (store: Store, clock: Clock) =>
  store.oauthRecords.prune(store.db, Math.floor(clock.now().getTime() / 1000));

/** The authorisation server where the bank offers the oauth approach; keys shared in the store. */
async function oauthServer(
  config: Config, store: Store, deps: Deps, urls: { auth: () => string; api: () => string },
): Promise<OAuthServer | null> {
  if (!config.scaApproaches.includes("oauth")) return null;
  const [signingKey, cookieKey] = await Promise.all([
    store.secrets.getOrCreate(store.db, "oauth-signing-key", freshSigningKey()),
    store.secrets.getOrCreate(store.db, "oauth-cookie-key", freshCookieKey()),
  ]);
  return createOAuthServer({
    deps, authUrl: urls.auth, apiUrl: urls.api, resource: `${config.publicApiUrl}${API_BASE}`,
    signingKey: parseSigningKey(signingKey),
    cookieKeys: [cookieKey], redirects: redirectRules(config),
    lifetimes: {
      codeSeconds: config.oauthCodeSeconds, accessTokenSeconds: config.oauthAccessTokenSeconds,
      refreshTokenSeconds: config.oauthRefreshTokenSeconds,
    },
  });
}

/** The store, refused in production while it holds demo PSUs, seeded where the settings say. */
async function openStartingStore(config: Config, clock: Clock): Promise<Store> {
  const store = await openBankStore(config);
  if (config.mode === "production") await refuseDemoPsus(store);
  if (config.seedDemoData) await seedDemoBank(store, config, clock);
  return store;
}

/** The hourly pruning of retained records and the consent sweep; returns the pruning. */
function scheduleSweeps(
  scheduler: Scheduler, deps: Deps, config: Config, consents: ReturnType<typeof createConsents>,
) {
  // Statuses are also checked on use; the sweep keeps them right for everyone reading the store.
  scheduler.every("consent-sweep", 60_000, async () => { await consents.sweepConsents(); });
  const retention = createRetention(deps, config.idempotencyRetentionHours);
  scheduler.every("retention-prune", 3_600_000, async () => { await retention.prune(); });
  return retention;
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const clock = overrides.clock ?? systemClock;
  const logger = pino({ level: overrides.logLevel ?? config.logLevel });
  const certificates = await devCertificates(config);
  const tls = certificates ? await tlsMaterial(certificates) : await ownTlsMaterial(config);
  const store = await openStartingStore(config, clock);
  const tokenKey = Buffer.from(
    await store.secrets.getOrCreate(store.db, "sca-token-key", newSecret()), "base64url");
  // With port 0 (tests) the auth URL is known only after listening; the links read it lazily.
  let authUrl = config.publicAuthUrl;
  let apiUrl = config.publicApiUrl;
  const redirects = createScaRedirects({
    authUrl: () => authUrl, key: tokenKey, ttlSeconds: config.scaTokenTtlSeconds, clock,
  });
  const deps = appDeps(config, store, clock, redirects.links, await vopScheme(config));
  const consents = createConsents(deps);
  const scheduler = createScheduler(deps,
    (job, error) => logger.error({ job, err: error }, "scheduled job failed"));
  const retention = scheduleSweeps(scheduler, deps, config, consents);

  const limits = connectionLimits(config);
  const api = apiListener(config, logger, tls, limits);
  const audit = createAuditLog({ store, clock, retentionDays: config.auditRetentionDays });
  const oauth = await oauthServer(config, store, deps, { auth: () => authUrl, api: () => apiUrl });
  const openApiDocument = apiRoutes(api, config, { deps, consents, scheduler, audit, oauth,
    trustedCas: tls.ca.map((pem) => pem.toString()), linkKey: tokenKey, apiUrl: () => apiUrl });
  let draining = false;
  const ready = async () => !draining && await store.ping(2_000);
  healthRoutes(api, { ready });

  const auth = authListener(config, logger, tls, limits);
  healthRoutes(auth, { ready });
  limitConnections(config, [api, auth], () => draining);
  await psuPages(auth, config, deps, redirects, oauth && { server: oauth, authUrl: () => authUrl });

  const deliverNotificationsNow = await scheduleNotifications(config, tls, deps, scheduler,
    () => [api, auth, admin].map(boundPort));
  const { executeDue, carryOutBaskets } = scheduleDueWork(scheduler, deps, config);

  const admin = adminListener(logger, store, { api, auth }, ready);
  let pruning: NodeJS.Timeout | undefined;
  const prune = () => Promise.all([audit.prune(), pruneOAuthRecords(store, clock)])
    .catch((err: unknown) => logger.error({ err }, "pruning failed (audit log, OAuth)"));
  const app: App = {
    config, store, api, auth, admin, certificates, scheduler, openApiDocument,
    executeDuePayments: executeDue, carryOutBaskets, pruneRetained: retention.prune,
    deliverNotifications: deliverNotificationsNow,
    async listen() {
      await prune();
      // Pruning is an idempotent delete: running it on every instance needs no coordination.
      pruning = setInterval(() => void prune(), 86_400_000).unref();
      const ports = await listenAll(config, { api, auth, admin }, () => app.close());
      if (config.authPort === 0) authUrl = `https://localhost:${ports.auth}`;
      if (config.apiPort === 0) apiUrl = `https://localhost:${ports.api}`;
      return { apiUrl, authUrl, adminUrl: `http://${config.adminHost}:${ports.admin}` };
    },
    async close() {
      // /ready fails first, so a load balancer stops sending while in-flight requests finish.
      draining = true;
      clearInterval(pruning);
      scheduler.stop();
      // The admin listener goes last, so its /ready reports the draining until the end.
      await Promise.all([api.close(), auth.close()]);
      await admin.close();
      await store.close();
    },
  };
  return app;
}

/** The use cases operator commands work with, opened by openAdministration. */
export interface Administration {
  psus: PsuAdministration;
  accounts: AccountAdministration;
  tpps: TppRegistry;
  audit: AuditLog;
  resources: ResourceQueries;
  notifications: NotificationAdministration;
}

/**
 * What the operator's CLI commands work with: the administration use cases over the store, no
 * listeners.
 */
export async function openAdministration(
  config: Config,
): Promise<Administration & { close(): Promise<void> }> {
  const store = await openBankStore(config);
  const core = createEmbeddedLedger(ledgerOptions(config, store, systemClock));
  return {
    psus: createPsuAdministration({
      store, clock: systemClock, hashPassword, bankName: config.bankName,
      demoLogins: DEMO_LOGINS,
    }),
    accounts: createAccountAdministration({ store, core }),
    tpps: createTppRegistry({ store, clock: systemClock }),
    audit: createAuditLog({ store, clock: systemClock, retentionDays: config.auditRetentionDays }),
    resources: createResourceQueries({ store, core }),
    notifications: createNotificationAdministration({ store, clock: systemClock }),
    close: () => store.close(),
  };
}

const DEMO_LOGINS = ALL_DEMO_PSUS.map((p) => p.login);

/** Their published passwords and TOTP secrets would let anyone authorise payments. */
async function refuseDemoPsus(store: Store): Promise<void> {
  const logins = await demoPsuLogins(store, DEMO_LOGINS);
  if (logins.length === 0) return;
  await store.close();
  throw demoPsusRefusal(logins);
}

/** The one place demo data is seeded: on start (SEED_DEMO_DATA) and by `psd2-bank seed`. */
function seedDemoBank(store: Store, config: Config, clock: Clock): Promise<boolean> {
  const { timeZone, bankBic: bic } = config;
  return seedDemoData({ store, clock, timeZone, bic, hashPassword });
}

/** Seeds the demo bank into an empty database; false when it has PSUs already. */
export async function seedDatabase(config: Config): Promise<boolean> {
  const store = await openBankStore(config);
  try {
    return await seedDemoBank(store, config, systemClock);
  } finally {
    await store.close();
  }
}

/** Applies pending migrations, naming each as it is applied; returns the engine's name. */
export async function migrateDatabase(
  config: Config, applied: (name: string) => void,
): Promise<string> {
  const store = await openBankStore({ ...config, onMigration: applied });
  await store.close();
  return store.engine;
}

export type DataSetSize = Pick<DataSetRequest, "psus" | "transactions" | "seed" | "progress">;

/** A scale-test data set whose PSUs share the published password `password`. */
export async function generateData(
  config: Config, size: DataSetSize, password: string,
): Promise<DataSet> {
  const store = await openBankStore(config);
  try {
    return await generateDataSet({
      ...size, store, clock: systemClock, timeZone: config.timeZone, bankCode: config.bankCode,
      bic: config.bankBic, passwordHash: await hashPassword(password),
    });
  } finally {
    await store.close();
  }
}
