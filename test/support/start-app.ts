/**
 * Starts a real psd2-bank in-process for a test: real TLS on port 0, a fresh development CA and a
 * fresh SQLite file (or, with engine "postgres", a fresh PostgreSQL database) in a temporary
 * directory, the demo data seeded. `sharing` starts a second instance on another bank's database
 * and certificates, as two instances behind one load balancer.
 */
import { after, before } from "node:test";
import { readFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { buildApp, type App } from "../../src/app/build-app.js";
import { loadConfig } from "../../src/config.js";
import type { Clock } from "../../src/lib/clock.js";
import {
  issueTppCertificate, loadKeyAndCertificate, type DevCertificatePaths, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { BrowserClient } from "./browser.js";
import { freshMigratedDatabase, testEngine, type EngineDatabase, type Engine } from "./engines.js";
import { berlinGroupViolations } from "./berlin-group.js";
import { TppClient, type ExchangeCheck } from "./tpp-client.js";
import { openFinanceViolations } from "./openfinance.js";
import { isSkipping, registerBankClock, skippingClock } from "./bank-clock.js";

export interface TestBank {
  app: App;
  apiUrl: string;
  authUrl: string;
  adminUrl: string;
  certs: DevCertificatePaths;
  ca: Buffer;
  /** The demo TPP (all four roles). */
  tpp: TppClient;
  /** A client with a certificate of another TPP, issued by the same CA. */
  tppWith(request: Partial<TppCertificateRequest>): Promise<TppClient>;
  browser(): BrowserClient;
  /** The data directory and DATABASE_URL this bank runs on. */
  database: EngineDatabase;
  /** The test's own clock, or the system's time the TOTP helper may move forward (bank-clock.ts). */
  clock: Clock;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Default: testEngine(), SQLite unless the file runs under rerunOnPostgres. */
  engine?: Engine;
  /** Run as another instance of this bank: same database, same CA; it removes them, not we. */
  sharing?: TestBank;
}

/**
 * Under API_PROFILE=berlin-group every answer the tests get must conform to the Berlin Group
 * file, and so must the headers of every request the bank accepts, and its body unless the file
 * was written for the spec's dialect and only rerun under the profile (TEST_API_PROFILE).
 */
const conformsToBerlinGroup = (requests: boolean): ExchangeCheck => (exchange) => {
  const violations = berlinGroupViolations(exchange, requests);
  if (violations.length > 0) throw new Error(`Not Berlin Group NextGenPSD2 1.3.12:\n  ${violations.join("\n  ")}`);
};

/** Every /v2 exchange must conform to the openFinance files (test/support/openfinance.ts). */
const conformsToOpenFinance: ExchangeCheck = (exchange) => {
  const violations = openFinanceViolations(exchange);
  if (violations.length > 0) throw new Error(`Not openFinance 2.x:\n  ${violations.join("\n  ")}`);
};

/**
 * Fastify serializes an answer through its route's response schema, which drops the fields the
 * schema does not declare and coerces the others to the declared types. Every answer of a test
 * bank is compared with what its route returned; the differences are kept by X-Request-ID, so the
 * test that meets a lossy schema fails on that call (in both profiles).
 */
function watchSerialization(api: FastifyInstance): Map<string, string> {
  const returned = new WeakMap<FastifyRequest, string>();
  const changed = new Map<string, string>();
  api.addHook("preSerialization", async (request, _reply, payload) => {
    returned.set(request, JSON.stringify(payload));
    return payload;
  });
  api.addHook("onSend", async (request, _reply, payload) => {
    const before = returned.get(request);
    const id = request.headers["x-request-id"];
    if (before !== undefined && typeof payload === "string" && typeof id === "string"
      && !isDeepStrictEqual(JSON.parse(payload), JSON.parse(before))) {
      changed.set(id, `returned ${before}\n  sent     ${payload}`);
    }
    return payload;
  });
  return changed;
}

/**
 * Every answer of a test bank must be documented in the OpenAPI document it publishes, under its
 * operation and status: the answers are recorded by route, and checked when the bank closes, so
 * the whole API suite (any concurrency: each bank checks its own) exercises the document.
 */
function recordAnswers(api: FastifyInstance): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  api.addHook("onResponse", async (request, reply) => {
    const url = request.routeOptions.url;
    // Unknown paths have no operation; HEAD is GET's automatic twin. The OAuth endpoints are
    // described by the authorisation server's own metadata (RFC 8414), not the XS2A document.
    // The /v2 interface's contract is the openFinance files, which the client checks instead.
    if (url === undefined || request.method === "HEAD" || request.routeOptions.config.oauth
      || url.startsWith("/psd2/v2/")) return;
    const key = `${request.method} ${url}`;
    seen.set(key, (seen.get(key) ?? new Set()).add(String(reply.statusCode)));
  });
  return seen;
}

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** The operations documenting a route: its own, or one per value (an initiation's products). */
function operationsOf(document: Document, method: string, url: string) {
  const path = url.replace(/:([A-Za-z0-9_-]+)/g, "{$1}");
  const pattern = new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/:[A-Za-z0-9_-]+/g, "[^/{}]+")}$`);
  const paths = document.paths[path] ? [path] : Object.keys(document.paths).filter((p) => pattern.test(p));
  return paths.map((p) => document.paths[p]?.[method.toLowerCase()]);
}

export function undocumentedAnswers(document: Document, seen: Map<string, Set<string>>): string[] {
  const missing: string[] = [];
  for (const [key, statuses] of seen) {
    const [method = "", url = ""] = key.split(" ");
    const operations = operationsOf(document, method, url);
    for (const status of statuses) {
      if (operations.length === 0 || operations.some((op) => op?.responses[status] === undefined)) {
        missing.push(`${key} answered ${status}`);
      }
    }
  }
  return missing.sort();
}

/** A bank of one test's own (fresh PSU state, or a clock the test moves), closed after it. */
export async function startOwnBank(t: { after(fn: () => Promise<void>): void }, options: StartOptions = {}) {
  const own = await startBank(options);
  t.after(() => own.close());
  return own;
}

/**
 * Two instances of one bank on one PostgreSQL database for the calling describe block: started
 * before its tests, handed to `started`, and closed after them (the sharing one first).
 */
export function twoInstancesOnPostgres(started: (first: TestBank, second: TestBank) => void) {
  let both: [TestBank, TestBank] | undefined;
  before(async () => {
    const first = await startBank({ engine: "postgres" });
    both = [first, await startBank({ sharing: first })];
    started(...both);
  });
  after(async () => {
    await both?.[1].close();
    await both?.[0].close();
  });
}

export async function startBank(options: StartOptions = {}): Promise<TestBank> {
  if (options.sharing) return startInstance(options.sharing.database, options, false);
  const database = await freshMigratedDatabase(options.engine ?? testEngine());
  // A bank that fails to start (tests of refused settings) must not leave its database behind.
  return startInstance(database, options, true).catch(async (error: unknown) => {
    await database.remove();
    throw error;
  });
}

async function startInstance(
  database: EngineDatabase, options: StartOptions, ownsDatabase: boolean,
): Promise<TestBank> {
  const config = loadConfig({
    DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, API_PORT: "0", AUTH_PORT: "0", ADMIN_PORT: "0",
    // TEST_API_PROFILE=berlin-group reruns shape-independent test files under the strict profile.
    LOG_LEVEL: "silent", API_PROFILE: process.env.TEST_API_PROFILE ?? "spec",
    // Tests block this process's event loop (spawnSync of the CLI, bursts of hashing) while their
    // clients hold idle connections to the bank in it: a server closing them after the default 5 s
    // races the client's next request (ECONNRESET). Tests of the timeouts set their own.
    KEEP_ALIVE_TIMEOUT_SECONDS: "60",
    // Every test client connects from 127.0.0.1 with up to 64 keep-alive sockets, as clients
    // behind a proxy share its address; the per-address limit's own test sets it.
    MAX_CONNECTIONS_PER_ADDRESS: "0", ...options.env,
  });
  // Two instances of one bank keep one time, as servers synchronised by NTP do.
  const clock = options.clock ?? options.sharing?.clock ?? skippingClock();
  const app = await buildApp(config, { clock, logLevel: process.env.TEST_LOG_LEVEL ?? "silent" });
  const changed = watchSerialization(app.api);
  const answers = recordAnswers(app.api);
  const { apiUrl, authUrl, adminUrl } = await app.listen();
  const forget = isSkipping(clock) ? registerBankClock(authUrl, clock) : () => undefined;
  const certs = app.certificates;
  if (!certs) throw new Error("test banks use the development CA");
  const [ca, cert, key] = await Promise.all([
    readFile(certs.caCert), readFile(certs.tppCert), readFile(certs.tppKey),
  ]);
  const clients: TppClient[] = [];
  const client = (tls: { cert: Buffer | string; key: Buffer | string }) => {
    const made = new TppClient(apiUrl, { ca, ...tls });
    made.profile = config.apiProfile;
    const conforms = config.apiProfile === "berlin-group"
      ? conformsToBerlinGroup(options.env?.API_PROFILE === "berlin-group") : undefined;
    made.check = (exchange) => {
      const id = exchange.headers["x-request-id"];
      const lost = typeof id === "string" ? changed.get(id) : undefined;
      if (lost) {
        const route = `${exchange.method} ${exchange.path}`;
        throw new Error(`The response schema of ${route} changed the answer:\n  ${lost}`);
      }
      conforms?.(exchange);
      conformsToOpenFinance(exchange);
    };
    clients.push(made);
    return made;
  };
  const tpp = client({ cert, key });
  return {
    app, apiUrl, authUrl, adminUrl, certs, ca, tpp, database, clock,
    async tppWith(request) {
      const issuer = await loadKeyAndCertificate(certs.caCert, certs.caKey);
      const issued = await issueTppCertificate(issuer, {
        name: "Other TPP", organizationIdentifier: "PSDDE-BAFIN-999999", roles: ["PSP_PI", "PSP_AI", "PSP_IC"],
        ...request,
      });
      return client({ cert: issued.certPem, key: issued.keyPem });
    },
    browser: () => new BrowserClient(authUrl, ca),
    async close() {
      for (const client of clients) client.close();
      forget();
      await app.close();
      if (ownsDatabase) await database.remove();
      const undocumented = undocumentedAnswers(app.openApiDocument() as Document, answers);
      if (undocumented.length > 0) {
        const list = undocumented.join("\n  ");
        throw new Error(`Answers missing from the OpenAPI document:\n  ${list}`);
      }
    },
  };
}
