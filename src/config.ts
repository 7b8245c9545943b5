/**
 * Every setting of psd2-bank, typed, read once from the environment (and CLI flags) and frozen.
 * Nothing else reads process.env: a setting that is not here does not exist.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";

const MODES = ["sandbox", "production"] as const;
export type Mode = typeof MODES[number];

export interface Config {
  mode: Mode;
  /** Interface to bind both listeners to. */
  host: string;
  apiPort: number;
  authPort: number;
  /** The operator's listener (metrics); plain HTTP, so keep it on localhost or a management network. */
  adminHost: string;
  adminPort: number;
  /** Absolute base of the TPP API as TPPs reach it, e.g. https://localhost:8443 */
  publicApiUrl: string;
  /** Absolute base of the PSU pages as browsers reach them, e.g. https://localhost:8444 */
  publicAuthUrl: string;
  dataDir: string;
  /** Empty for the embedded SQLite file under dataDir. */
  databaseUrl: string;
  /** PostgreSQL connections per instance (the server's max_connections bounds all together). */
  databasePoolMax: number;
  /** A statement running longer is cancelled, so one stuck query cannot hold a request forever. */
  databaseStatementTimeoutMs: number;
  /** SQLite's fsync: full keeps answered commits through power loss, normal through a crash. */
  sqliteSynchronous: SqliteSynchronous;
  logLevel: string;
  /** The bank's calendar: booking dates, "today", daily counters. */
  timeZone: string;
  bankName: string;
  bankBic: string;
  /** The German bank code (BLZ) of the accounts the embedded ledger opens. */
  bankCode: string;
  /** An SVG or PNG shown on the PSU pages; empty for the built-in mark with the bank's initials. */
  bankLogoFile: string;
  /** Seed demo PSUs, accounts and history into an empty database on start. */
  seedDemoData: boolean;
  scaTokenTtlSeconds: number;
  scaSessionIdleSeconds: number;
  smsCodeTtlSeconds: number;
  loginFailuresMax: number;
  bodyLimitBytes: number;
  /**
   * The bank's own TLS material. Empty in sandbox mode: a development CA is made under dataDir.
   * tppTrustStoreFile is a PEM bundle of the QTSP CAs whose QWACs the TPP API accepts.
   */
  tlsCertFile: string;
  tlsKeyFile: string;
  tppTrustStoreFile: string;
  /** How long audit log entries are kept before they are pruned. */
  auditRetentionDays: number;
  paymentScaTimeoutSeconds: number;
  /** How far customer accounts may be overdrawn, in cents (0: not at all). */
  overdraftLimitCents: number;
  /** Per PSU and booking day, over all accounts, in cents (0: no limit). */
  dailyPaymentLimitCents: number;
  /** The most payments one bulk payment may carry (beyond: FORMAT_ERROR on payments). */
  bulkPaymentEntriesMax: number;
  /** How long a payment to another bank takes to settle (ACSP → ACCC); 0: at booking (ACSC). */
  clearingSettlementSeconds: number;
  /** POST /funds-confirmations only within a funds-confirmation consent (Consent-ID). */
  fundsConfirmationConsentRequired: boolean;
  /** CRL files (PEM or DER) checked for every TPP certificate; an unreadable one fails closed. */
  tppCrlFiles: string[];
  /** Login posts per client address and minute, refused before any password hashing. */
  loginAttemptsPerIpPerMinute: number;
  /** API requests per TPP and minute, answered 429 with Retry-After beyond; 0 = unlimited. */
  tppRequestsPerMinute: number;
  /** Refuse TPP requests without an HTTP signature (a present one is always verified). */
  requireHttpSignature: boolean;
  /** Lowercase header a TLS-terminating proxy forwards the client certificate in; "" for none. */
  tppCertHeader: string;
  /** Addresses whose tppCertHeader is believed; from others the header is ignored. */
  trustedProxies: string[];
  /** TPP-Redirect-URI hosts must lie in a domain of the TPP's certificate (subjectAltName). */
  redirectUriDomainCheck: boolean;
  /** Whether a TPP certificate whose OCSP responder cannot be asked (or answers nonsense) is refused. */
  ocspFailClosed: boolean;
  /** How long a PSU stays blocked after loginFailuresMax consecutive failures. */
  loginBlockSeconds: number;
  /** Largest request head (request line and headers) either listener reads; beyond, 431. */
  headerLimitBytes: number;
  /** Longest a whole request (head and body) may take on either listener; then 408 and closed. */
  requestTimeoutSeconds: number;
  /** Longest the request head may take to arrive; then 408 and closed (slow-header attacks). */
  headersTimeoutSeconds: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutSeconds: number;
  /** Open connections per listener; beyond, new ones are closed at once. */
  maxConnections: number;
  /** The wire dialect of the TPP API: the spec's (default) or strict Berlin Group NextGenPSD2 1.3.12. */
  apiProfile: ApiProfile;
  /** A consent's validUntil beyond today plus this many days is adjusted down (RTS art. 10a: 180). */
  consentValidityDaysMax: number;
  /** frequencyPerDay above this is adjusted down. */
  frequencyPerDayMax: number;
  /** A consent not authorised within this many minutes of its registration becomes rejected. */
  consentAuthorisationMinutes: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    problems.push(`${name} must be a non-negative integer, got "${raw}"`);
    return fallback;
  }
  return value;
}

