/**
 * Every setting of psd2-bank, typed, read once from the environment (and CLI flags) and frozen.
 * Nothing else reads process.env: a setting that is not here does not exist.
 */
import { resolve } from "node:path";

export type Mode = "sandbox" | "production";

export interface Config {
  mode: Mode;
  /** Interface to bind both listeners to. */
  host: string;
  apiPort: number;
  authPort: number;
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
  logLevel: string;
  /** The bank's calendar: booking dates, "today", daily counters. */
  timeZone: string;
  bankName: string;
  bankBic: string;
  /** Seed demo PSUs, accounts and history into an empty database on start. */
  seedDemoData: boolean;
  scaTokenTtlSeconds: number;
  scaSessionIdleSeconds: number;
  smsCodeTtlSeconds: number;
  loginFailuresMax: number;
  bodyLimitBytes: number;
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

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Reads and validates the configuration; every wrong setting is named in one ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const mode = (env.PSD2_MODE || "sandbox") as Mode;
  if (mode !== "sandbox" && mode !== "production") {
    problems.push(`PSD2_MODE must be "sandbox" or "production", got "${env.PSD2_MODE}"`);
  }
  const apiPort = port(env, "API_PORT", 8443, problems);
  const authPort = port(env, "AUTH_PORT", 8444, problems);
  const timeZone = env.BANK_TIME_ZONE || "Europe/Berlin";
  if (!validTimeZone(timeZone)) problems.push(`BANK_TIME_ZONE is not an IANA time zone: "${timeZone}"`);
  const config: Config = {
    mode,
    host: env.HOST || "127.0.0.1",
    apiPort,
    authPort,
    publicApiUrl: url(env, "PUBLIC_API_URL", `https://localhost:${apiPort}`, problems),
    publicAuthUrl: url(env, "PUBLIC_AUTH_URL", `https://localhost:${authPort}`, problems),
    dataDir: resolve(env.DATA_DIR || "data"),
    databaseUrl: env.DATABASE_URL || "",
    databasePoolMax: integer(env, "DATABASE_POOL_MAX", 10, problems),
    databaseStatementTimeoutMs: integer(env, "DATABASE_STATEMENT_TIMEOUT_MS", 10_000, problems),
    logLevel: env.LOG_LEVEL || "info",
    timeZone,
    bankName: env.BANK_NAME || "PSD2 Demo Bank",
    bankBic: env.BANK_BIC || "PSDBDEFFXXX",
    seedDemoData: (env.SEED_DEMO_DATA ?? (mode === "sandbox" ? "true" : "false")) === "true",
    scaTokenTtlSeconds: integer(env, "SCA_TOKEN_TTL_SECONDS", 600, problems),
    scaSessionIdleSeconds: integer(env, "SCA_SESSION_IDLE_SECONDS", 300, problems),
    smsCodeTtlSeconds: integer(env, "SMS_CODE_TTL_SECONDS", 300, problems),
    loginFailuresMax: integer(env, "LOGIN_FAILURES_MAX", 5, problems),
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 64 * 1024, problems),
  };
  if (config.scaTokenTtlSeconds > 600) problems.push("SCA_TOKEN_TTL_SECONDS must be at most 600");
  if (config.scaSessionIdleSeconds > 300) problems.push("SCA_SESSION_IDLE_SECONDS must be at most 300 (RTS art. 4)");
  if (config.loginFailuresMax < 1 || config.loginFailuresMax > 5) {
    problems.push("LOGIN_FAILURES_MAX must be between 1 and 5 (RTS art. 4)");
  }
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    problems.push("DATABASE_URL must be a postgres:// URL (or empty for the embedded SQLite)");
  }
  if (config.databasePoolMax < 1) problems.push("DATABASE_POOL_MAX must be at least 1");
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return Object.freeze(config);
}
