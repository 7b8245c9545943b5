/**
 * Every setting of psd2-bank, declared once below (name, type, default, range, description), read
 * once from the environment (and a --config file) and frozen. Nothing else reads process.env: a
 * setting that is not here does not exist. The settings table of docs/operations.md is generated
 * from these declarations (`psd2-bank settings --markdown`) and a test keeps the two equal.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { isScaApproach, SCA_APPROACHES, type ScaApproach } from "./lib/sca-approaches.js";

const MODES = ["sandbox", "production"] as const;
export type Mode = typeof MODES[number];

const SQLITE_SYNCHRONOUS = ["full", "normal"] as const;

export const API_PROFILES = ["spec", "berlin-group"] as const;

/** The TPP API's interfaces: NextGenPSD2 1.3 at /v1, the openFinance API Framework 2.x at /v2. */
export const API_VERSIONS = ["v1", "v2"] as const;
export type ApiVersion = typeof API_VERSIONS[number];

/** RTS art. 16: off, or the limit since the last SCA the bank chose (100 EUR or 5 payments). */
export const LOW_VALUE_EXEMPTIONS = ["off", "amount", "count"] as const;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** What a setting's default may depend on: the mode and the ports, read before it. */
interface Earlier { mode: Mode; apiPort: number; authPort: number }

/** A setting's value as read, or the problem with the text as set. */
type Reading<T> = { value: T; problem?: string };

export interface Setting<T> {
  /** The environment variable (and the key in a --config file). */
  name: string;
  /** The default as docs/operations.md shows it. */
  shownDefault: string;
  /** The values allowed, as docs/operations.md shows them. */
  shownRange: string;
  description: string;
  /** Reads the variable's text; undefined and "" mean unset. */
  read(raw: string | undefined, earlier: Earlier): Reading<T>;
}

interface Declared { name: string; description: string }

/** Unset ("" too) falls back to the default; otherwise `parse` reads the text. */
function withDefault<T>(
  fallback: T | ((earlier: Earlier) => T), parse: (raw: string) => Reading<T>,
): Setting<T>["read"] {
  return (raw, earlier) => {
    if (raw !== undefined && raw !== "") return parse(raw);
    const value = typeof fallback === "function"
      ? (fallback as (e: Earlier) => T)(earlier) : fallback;
    return { value };
  };
}

interface Bounds { min?: number; max?: number; why?: string }

function boundsText({ min, max }: Bounds): string {
  if (min !== undefined && max !== undefined) return `${min}-${max}`;
  if (min !== undefined) return `at least ${min}`;
  return max === undefined ? "0 or more" : `0-${max}`;
}

function outOfBounds(name: string, value: number, { min, max, why }: Bounds): string | undefined {
  const tooSmall = min !== undefined && value < min;
  const tooLarge = max !== undefined && value > max;
  if (!tooSmall && !tooLarge) return undefined;
  const rule = min !== undefined && max !== undefined ? `between ${min} and ${max}`
    : min !== undefined ? `at least ${min}` : `at most ${max}`;
  return `${name} must be ${rule}${why ? ` (${why})` : ""}`;
}

type IntegerDeclared = Declared & Bounds & { fallback: number; shownDefault?: string };

function integer(declared: IntegerDeclared): Setting<number> {
  const { name, fallback } = declared;
  return {
    name, description: declared.description, shownRange: boundsText(declared),
    shownDefault: declared.shownDefault ?? String(fallback),
    read: (raw, earlier) => {
      const reading = withDefault(fallback, (text) => {
        const value = Number(text);
        if (Number.isInteger(value) && value >= 0) return { value };
        const problem = `${name} must be a non-negative integer, got "${text}"`;
        return { value: fallback, problem };
      })(raw, earlier);
      if (reading.problem) return reading;
      return { ...reading, problem: outOfBounds(name, reading.value, declared) };
    },
  };
}

function port(declared: Declared & { fallback: number }): Setting<number> {
  const base = integer(declared);
  return {
    ...base, shownRange: "0-65535",
    read: (raw, earlier) => {
      const reading = base.read(raw, earlier);
      if (reading.problem || reading.value <= 65535) return reading;
      const problem = `${declared.name} must be a TCP port (0-65535), got ${reading.value}`;
      return { ...reading, problem };
    },
  };
}

type FlagDeclared =
  Declared & { fallback: boolean | ((e: Earlier) => boolean); shownDefault?: string };

function flag(declared: FlagDeclared): Setting<boolean> {
  const { name, fallback } = declared;
  return {
    name, description: declared.description, shownRange: "`true`, `false`",
    shownDefault: declared.shownDefault ?? String(fallback),
    read: withDefault(fallback, (raw) => ({
      value: raw === "true",
      problem: raw === "true" || raw === "false" ? undefined
        : `${name} must be true or false, got "${raw}"`,
    })),
  };
}

/** A setting with a fixed set of values; unset means the first. */
function oneOf<T extends string>(declared: Declared & { choices: readonly [T, ...T[]] }):
  Setting<T> {
  const { name, choices } = declared;
  return {
    name, description: declared.description, shownDefault: choices[0],
    shownRange: choices.map((c) => `\`${c}\``).join(", "),
    read: withDefault(choices[0], (raw) => {
      const found = choices.find((choice) => choice === raw);
      if (found) return { value: found };
      const allowed = choices.map((c) => `"${c}"`).join(" or ");
      return { value: choices[0], problem: `${name} must be ${allowed}, got "${raw}"` };
    }),
  };
}