function port(env: Env, name: string, fallback: number, problems: string[]): number {
  const value = integer(env, name, fallback, problems);
  if (value > 65535) problems.push(`${name} must be a TCP port (0-65535), got ${value}`);
  return value;
}

function url(env: Env, name: string, fallback: string, problems: string[]): string {
  const raw = env[name] || fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== "https:") problems.push(`${name} must be an https URL, got "${raw}"`);
  } catch {
    problems.push(`${name} must be an absolute URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

function flag(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "true" && raw !== "false") problems.push(`${name} must be true or false, got "${raw}"`);
  return raw === "true";
}

function addressList(raw: string | undefined, problems: string[]): string[] {
  const addresses = (raw ?? "").split(",").map((a) => a.trim()).filter((a) => a !== "");
  for (const address of addresses.filter((a) => isIP(a) === 0)) {
    problems.push(`TRUSTED_PROXIES must list IP addresses, got "${address}"`);
  }
  return addresses;
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function fileList(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "").map((p) => resolve(p));
}

const SQLITE_SYNCHRONOUS = ["full", "normal"] as const;
export type SqliteSynchronous = typeof SQLITE_SYNCHRONOUS[number];

export const API_PROFILES = ["spec", "berlin-group"] as const;
export type ApiProfile = typeof API_PROFILES[number];

/** A setting with a fixed set of values; unset means the first. */
function oneOf<T extends string>(env: Env, name: string, choices: readonly [T, ...T[]], problems: string[]): T {
  const raw = env[name];
  const found = choices.find((choice) => choice === (raw || choices[0]));
  if (!found) problems.push(`${name} must be ${choices.map((c) => `"${c}"`).join(" or ")}, got "${raw}"`);
  return found ?? choices[0];
}

/** Reads and validates the configuration; every wrong setting is named in one ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const mode = oneOf(env, "PSD2_MODE", MODES, problems);
  const apiPort = port(env, "API_PORT", 8443, problems);
  const authPort = port(env, "AUTH_PORT", 8444, problems);
  const adminPort = port(env, "ADMIN_PORT", 9464, problems);
  const timeZone = env.BANK_TIME_ZONE || "Europe/Berlin";
  if (!validTimeZone(timeZone)) problems.push(`BANK_TIME_ZONE is not an IANA time zone: "${timeZone}"`);
  const config: Config = {
    mode,
    host: env.HOST || "127.0.0.1",
    apiPort,
    authPort,
    adminHost: env.ADMIN_HOST || "127.0.0.1",
    adminPort,
    publicApiUrl: url(env, "PUBLIC_API_URL", `https://localhost:${apiPort}`, problems),
    publicAuthUrl: url(env, "PUBLIC_AUTH_URL", `https://localhost:${authPort}`, problems),
    dataDir: resolve(env.DATA_DIR || "data"),
    databaseUrl: env.DATABASE_URL || "",
    databasePoolMax: integer(env, "DATABASE_POOL_MAX", 10, problems),
    databaseStatementTimeoutMs: integer(env, "DATABASE_STATEMENT_TIMEOUT_MS", 10_000, problems),
    sqliteSynchronous: oneOf(env, "SQLITE_SYNCHRONOUS", SQLITE_SYNCHRONOUS, problems),
    logLevel: env.LOG_LEVEL || "info",
    timeZone,
    bankName: env.BANK_NAME || "PSD2 Demo Bank",
    bankBic: env.BANK_BIC || "PSDBDEFFXXX",
    bankCode: env.BANK_CODE || "50010000",
    bankLogoFile: env.BANK_LOGO_FILE ? resolve(env.BANK_LOGO_FILE) : "",
    seedDemoData: (env.SEED_DEMO_DATA ?? (mode === "sandbox" ? "true" : "false")) === "true",
    scaTokenTtlSeconds: integer(env, "SCA_TOKEN_TTL_SECONDS", 600, problems),
    scaSessionIdleSeconds: integer(env, "SCA_SESSION_IDLE_SECONDS", 300, problems),
    smsCodeTtlSeconds: integer(env, "SMS_CODE_TTL_SECONDS", 300, problems),
    loginFailuresMax: integer(env, "LOGIN_FAILURES_MAX", 5, problems),
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 64 * 1024, problems),
    auditRetentionDays: integer(env, "AUDIT_RETENTION_DAYS", 730, problems),
    tlsCertFile: env.TLS_CERT_FILE ? resolve(env.TLS_CERT_FILE) : "",
    tlsKeyFile: env.TLS_KEY_FILE ? resolve(env.TLS_KEY_FILE) : "",
    tppTrustStoreFile: env.TPP_TRUST_STORE_FILE ? resolve(env.TPP_TRUST_STORE_FILE) : "",
    paymentScaTimeoutSeconds: integer(env, "PAYMENT_SCA_TIMEOUT_SECONDS", 30 * 60, problems),
    overdraftLimitCents: integer(env, "OVERDRAFT_LIMIT_CENTS", 0, problems),
    dailyPaymentLimitCents: integer(env, "DAILY_PAYMENT_LIMIT_CENTS", 0, problems),
    bulkPaymentEntriesMax: integer(env, "BULK_PAYMENT_ENTRIES_MAX", 100, problems),
    clearingSettlementSeconds: integer(env, "CLEARING_SETTLEMENT_SECONDS", 0, problems),
    fundsConfirmationConsentRequired: env.FUNDS_CONFIRMATION_CONSENT_REQUIRED === "true",
    tppCrlFiles: fileList(env.TPP_CRL_FILES),
    loginAttemptsPerIpPerMinute: integer(env, "LOGIN_ATTEMPTS_PER_IP_PER_MINUTE", 60, problems),
    tppRequestsPerMinute: integer(env, "TPP_REQUESTS_PER_MINUTE", 0, problems),
    requireHttpSignature: flag(env, "REQUIRE_HTTP_SIGNATURE", false, problems),
    tppCertHeader: (env.TPP_CERT_HEADER ?? "").trim().toLowerCase(),
    trustedProxies: addressList(env.TRUSTED_PROXIES, problems),
    redirectUriDomainCheck: flag(env, "REDIRECT_URI_DOMAIN_CHECK", mode === "production", problems),
    ocspFailClosed: flag(env, "OCSP_FAIL_CLOSED", mode === "production", problems),
    loginBlockSeconds: integer(env, "LOGIN_BLOCK_SECONDS", 15 * 60, problems),
    headerLimitBytes: integer(env, "HEADER_LIMIT_BYTES", 16 * 1024, problems),
    requestTimeoutSeconds: integer(env, "REQUEST_TIMEOUT_SECONDS", 30, problems),
    headersTimeoutSeconds: integer(env, "HEADERS_TIMEOUT_SECONDS", 10, problems),
    keepAliveTimeoutSeconds: integer(env, "KEEP_ALIVE_TIMEOUT_SECONDS", 5, problems),
    maxConnections: integer(env, "MAX_CONNECTIONS", 1000, problems),
    apiProfile: oneOf(env, "API_PROFILE", API_PROFILES, problems),
    consentValidityDaysMax: integer(env, "CONSENT_VALIDITY_DAYS_MAX", 180, problems),
    frequencyPerDayMax: integer(env, "FREQUENCY_PER_DAY_MAX", 4, problems),
    consentAuthorisationMinutes: integer(env, "CONSENT_AUTHORISATION_MINUTES", 30, problems),
  };
  if (config.loginBlockSeconds < 60) problems.push("LOGIN_BLOCK_SECONDS must be at least 60");
  if (config.headerLimitBytes < 4096 || config.headerLimitBytes > 65536) {
    problems.push("HEADER_LIMIT_BYTES must be between 4096 and 65536");
  }
  const { headersTimeoutSeconds, requestTimeoutSeconds } = config;
  if (headersTimeoutSeconds < 1 || headersTimeoutSeconds > requestTimeoutSeconds) {
    problems.push("HEADERS_TIMEOUT_SECONDS must be at least 1 and at most REQUEST_TIMEOUT_SECONDS");
  }
  if (config.keepAliveTimeoutSeconds < 1) {
    problems.push("KEEP_ALIVE_TIMEOUT_SECONDS must be at least 1");
  }
  if (config.maxConnections < 1) problems.push("MAX_CONNECTIONS must be at least 1");
  if (config.tppCertHeader !== "" && config.trustedProxies.length === 0) {
    problems.push("TPP_CERT_HEADER needs TRUSTED_PROXIES: the addresses of the proxies that set it");
  }
  if (!/^[a-z0-9-]*$/.test(config.tppCertHeader)) problems.push("TPP_CERT_HEADER must be a header name");
  if (config.consentValidityDaysMax < 1 || config.consentValidityDaysMax > 180) {
    problems.push("CONSENT_VALIDITY_DAYS_MAX must be between 1 and 180 (RTS art. 10a)");
  }
  if (config.frequencyPerDayMax < 1) problems.push("FREQUENCY_PER_DAY_MAX must be at least 1");
  if (config.consentAuthorisationMinutes < 1) problems.push("CONSENT_AUTHORISATION_MINUTES must be at least 1");
  if (config.scaTokenTtlSeconds > 600) problems.push("SCA_TOKEN_TTL_SECONDS must be at most 600");
  if (config.scaSessionIdleSeconds > 300) problems.push("SCA_SESSION_IDLE_SECONDS must be at most 300 (RTS art. 4)");
  if (config.loginFailuresMax < 1 || config.loginFailuresMax > 5) {
    problems.push("LOGIN_FAILURES_MAX must be between 1 and 5 (RTS art. 4)");
  }
  const tlsFiles = { TLS_CERT_FILE: config.tlsCertFile, TLS_KEY_FILE: config.tlsKeyFile,
    TPP_TRUST_STORE_FILE: config.tppTrustStoreFile };
  const missing = Object.entries(tlsFiles).filter(([, file]) => file === "").map(([name]) => name);
  if (mode === "production" && missing.length > 0) {
    problems.push(`production mode needs the bank's own TLS material: set ${missing.join(", ")}`);
  } else if (missing.length > 0 && missing.length < 3) {
    problems.push(`${missing.join(", ")} must be set together with the other TLS files (or none, for the development CA)`);
  }
  if (mode === "production" && config.seedDemoData) problems.push("SEED_DEMO_DATA must not be true in production mode");
  if (config.auditRetentionDays < 1) problems.push("AUDIT_RETENTION_DAYS must be at least 1");
  if (!["", "true", "false"].includes(env.FUNDS_CONFIRMATION_CONSENT_REQUIRED ?? "")) {
    problems.push("FUNDS_CONFIRMATION_CONSENT_REQUIRED must be true or false");
  }
  if (!/^\d{8}$/.test(config.bankCode)) problems.push(`BANK_CODE must be 8 digits, got "${config.bankCode}"`);
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    problems.push("DATABASE_URL must be a postgres:// URL (or empty for the embedded SQLite)");
  }
  if (config.bankLogoFile && !/\.(svg|png)$/i.test(config.bankLogoFile)) {
    problems.push(`BANK_LOGO_FILE must be an .svg or .png file, got "${env.BANK_LOGO_FILE}"`);
  }
  if (config.databasePoolMax < 1) problems.push("DATABASE_POOL_MAX must be at least 1");
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return Object.freeze(config);
}

