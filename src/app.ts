/**
 * The composition root: opens the store, picks the core banking system, builds the use cases and
 * both servers (the TPP API with client certificates, the PSU pages without). The only importer
 * of ledger/: a bank's own core replaces createEmbeddedLedger here and nowhere else.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import pino from "pino";
import { accountRoutes } from "./api/accounts.js";
import { consentRoutes } from "./api/consents.js";
import { healthRoutes } from "./api/health.js";
import { paymentRoutes } from "./api/payments.js";
import { installApiPlugin } from "./api/plugin.js";
import type { Config } from "./config.js";
import { createAccounts } from "./domain/accounts.js";
import { createAuthorisations } from "./domain/authorisation.js";
import { createConsents } from "./domain/consents.js";
import type { Deps, ScaLinks } from "./domain/deps.js";
import { createIdempotency } from "./domain/idempotency.js";
import { createPayments } from "./domain/payments.js";
import { createScheduler, type Scheduler } from "./domain/scheduler.js";
import { createTppRegistry } from "./domain/tpps.js";
import { systemClock, type Clock } from "./lib/clock.js";
import { newSecret } from "./lib/ids.js";
import { createEmbeddedLedger } from "./ledger/core.js";
import { seedDemoData } from "./ledger/demo-data.js";
import { scaPages } from "./sca/pages.js";
import { createPasswords, hashPassword } from "./sca/passwords.js";
import { createScaRedirects } from "./sca/redirect.js";
import { openStore, type Store } from "./store/db.js";
import { ensureDevCertificates, type DevCertificatePaths } from "./tpp/dev-ca.js";

export const API_BASE = "/psd2/v1";

export interface App {
  config: Config;
  store: Store;
  api: FastifyInstance;
  auth: FastifyInstance;
  certificates: DevCertificatePaths;
  /** Scheduled jobs run once across instances; stopped by close(). */
  scheduler: Scheduler;
  /** Starts both listeners; returns the URLs they are reachable at. */
  listen(): Promise<{ apiUrl: string; authUrl: string }>;
  close(): Promise<void>;
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
    readFile(certificates.serverKey), readFile(certificates.serverCert), readFile(certificates.caCert),
  ]);
  return { key, cert, ca };
}

/** Fastify's two lines per request cost throughput; the API logs one line per request itself. */
const quiet = () => new LogController({ disableRequestLogging: true });

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const clock = overrides.clock ?? systemClock;
  const logger = pino({ level: overrides.logLevel ?? config.logLevel });
  const certificates = await ensureDevCertificates(join(config.dataDir, "certs"), hostnames(config));
  const tls = await tlsMaterial(certificates);
  const store = await openStore(config);
  if (config.seedDemoData) {
    await seedDemoData({ store, clock, timeZone: config.timeZone, bic: config.bankBic, hashPassword });
  }
  const tokenKey = Buffer.from(await store.secrets.getOrCreate(store.db, "sca-token-key", newSecret()), "base64url");
  // With port 0 (tests) the auth URL is known only after listening; the links read it lazily.
  let authUrl = config.publicAuthUrl;
  const redirects = createScaRedirects({ authUrl: () => authUrl, key: tokenKey, ttlSeconds: config.scaTokenTtlSeconds, clock });
  const scaLinks: ScaLinks = redirects.links;
  const deps: Deps = {
    store, clock, scaLinks, passwords: createPasswords(),
    core: createEmbeddedLedger({ ledger: store.ledger, clock, timeZone: config.timeZone }),
    settings: {
      timeZone: config.timeZone, bankName: config.bankName, smsCodeTtlSeconds: config.smsCodeTtlSeconds,
      scaSessionIdleSeconds: config.scaSessionIdleSeconds, loginFailuresMax: config.loginFailuresMax,
      loginBlockSeconds: 15 * 60, consentValidityDaysMax: 180, frequencyPerDayMax: 4,
    },
  };
  const consents = createConsents(deps);
  const scheduler = createScheduler(deps,
    (job, error) => logger.error({ job, err: error }, "scheduled job failed"));
  const idempotency = createIdempotency(deps);
  const sandbox = config.mode === "sandbox";

  const api = Fastify({
    loggerInstance: logger.child({ listener: "api" }) as FastifyBaseLogger,
    logController: quiet(),
    requestIdHeader: "x-request-id",
    bodyLimit: config.bodyLimitBytes,
    https: { ...tls, requestCert: true, rejectUnauthorized: false, minVersion: "TLSv1.2" },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, allowUnionTypes: true } },
  });
  const registry = createTppRegistry(deps);
  installApiPlugin(api, { bodyLimit: config.bodyLimitBytes, ensureTpp: (tpp) => registry.ensure(tpp) });
  paymentRoutes(api, { base: API_BASE, payments: createPayments(deps), idempotency, allowHttpLocalhost: sandbox });
  consentRoutes(api, { base: API_BASE, consents, idempotency, allowHttpLocalhost: sandbox });
  accountRoutes(api, { base: API_BASE, accounts: createAccounts(deps, consents) });
  let draining = false;
  const ready = async () => !draining && await store.ping(2_000);
  healthRoutes(api, { ready });

  const auth = Fastify({
    loggerInstance: logger.child({ listener: "auth" }) as FastifyBaseLogger,
    logController: quiet(),
    https: { key: tls.key, cert: tls.cert, minVersion: "TLSv1.2" },
  });
  healthRoutes(auth, { ready });
  for (const server of [api, auth]) {
    // While draining, each answer closes its keep-alive connection: otherwise close() would wait
    // out the keep-alive timeout (72 s) of every client that was in flight.
    server.addHook("onSend", async (_request, reply) => {
      if (draining) reply.header("Connection", "close");
    });
  }
  scaPages(auth, {
    authorisations: createAuthorisations(deps), redirects, bankName: config.bankName, sandbox,
    hsts: !["localhost", "127.0.0.1", "[::1]"].includes(new URL(config.publicAuthUrl).hostname),
  });

  return {
    config, store, api, auth, certificates, scheduler,
    async listen() {
      await auth.listen({ host: config.host, port: config.authPort });
      await api.listen({ host: config.host, port: config.apiPort });
      const port = (server: FastifyInstance) => {
        const address = server.server.address();
        return typeof address === "object" && address ? address.port : 0;
      };
      if (config.authPort === 0) authUrl = `https://localhost:${port(auth)}`;
      const apiUrl = config.apiPort === 0 ? `https://localhost:${port(api)}` : config.publicApiUrl;
      return { apiUrl, authUrl };
    },
    async close() {
      // /ready fails first, so a load balancer stops sending while in-flight requests finish.
      draining = true;
      scheduler.stop();
      await Promise.all([api.close(), auth.close()]);
      await store.close();
    },
  };
}