interface TextDeclared<T> extends Declared {
  fallback: T | ((e: Earlier) => T);
  shownDefault: string;
  shownRange?: string;
  /** Turns the text into the value and names what is wrong with it. */
  parse?: (raw: string) => Reading<T>;
}

function text<T = string>(declared: TextDeclared<T>): Setting<T> {
  const parse = declared.parse ?? ((raw: string) => ({ value: raw as T }));
  return {
    name: declared.name, description: declared.description, shownDefault: declared.shownDefault,
    shownRange: declared.shownRange ?? "text", read: withDefault(declared.fallback, parse),
  };
}

/** A path, made absolute against the working directory; unset stays "". */
type FileDeclared =
  Declared & { check?: (raw: string) => string | undefined; shownDefault: string };

function file(declared: FileDeclared): Setting<string> {
  return text({
    ...declared, fallback: "", shownRange: "a file",
    parse: (raw) => ({ value: resolve(raw), problem: declared.check?.(raw) }),
  });
}

/** Where the demo's footer links point until a bank sets its own. */
const DEMO_SITE = "https://psd2-bank.example";

type UrlDeclared = Declared & { fallback: (e: Earlier) => string; shownDefault: string };

function url(declared: UrlDeclared): Setting<string> {
  const { name } = declared;
  const check = (raw: string): Reading<string> => {
    const value = raw.replace(/\/+$/, "");
    try {
      const parsed = new URL(raw);
      if (parsed.protocol === "https:") return { value };
      return { value, problem: `${name} must be an https URL, got "${raw}"` };
    } catch {
      return { value, problem: `${name} must be an absolute URL, got "${raw}"` };
    }
  };
  return {
    name, description: declared.description, shownDefault: declared.shownDefault,
    shownRange: "an https URL",
    read: (raw, earlier) => check(raw || declared.fallback(earlier)),
  };
}