/**
 * Settings from a JSON file of setting names to values ({"API_PORT": 8443, ...}), overridden by the
 * environment. A name in the file that no setting reads is an error: a typo must not silently
 * leave a default in place.
 */
export function loadConfigFile(path: string, env: Env = process.env): Config {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`Cannot read the configuration file ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`The configuration file ${path} must hold a JSON object of setting names to values`);
  }
  const fromFile: Env = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (["string", "number", "boolean"].includes(typeof value)) fromFile[name] = String(value);
    else problems.push(`${name} in ${path} must be a string, number or boolean`);
  }
  const read = new Set<string>();
  const tracked = new Proxy({ ...fromFile, ...env }, {
    get: (target, name: string) => { read.add(name); return target[name]; },
  });
  let config: Config | undefined;
  try {
    config = loadConfig(tracked);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.message.split("\n  - ").slice(1));
  }
  for (const name of Object.keys(fromFile)) {
    if (!read.has(name)) problems.push(`${name} in ${path} is not a setting of psd2-bank`);
  }
  if (problems.length > 0 || !config) throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return config;
}

const SECRET_NAME = /secret|password|key|token/i;

/** The configuration as `psd2-bank config` prints it: secrets and database passwords masked. */
export function maskedConfig(config: Config): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === "string" && value !== "" && SECRET_NAME.test(name)) masked[name] = "********";
    else if (name === "databaseUrl" && typeof value === "string" && value !== "") {
      const url = new URL(value);
      if (url.password) url.password = "********";
      masked[name] = url.toString();
    } else masked[name] = value;
  }
  return masked;
}