function commaList(raw: string): string[] {
  return raw.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

function readApproaches(raw: string): Reading<ScaApproach[]> {
  const names = commaList(raw);
  const unknown = names.filter((name) => !isScaApproach(name));
  if (names.length === 0 || unknown.length > 0) {
    const allowed = SCA_APPROACHES.join(", ");
    return { value: ["redirect"], problem: `SCA_APPROACHES must name ${allowed}, got "${raw}"` };
  }
  return { value: [...new Set(names.filter(isScaApproach))] };
}

function readApiVersions(raw: string): Reading<ApiVersion[]> {
  const names = commaList(raw);
  const unknown = names.filter((name) => !(API_VERSIONS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    return { value: ["v1"],
      problem: `API_VERSIONS must name ${API_VERSIONS.join(", ")}, got "${raw}"` };
  }
  return { value: API_VERSIONS.filter((version) => names.includes(version)) };
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const inProduction = (e: Earlier) => e.mode === "production";

/**
 * Every setting, in the order `psd2-bank config` prints them. A default may depend only on
 * settings declared before it (the mode and the ports).
 */
export const SETTINGS = {
  mode: oneOf({ name: "PSD2_MODE", choices: MODES,
    description: "`production`: no demo data, no sandbox routes, the bank's own TLS material "
      + "required" }),
  host: text({
    name: "HOST", fallback: "127.0.0.1", shownDefault: "127.0.0.1", shownRange: "an address",
    description: "interface both listeners bind to; `0.0.0.0` (or the private interface) "
      + "behind a load balancer" }),
  apiPort: port({ name: "API_PORT", fallback: 8443,
    description: "TPP API (HTTPS, asks for a client certificate)" }),
  authPort: port({ name: "AUTH_PORT", fallback: 8444,
    description: "PSU pages (HTTPS, never asks for a client certificate)" }),
  adminHost: text({ name: "ADMIN_HOST", fallback: "127.0.0.1", shownDefault: "127.0.0.1",
    shownRange: "an address",
    description: "interface of the operator's listener: `/metrics`, `/health`, `/ready` "
      + "(plain HTTP: keep it off public networks)" }),
  adminPort: port({
    name: "ADMIN_PORT", fallback: 9464, description: "port of the operator's listener",
  }),
  publicApiUrl: url({ name: "PUBLIC_API_URL", shownDefault: "`https://localhost:<API_PORT>`",
    fallback: (e) => `https://localhost:${e.apiPort}`,
    description: "absolute base of the TPP API as TPPs reach it (the load balancer's), used "
      + "in `_links`" }),
  publicAuthUrl: url({ name: "PUBLIC_AUTH_URL", shownDefault: "`https://localhost:<AUTH_PORT>`",
    fallback: (e) => `https://localhost:${e.authPort}`,
    description: "absolute base of the PSU pages as browsers reach them" }),
  dataDir: text({ name: "DATA_DIR", fallback: () => resolve("data"), shownDefault: "`./data`",
    shownRange: "a directory", parse: (raw) => ({ value: resolve(raw) }),
    description: "SQLite file and development certificates" }),
  databaseUrl: text({ name: "DATABASE_URL", fallback: "", shownDefault: "(empty: SQLite)",
    shownRange: "`postgres://...`",
    parse: (raw) => ({ value: raw, problem: /^postgres(ql)?:\/\//.test(raw) ? undefined
      : "DATABASE_URL must be a postgres:// URL (or empty for the embedded SQLite)" }),
    description: "PostgreSQL to use instead of SQLite; the same on every instance" }),
  databasePoolMax: integer({ name: "DATABASE_POOL_MAX", fallback: 10, min: 1,
    description: "PostgreSQL connections per instance, beside the audit log's own 2; "
      + "instances × (pool + 2) < `max_connections`" }),
  databaseStatementTimeoutMs: integer({ name: "DATABASE_STATEMENT_TIMEOUT_MS", fallback: 10_000,
    description: "longer statements are cancelled, so one stuck query cannot hold a request "
      + "forever; the request fails whole" }),
  sqliteSynchronous: oneOf({ name: "SQLITE_SYNCHRONOUS", choices: SQLITE_SYNCHRONOUS,
    description: "`full`: every answered commit is fsynced and survives power loss (group "
      + "commit pays one fsync per batch: 6 % fewer payments/s than `normal` in the bench); "
      + "`normal`: survives a process crash, not power loss" }),
  logLevel: text({
    name: "LOG_LEVEL", fallback: "info", shownDefault: "info", shownRange: "a pino level",
    description: "how much the bank logs" }),
  timeZone: text({ name: "BANK_TIME_ZONE", fallback: "Europe/Berlin", shownDefault: "Europe/Berlin",
    shownRange: "an IANA time zone",
    parse: (raw) => ({ value: raw, problem: validTimeZone(raw) ? undefined
      : `BANK_TIME_ZONE is not an IANA time zone: "${raw}"` }),
    description: "the bank's calendar: booking dates, \"today\", daily counters" }),
  bankName: text({ name: "BANK_NAME", fallback: "PSD2 Demo Bank", shownDefault: "PSD2 Demo Bank",
    description: "the bank's name on the PSU pages" }),
  bankBic: text({ name: "BANK_BIC", fallback: "PSDBDEFFXXX", shownDefault: "PSDBDEFFXXX",
    description: "the bank's BIC" }),
  bankCode: text({
    name: "BANK_CODE", fallback: "50010000", shownDefault: "50010000", shownRange: "8 digits",
    parse: (raw) => ({ value: raw, problem: /^\d{8}$/.test(raw) ? undefined
      : `BANK_CODE must be 8 digits, got "${raw}"` }),
    description: "bank code (BLZ) of the German IBANs the embedded ledger issues for new "
      + "accounts" }),
  bankImprintUrl: url({ name: "BANK_IMPRINT_URL", fallback: () => DEMO_SITE + "/imprint",
    shownDefault: `\`${DEMO_SITE}/imprint\``,
    description: "the bank's imprint (legal notice), linked in the PSU pages' footer" }),
  bankPrivacyUrl: url({ name: "BANK_PRIVACY_URL", fallback: () => DEMO_SITE + "/privacy",
    shownDefault: `\`${DEMO_SITE}/privacy\``,
    description: "the bank's privacy notice, linked in the PSU pages' footer" }),
  bankHelpUrl: url({ name: "BANK_HELP_URL", fallback: () => DEMO_SITE + "/help",
    shownDefault: `\`${DEMO_SITE}/help\``,
    description: "the bank's help and contact page, linked in the PSU pages' footer" }),
  psuPasswordResetUrl: url({ name: "PSU_PASSWORD_RESET_URL",
    fallback: () => DEMO_SITE + "/password-reset", shownDefault: `\`${DEMO_SITE}/password-reset\``,
    description: "where a PSU who forgot its password gets a new one, linked as \"Forgot your "
      + "password?\" under the login form" }),
  psuLoginHelpUrl: url({ name: "PSU_LOGIN_HELP_URL", fallback: () => DEMO_SITE + "/help/login",
    shownDefault: `\`${DEMO_SITE}/help/login\``,
    description: "help with logging in (login name, blocked access, devices), linked under the "
      + "login form" }),
  bankLogoFile: file({ name: "BANK_LOGO_FILE", shownDefault: "(empty: a built-in bank mark)",
    check: (raw) => (/\.(svg|png)$/i.test(raw) ? undefined
      : `BANK_LOGO_FILE must be an .svg or .png file, got "${raw}"`),
    description: "`.svg` or `.png` shown next to `BANK_NAME` on the PSU pages" }),
  seedDemoData: flag({ name: "SEED_DEMO_DATA", fallback: (e) => !inProduction(e),
    shownDefault: "true in sandbox, false in production",
    description: "seed the demo PSUs, accounts and history into an empty database on start "
      + "(never in production)" }),
  scaTokenTtlSeconds: integer({ name: "SCA_TOKEN_TTL_SECONDS", fallback: 600, max: 600,
    description: "lifetime of the redirect link's token" }),
  scaSessionIdleSeconds: integer({ name: "SCA_SESSION_IDLE_SECONDS", fallback: 300, max: 300,
    why: "RTS art. 4", description: "PSU session inactivity limit (RTS art. 4)" }),
  smsCodeTtlSeconds: integer({ name: "SMS_CODE_TTL_SECONDS", fallback: 300,
    description: "how long an SMS authorization code stays valid" }),
  loginFailuresMax: integer({
    name: "LOGIN_FAILURES_MAX", fallback: 5, min: 1, max: 5, why: "RTS art. 4",
    description: "consecutive failed authentications before a temporary block (RTS art. 4)" }),
  tppConcurrentPasswordChecks: integer({ name: "TPP_CONCURRENT_PASSWORD_CHECKS", fallback: 4,
    min: 0, max: 1000, description: "PSU passwords (embedded approach) one TPP may have checked "
      + "at once per instance; beyond, 429 `ACCESS_EXCEEDED`, so one TPP's burst of password "
      + "hashing cannot slow every PSU's login; 0: no limit" }),
  bodyLimitBytes: integer({ name: "BODY_LIMIT_BYTES", fallback: 64 * 1024,
    description: "largest request body on the TPP API; beyond, 413" }),
  xmlBodyLimitBytes: integer({ name: "XML_BODY_LIMIT_BYTES", fallback: 1024 * 1024,
    description: "largest XML (pain.001) request body on the TPP API; beyond, 413" }),
  xmlElementsMax: integer({ name: "XML_ELEMENTS_MAX", fallback: 10_000, min: 1,
    description: "most start tags an XML body may have, counted before it is parsed; beyond, "
      + "400 `FORMAT_ERROR` (a bulk pain.001 of 100 payments has about 2,000)" }),
  xmlAttributesMax: integer({ name: "XML_ATTRIBUTES_MAX", fallback: 1_000, min: 1,
    description: "most attributes (`=\"` or `='`) an XML body may have, counted before it is "
      + "parsed; beyond, 400 `FORMAT_ERROR` (pain.001 has one `Ccy` per amount)" }),
  xmlReaders: integer({ name: "XML_READERS", fallback: 1, min: 1, max: 32,
    description: "worker threads that parse and XSD-validate XML bodies, one document each at "
      + "a time, beside the event loop (at most one per core left to it)" }),
  xmlQueueMax: integer({ name: "XML_QUEUE_MAX", fallback: 8,
    description: "XML bodies waiting for a reader; beyond, 429 `ACCESS_EXCEEDED` with "
      + "`Retry-After`" }),
  xmlReadTimeoutMs: integer({ name: "XML_READ_TIMEOUT_MS", fallback: 5_000, min: 10,
    description: "longest a reader may take over one XML body; beyond, the reader is replaced "
      + "and the body refused with 400 `FORMAT_ERROR`" }),
  downloadThresholdEntries: integer({ name: "DOWNLOAD_THRESHOLD_ENTRIES", fallback: 1000,
    min: 1, max: 50_000, description: "a transaction file (camt, MT94x) with more entries is "
      + "answered with `_links.download` instead, a link for one download within 10 minutes" }),
  idempotencyRetentionHours: integer({ name: "IDEMPOTENCY_RETENTION_HOURS", fallback: 24,
    min: 24, max: 8760, description: "how long the first answer to a (TPP, X-Request-ID) is "
      + "kept for retries; later the scheduler prunes it and the key may create again" }),
  auditRetentionDays: integer({ name: "AUDIT_RETENTION_DAYS", fallback: 730, min: 1,
    description: "how long audit log entries are kept before they are pruned" }),
  permissionHistoryDays: integer({ name: "PERMISSION_HISTORY_DAYS", fallback: 730, min: 1,
    max: 3650, description: "how long the PSU's dashboard lists a permission after it ended "
      + "(withdrawn, expired, replaced, refused; PSR); then the scheduler deletes the consent" }),
  tlsCertFile: file({ name: "TLS_CERT_FILE", shownDefault: "(empty: development CA)",
    description: "the bank's server certificate (PEM) for both listeners; required in "
      + "production, together with `TLS_KEY_FILE` and `TPP_TRUST_STORE_FILE`" }),
  tlsKeyFile: file({ name: "TLS_KEY_FILE", shownDefault: "(empty: development CA)",
    description: "the key (PEM) of `TLS_CERT_FILE`" }),
  tppTrustStoreFile: file({ name: "TPP_TRUST_STORE_FILE", shownDefault: "(empty: development CA)",
    description: "PEM bundle of the QTSP CAs whose QWACs the TPP API accepts; required in "
      + "production" }),
  notificationClientCertFile: file({ name: "NOTIFICATION_CLIENT_CERT_FILE",
    shownDefault: "(empty: the server certificate)",
    description: "the bank's client certificate (PEM) for pushing statuses to TPPs "
      + "(`TPP-Notification-URI`)" }),
  notificationClientKeyFile: file({ name: "NOTIFICATION_CLIENT_KEY_FILE",
    shownDefault: "(empty: the server key)",
    description: "the key (PEM) of `NOTIFICATION_CLIENT_CERT_FILE`; it also signs the "
      + "notifications (Berlin Group HTTP signature)" }),
  notificationTrustStoreFile: file({ name: "NOTIFICATION_TRUST_STORE_FILE",
    shownDefault: "(empty: development CA in sandbox)",
    description: "PEM bundle of CAs trusted for TPPs' notification endpoints, besides the "
      + "system CAs" }),
  notificationPorts: text<number[]>({ name: "NOTIFICATION_PORTS", fallback: [443],
    shownDefault: "443", shownRange: "comma-separated TCP ports (1-65535)",
    parse: (raw) => {
      const value = commaList(raw).map(Number);
      const wrong = value.some((p) => !Number.isInteger(p) || p < 1 || p > 65535);
      return { value, problem: wrong || value.length === 0
        ? `NOTIFICATION_PORTS must list TCP ports (1-65535), got "${raw}"` : undefined };
    },
    description: "the ports a `TPP-Notification-URI` may name; any other is 400 `FORMAT_ERROR`" }),
  notificationLoopback: flag({ name: "NOTIFICATION_LOOPBACK", fallback: (e) => !inProduction(e),
    shownDefault: "true in sandbox, false in production",
    description: "push notifications to loopback addresses too (`localhost` on any port, but "
      + "never to the bank's own listeners): for the sandbox's demo TPP and tests; refused in "
      + "production. Private, link-local and the bank's own addresses are always refused" }),
  notificationTimeoutMs: integer({ name: "NOTIFICATION_TIMEOUT_MS", fallback: 5_000, min: 100,
    description: "how long one push of a status notification may take in all (connecting, "
      + "sending, the answer's status) before it counts as failed" }),
  notificationPushesPerTpp: integer({ name: "NOTIFICATION_PUSHES_PER_TPP", fallback: 2,
    min: 1, max: 20, description: "pushes in flight to one TPP's endpoints at once (of 20 in "
      + "all): a slow endpoint holds only these, never another TPP's notification" }),
  notificationRetryHours: integer({ name: "NOTIFICATION_RETRY_HOURS", fallback: 24, min: 1,
    description: "how long a notification is retried (exponential backoff from 5 s) before "
      + "it is marked failed and no longer pushed" }),
  notificationPollMs: integer({ name: "NOTIFICATION_POLL_MS", fallback: 2_000, min: 50,
    description: "how often the outbox is checked for notifications to push" }),
  paymentScaTimeoutSeconds: integer({ name: "PAYMENT_SCA_TIMEOUT_SECONDS", fallback: 30 * 60,
    description: "a payment not authorised within this time becomes `RJCT`" }),
  overdraftLimitCents: integer({ name: "OVERDRAFT_LIMIT_CENTS", fallback: 0,
    description: "how far below zero a customer account may go, in cents (0: not at all)" }),
  dailyPaymentLimitCents: integer({ name: "DAILY_PAYMENT_LIMIT_CENTS", fallback: 0,
    shownDefault: "0 (no limit)",
    description: "per PSU and booking day over all accounts, in cents; beyond, the payment is "
      + "`RJCT`" }),
  bulkPaymentEntriesMax: integer({ name: "BULK_PAYMENT_ENTRIES_MAX", fallback: 100,
    description: "the most payments one bulk payment may carry; beyond, 400 `FORMAT_ERROR` on "
      + "`payments`" }),
  clearingSettlementSeconds: integer({ name: "CLEARING_SETTLEMENT_SECONDS", fallback: 0,
    description: "time a SEPA credit transfer to another bank takes to settle: booked to the "
      + "clearing account it reads `ACSP`, and the due-payments job moves it to `ACCC` once "
      + "this has passed; 0: settled at booking, `ACSC` as within the bank" }),
  fundsConfirmationConsentRequired: flag({
    name: "FUNDS_CONFIRMATION_CONSENT_REQUIRED", fallback: false,
    description: "`true`: `POST /funds-confirmations` needs the `Consent-ID` of a "
      + "funds-confirmation consent the PSU granted for that account (`POST "
      + "/psd2/v1/consents/confirmation-of-funds`)" }),
  tppCrlFiles: text<string[]>({ name: "TPP_CRL_FILES", fallback: [], shownDefault: "(empty)",
    shownRange: "comma-separated files",
    parse: (raw) => ({ value: commaList(raw).map((p) => resolve(p)) }),
    description: "CRL files (PEM or DER) of the trusted CAs; a revoked certificate gets 401 "
      + "`CERTIFICATE_REVOKED`, and a file that cannot be read or verified refuses every "
      + "certificate (fails closed)" }),
  loginAttemptsPerIpPerMinute: integer({ name: "LOGIN_ATTEMPTS_PER_IP_PER_MINUTE", fallback: 60,
    description: "login posts per client address, refused (429) before any password is hashed" }),
  tppRequestsPerMinute: integer({
    name: "TPP_REQUESTS_PER_MINUTE", fallback: 0, shownDefault: "0 (unlimited)",
    description: "API requests per TPP and minute, counted in the database across all "
      + "instances; beyond, 429 `ACCESS_EXCEEDED` with `Retry-After`" }),
  requireHttpSignature: flag({ name: "REQUIRE_HTTP_SIGNATURE", fallback: false,
    description: "refuse TPP requests without a Berlin Group HTTP signature (401 "
      + "`SIGNATURE_MISSING`); a `Signature` that is sent is always verified (`Digest` "
      + "SHA-256/SHA-512 of the body, signing certificate trusted, valid, not revoked, same "
      + "organizationIdentifier as the TLS certificate)" }),
  v2JwsSignatureRequired: flag({ name: "V2_JWS_SIGNATURE_REQUIRED", fallback: false,
    description: "refuse `/psd2/v2` requests without an openFinance 2.x `x-jws-signature` (401 "
      + "`SIGNATURE_MISSING`); one that is sent is always verified (JAdES over `Digest`, "
      + "`X-Request-ID` and the other signed headers; the signing certificate judged as for "
      + "`REQUIRE_HTTP_SIGNATURE`); 1.3's `Signature` and `REQUIRE_HTTP_SIGNATURE` are not "
      + "those of `/psd2/v2`" }),
  tppCertHeader: text({ name: "TPP_CERT_HEADER", fallback: "", shownDefault: "(empty: none)",
    shownRange: "a header name",
    parse: (raw) => {
      const value = raw.trim().toLowerCase();
      const header = /^[a-z0-9-]*$/.test(value);
      return { value, problem: header ? undefined : "TPP_CERT_HEADER must be a header name" };
    },
    description: "header in which a TLS-terminating proxy forwards the TPP's certificate as "
      + "URL-encoded PEM (nginx `$ssl_client_escaped_cert`, envoy `x-forwarded-client-cert`); "
      + "see Production" }),
  trustedProxies: text<string[]>({ name: "TRUSTED_PROXIES", fallback: [], shownDefault: "(empty)",
    shownRange: "comma-separated IP addresses",
    parse: (raw) => {
      const value = commaList(raw);
      const wrong = value.filter((address) => isIP(address) === 0)
        .map((address) => `TRUSTED_PROXIES must list IP addresses, got "${address}"`);
      return { value, problem: wrong.length > 0 ? wrong.join("; ") : undefined };
    },
    description: "addresses whose `TPP_CERT_HEADER` is believed; from any other address the "
      + "header is ignored" }),
  redirectUriDomainCheck: flag({ name: "REDIRECT_URI_DOMAIN_CHECK", fallback: inProduction,
    shownDefault: "true in production, false in sandbox",
    description: "`TPP-Redirect-URI`, `TPP-Nok-Redirect-URI` and an OAuth pushed request's "
      + "`redirect_uri` must point into a domain of the TPP certificate's subjectAltName "
      + "(dNSName, or CN if a host name) or below it, never at an IP address; "
      + "`*.tpp.example` covers the names below `tpp.example`. Otherwise 400 `FORMAT_ERROR` "
      + "naming the header (OAuth: `invalid_request`)" }),
  ocspFailClosed: flag({ name: "OCSP_FAIL_CLOSED", fallback: inProduction,
    shownDefault: "true in production, false in sandbox",
    description: "a TPP certificate naming an OCSP responder (Authority Information Access) "
      + "is checked there (POST, answers signed by the issuing CA or its delegated OCSP "
      + "signer, cached until `nextUpdate`, 5 s timeout); when the responder cannot be "
      + "reached or answers nothing usable, true refuses the certificate (401 "
      + "`CERTIFICATE_INVALID`) and false admits it. A revoked answer is 401 "
      + "`CERTIFICATE_REVOKED`, and a responder that does not know the certificate refuses it "
      + "either way" }),
  loginBlockSeconds: integer({ name: "LOGIN_BLOCK_SECONDS", fallback: 15 * 60, min: 60,
    description: "how long a PSU stays blocked after `LOGIN_FAILURES_MAX` consecutive failed "
      + "authentications (password or code); the page says the access is blocked, never which "
      + "factor was wrong" }),
  headerLimitBytes: integer({
    name: "HEADER_LIMIT_BYTES", fallback: 16 * 1024, min: 4096, max: 65536,
    description: "largest request line plus headers either listener reads; beyond, 431 "
      + "(`FORMAT_ERROR` for TPPs) and the connection is closed" }),
  requestTimeoutSeconds: integer({
    name: "REQUEST_TIMEOUT_SECONDS", fallback: 30, min: 1,
    description: "longest a whole request (headers and body) may take on either listener; then "
      + "408 and the connection is closed" }),
  headersTimeoutSeconds: integer({
    name: "HEADERS_TIMEOUT_SECONDS", fallback: 10, min: 1,
    description: "longest the request line and headers may take to arrive on either listener; "
      + "then 408 and closed (at most `REQUEST_TIMEOUT_SECONDS`)" }),
  keepAliveTimeoutSeconds: integer({
    name: "KEEP_ALIVE_TIMEOUT_SECONDS", fallback: 5, min: 1,
    description: "how long an idle keep-alive connection stays open between requests, on either "
      + "listener" }),
  maxConnections: integer({
    name: "MAX_CONNECTIONS", fallback: 1000, min: 1,
    description: "open connections per listener (TPP API, PSU pages); beyond, new connections are "
      + "closed at once" }),
  maxConnectionsPerAddress: integer({
    name: "MAX_CONNECTIONS_PER_ADDRESS", fallback: 100, min: 0,
    description: "open connections one client address may hold on each listener; beyond, its new "
      + "connections are closed at once, so one client cannot take `MAX_CONNECTIONS` from the "
      + "others. Behind a load balancer or proxy every client has its address: raise it or set "
      + "0 (no limit)" }),
  apiProfile: oneOf({ name: "API_PROFILE", choices: API_PROFILES,
    description: "wire dialect of the TPP API: `spec` (the spec's dialect, see API profiles: 200 "
      + "on create, plain-string links, nulls present) or `berlin-group` (strict NextGenPSD2 "
      + "1.3.12: 201 with `Location` and `ASPSP-SCA-Approach`, `{\"href\"}` links, `RCVD` on "
      + "create, optional fields omitted). Same rules, storage and paths in both" }),
  apiVersions: text<ApiVersion[]>({ name: "API_VERSIONS",
    fallback: (e) => (inProduction(e) ? ["v1"] : [...API_VERSIONS]),
    shownDefault: "v1,v2 in sandbox, v1 in production",
    shownRange: "comma-separated `v1`, `v2`",
    parse: readApiVersions,
    description: "the interfaces the TPP API serves: `v1` (NextGenPSD2 1.3 in the `API_PROFILE` "
      + "dialect, below `/psd2/v1`) and `v2` (openFinance API Framework 2.x: Consent API 2.1, "
      + "AIS, PIS and PIIS 2.4.1, below `/psd2/v2`); a consent or payment lives once whichever "
      + "created it, and is read through that interface only" }),
  consentValidityDaysMax: integer({
    name: "CONSENT_VALIDITY_DAYS_MAX", fallback: 180, min: 1, max: 180, why: "RTS art. 10a",
    description: "a consent's `validUntil` later than today plus this (or `9999-12-31`) is "
      + "adjusted down and shown adjusted (RTS art. 10a)" }),
  frequencyPerDayMax: integer({ name: "FREQUENCY_PER_DAY_MAX", fallback: 4, min: 1,
    description: "a consent's `frequencyPerDay` above this is adjusted down" }),
  consentAuthorisationMinutes: integer({
    name: "CONSENT_AUTHORISATION_MINUTES", fallback: 30, min: 1,
    description: "a consent not authorised by the PSU within this time becomes `rejected`" }),
  scaApproaches: text<ScaApproach[]>({ name: "SCA_APPROACHES",
    fallback: (e) => (inProduction(e) ? ["redirect"] : [...SCA_APPROACHES]),
    shownDefault: "redirect,embedded,decoupled,oauth in sandbox, redirect in production",
    shownRange: "comma-separated `redirect`, `embedded`, `decoupled`, `oauth`",
    parse: readApproaches,
    description: "the SCA approaches the bank offers; a TPP's `TPP-Redirect-Preferred` and "
      + "`TPP-Decoupled-Preferred` choose among them, and each creation answers with the "
      + "approach taken in `ASPSP-SCA-Approach` and that approach's `_links` (`oauth`: "
      + "`REDIRECT` with `_links.scaOAuth`, the bank's OAuth 2.0 authorisation server)" }),
  decoupledTimeoutSeconds: integer({
    name: "DECOUPLED_TIMEOUT_SECONDS", fallback: 300, min: 1, max: 3_600,
    description: "a decoupled request the PSU neither confirms nor rejects in the bank app "
      + "within this time fails: `scaStatus` `failed`, the payment `RJCT`, the consent "
      + "`rejected`" }),
  scaDefaultApproach: oneOf({ name: "SCA_DEFAULT_APPROACH", choices: SCA_APPROACHES,
    description: "the approach of a creation whose TPP states no preference (or one the bank "
      + "does not offer); must be one of `SCA_APPROACHES`" }),
  oauthBearerRequired: flag({ name: "OAUTH_BEARER_REQUIRED", fallback: false,
    description: "AIS, PIS and PIIS calls on an existing consent or payment need an OAuth access "
      + "token for it (`Authorization: Bearer`, issued to the same certificate); without it "
      + "401 `TOKEN_INVALID`. A token that is sent is always checked" }),
  authorisationConfirmation: flag({ name: "AUTHORISATION_CONFIRMATION", fallback: false,
    description: "Berlin Group's authorisation confirmation: after the PSU's SCA on the bank's "
      + "pages the redirect back to the TPP (in the OAuth approach, the authorisation response "
      + "beside `code`) carries a one-time `confirmationCode`, the "
      + "authorisation is `unconfirmed`, and the payment or consent is authorised only once the "
      + "TPP sends `PUT` on the authorisation with `{\"confirmationCode\": …}` (`_links."
      + "confirmation`)" }),
  oauthCodeSeconds: integer({ name: "OAUTH_CODE_SECONDS", fallback: 60, min: 1, max: 600,
    why: "FAPI 2.0: codes live at most 60 s", description: "lifetime of an OAuth "
      + "authorisation code (single use)" }),
  oauthAccessTokenSeconds: integer({ name: "OAUTH_ACCESS_TOKEN_SECONDS", fallback: 300, min: 1,
    max: 86_400, description: "lifetime of an OAuth access token" }),
  oauthRefreshTokenSeconds: integer({ name: "OAUTH_REFRESH_TOKEN_SECONDS", fallback: 7_776_000,
    min: 0, max: 31_536_000, description: "lifetime of an OAuth refresh token, issued for a "
      + "recurring consent when the TPP asks for `offline_access` (0: none issued); never "
      + "beyond the consent's own validity, since the consent's end revokes its tokens" }),
  trustedPayeeExemption: flag({ name: "TRUSTED_PAYEE_EXEMPTION", fallback: true,
    description: "RTS art. 13: a payment to a payee on the PSU's list of trusted payees "
      + "(kept on the dashboard, each change confirmed with the second factor) needs the "
      + "password only; `scaStatus` `exempted`" }),
  lowValueExemption: oneOf({ name: "LOW_VALUE_EXEMPTION", choices: LOW_VALUE_EXEMPTIONS,
    description: "RTS art. 16: a payment of at most 30 EUR needs the password only while, since "
      + "the PSU's last SCA, `amount`: at most 100 EUR in all or `count`: at most 5 payments "
      + "went without it (this one included); per PSU, stored, reset by every SCA" }),
  traExemption: flag({ name: "TRA_EXEMPTION", fallback: false,
    description: "RTS art. 18: a payment within the amount band that the bank's fraud rate of "
      + "the last 90 days (PSU-reported fraud, `payment report-fraud`) allows, from a browser the "
      + "PSU passed SCA in, needs the password only (bands: docs/tpp-guide.md, SCA exemptions)" }),
  vopDirectoryFile: file({ name: "VOP_DIRECTORY_FILE",
    shownDefault: "(empty: demo directory in sandbox, none in production)",
    description: "Verification of Payee: JSON directory of other banks' payees (`holders`: "
      + "IBAN to name, `notPossible`, `noAnswer`) the sandbox scheme answers from" }),
  vopTimeoutMs: integer({ name: "VOP_TIMEOUT_MS", fallback: 1_000, min: 50, max: 30_000,
    description: "how long a payment creation waits for the payee's bank's Verification of "
      + "Payee answer; later is \"check not possible\"" }),
  vopRequestsPerMinute: integer({ name: "VOP_REQUESTS_PER_MINUTE", fallback: 600, min: 0,
    description: "Verification of Payee requests another bank may make per minute to "
      + "`/vop/v1/payee-verifications` (0: unlimited)" }),
  vopMismatchesPerMinute: integer({ name: "VOP_MISMATCHES_PER_MINUTE", fallback: 20, min: 0,
    description: "no-match and close-match answers another bank may get per minute from "
      + "`/vop/v1/payee-verifications`; beyond, 429 with `Retry-After` instead of the answer, "
      + "so guessing holders' names is slow (0: unlimited)" }),
  vopBulkEntriesMax: integer({ name: "VOP_BULK_ENTRIES_MAX", fallback: 1_000, min: 1,
    max: 10_000, description: "the most entries one bulk of payee checks (`/psd2/v2/"
      + "bulk-payee-verifications`) may carry; beyond, 400 `FORMAT_ERROR`" }),
  vopBulkPollMs: integer({ name: "VOP_BULK_POLL_MS", fallback: 1_000, min: 50,
    description: "how often accepted bulks of payee checks are looked for and answered" }),
} satisfies Record<string, Setting<unknown>>;

type ValueOf<S> = S extends Setting<infer T> ? T : never;

export type Config = { [K in keyof typeof SETTINGS]: ValueOf<(typeof SETTINGS)[K]> };

/** Checks between settings; each setting's own range is checked where it is declared. */
function crossChecks(config: Config, problems: string[]): void {
  if (!config.scaApproaches.includes(config.scaDefaultApproach)) {
    problems.push("SCA_DEFAULT_APPROACH must be one of SCA_APPROACHES");
  }
  if (config.oauthBearerRequired && !config.scaApproaches.includes("oauth")) {
    problems.push("OAUTH_BEARER_REQUIRED needs the authorisation server: oauth in SCA_APPROACHES");
  }
  if (!config.apiVersions.includes("v1")) {
    problems.push("API_VERSIONS must include v1: /v2 does not yet serve payments, baskets or "
      + "funds confirmations");
  }
  if (config.apiVersions.includes("v2") && !config.scaApproaches.includes("redirect")) {
    problems.push("API_VERSIONS with v2 needs redirect in SCA_APPROACHES: /v2 offers only it "
      + "(API_VERSIONS=v1 serves the other approaches alone)");
  }
  if (config.apiVersions.includes("v2") && config.authorisationConfirmation) {
    problems.push("API_VERSIONS with v2 needs AUTHORISATION_CONFIRMATION false: /v2 takes no "
      + "confirmation code yet, so its authorisations would never be confirmed (API_VERSIONS=v1 "
      + "serves the confirmation alone)");
  }
  if (config.tppCertHeader !== "" && config.trustedProxies.length === 0) {
    problems.push(
      "TPP_CERT_HEADER needs TRUSTED_PROXIES: the addresses of the proxies that set it");
  }
  const tlsFiles = { TLS_CERT_FILE: config.tlsCertFile, TLS_KEY_FILE: config.tlsKeyFile,
    TPP_TRUST_STORE_FILE: config.tppTrustStoreFile };
  const missing = Object.entries(tlsFiles).filter(([, file]) => file === "").map(([name]) => name);
  if (config.mode === "production" && missing.length > 0) {
    problems.push(`production mode needs the bank's own TLS material: set ${missing.join(", ")}`);
  } else if (missing.length > 0 && missing.length < 3) {
    problems.push(`${missing.join(", ")} must be set together with the other TLS files `
      + "(or none, for the development CA)");
  }
  if (config.headersTimeoutSeconds > config.requestTimeoutSeconds) {
    problems.push("HEADERS_TIMEOUT_SECONDS must be at most REQUEST_TIMEOUT_SECONDS");
  }
  if (config.mode === "production" && config.notificationLoopback) {
    problems.push("NOTIFICATION_LOOPBACK must not be true in production mode");
  }
  if (config.mode === "production" && config.seedDemoData) {
    problems.push("SEED_DEMO_DATA must not be true in production mode");
  }
}

/** Reads and validates the configuration; every wrong setting is named in one ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    // The settings a default depends on are declared, so read, before it.
    const { value, problem } = setting.read(env[setting.name], config as unknown as Earlier);
    if (problem !== undefined) problems.push(problem);
    config[key] = value;
  }
  crossChecks(config as Config, problems);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }
  return Object.freeze(config as Config);
}

/** docs/operations.md's settings table, generated from the declarations. */
export function settingsMarkdown(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = Object.values(SETTINGS).map((s: Setting<unknown>) =>
    `| \`${s.name}\` | ${cell(s.shownDefault)} | ${cell(s.shownRange)} | ${cell(s.description)} |`);
  const heading = ["| Variable | Default | Values | Meaning |", "|---|---|---|---|"];
  return [...heading, ...rows].join("\n") + "\n";
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
    throw new ConfigError(
      `Cannot read the configuration file ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(
      `The configuration file ${path} must hold a JSON object of setting names to values`);
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
  if (problems.length > 0 || !config) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }
  return config;
}

const SECRET_NAME = /secret|password|key|token/i;

/** The configuration as `psd2-bank config` prints it: secrets and database passwords masked. */
export function maskedConfig(config: Config): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === "string" && value !== "" && SECRET_NAME.test(name)) {
      masked[name] = "********";
    } else if (name === "databaseUrl" && typeof value === "string" && value !== "") {
      const url = new URL(value);
      if (url.password) url.password = "********";
      masked[name] = url.toString();
    } else masked[name] = value;
  }
  return masked;
}
