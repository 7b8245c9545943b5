/**
 * The composition root: opens the store, picks the core banking system, builds the use cases,
 * the three listeners and the periodic jobs. A bank's own core replaces the embedded ledger in
 * core-banking.ts, its Verification of Payee scheme in deps.ts.
 */
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { healthRoutes } from "../api/health.js";
import type { Config } from "../config.js";
import { createConsents } from "../domain/consent/registration.js";
import { createAuditLog } from "../domain/kernel/audit.js";
import { createScheduler, type Scheduler } from "../domain/kernel/scheduler.js";
import { systemClock, type Clock } from "../lib/clock.js";
import { newSecret } from "../lib/ids.js";
import { createScaRedirects } from "../sca/redirect.js";
import type { Store } from "../store/db.js";
import type { DevCertificatePaths } from "../tpp/dev-ca.js";
import { apiRoutes } from "./api-routes.js";
import { appDeps, vopScheme } from "./deps.js";
import {
  dailyPruning, scheduleDueWork, scheduleNotifications, scheduleSweeps,
} from "./jobs.js";
import {
  adminListener, announceArrivals, apiListener, authListener, boundPort, connectionLimits,
  limitConnections, listenAll,
} from "./listeners.js";
import { measureInterfaces } from "./interface-statistics.js";
import { oauthServer } from "./oauth.js";
import { psuPages } from "./psu-pages.js";
import { openStartingStore } from "./seeding.js";
import { tlsFor } from "./tls.js";

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
  /** Executes the due future-dated payments now; the scheduler does it every minute. */
  executeDuePayments(): Promise<number>;
  /**
   * Carries out the items of decided signing baskets that a crash left held; the scheduler does
   * it every minute. Returns how many baskets it finished.
   */
  carryOutBaskets(): Promise<number>;
  /**
   * Prunes idempotency answers past IDEMPOTENCY_RETENTION_HOURS, used redirect tokens past
   * their expiry and consents ended before PERMISSION_HISTORY_DAYS now; the scheduler does it
   * every hour.
   */
  pruneRetained(): Promise<{ idempotency: number; tokens: number; consents: number }>;
  /** Pushes the due status notifications now (the scheduler does it every NOTIFICATION_POLL_MS). */
  deliverNotifications(): Promise<unknown>;
  /**
   * Adds this instance's interface statistics to the database now (the scheduler does it every
   * 10 s, and close() once more).
   */
  flushStatistics(): Promise<void>;
  /** Settles once the audit entries of every request answered so far are stored (close() waits). */
  auditWritten(): Promise<void>;
  /** The OpenAPI document served at {API_BASE}/openapi.json, without a request. */
  openApiDocument(): object;
}

export interface AppOverrides { clock?: Clock; logLevel?: string }

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const clock = overrides.clock ?? systemClock;
  const logger = pino({ level: overrides.logLevel ?? config.logLevel });
  const { certificates, tls } = await tlsFor(config);
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
  const jobFailed = (job: string, error: unknown) =>
    logger.error({ job, err: error }, "scheduled job failed");
  const scheduler = createScheduler(deps, jobFailed);
  const retention = scheduleSweeps(scheduler, deps, config, consents);

  const limits = connectionLimits(config);
  const api = apiListener(config, logger, tls, limits);
  const auth = authListener(config, logger, tls, limits);
  const statistics = measureInterfaces(deps, scheduler, { api, auth });
  const audit = createAuditLog({ store, clock, retentionDays: config.auditRetentionDays });
  const oauth = await oauthServer(config, store, deps, { auth: () => authUrl, api: () => apiUrl });
  const openApiDocument = apiRoutes(api, config, { deps, consents, scheduler, audit, oauth,
    trustedCas: tls.ca.map((pem) => pem.toString()), linkKey: tokenKey, apiUrl: () => apiUrl });
  let draining = false;
  const ready = async () => !draining && await store.ping(2_000);
  healthRoutes(api, { ready });

  healthRoutes(auth, { ready });
  limitConnections(config, [api, auth], () => draining);
  await psuPages(auth, config, deps, redirects, oauth && { server: oauth, authUrl: () => authUrl });

  const deliverNotificationsNow = await scheduleNotifications(config, tls, deps, scheduler,
    () => [api, auth, admin].map(boundPort));
  const { executeDue, carryOutBaskets } = scheduleDueWork(scheduler, deps, config);

  const admin = adminListener(logger, store, { api, auth }, ready);
  announceArrivals(store, [api, auth, admin]);
  const startPruning = dailyPruning(scheduler, { store, audit, clock }, jobFailed);
  const app: App = {
    config, store, api, auth, admin, certificates, scheduler, openApiDocument,
    executeDuePayments: executeDue, carryOutBaskets, pruneRetained: retention.prune,
    deliverNotifications: deliverNotificationsNow, flushStatistics: () => statistics.flush(),
    auditWritten: () => audit.written(),
    async listen() {
      await startPruning();
      const ports = await listenAll(config, { api, auth, admin }, () => app.close());
      if (config.authPort === 0) authUrl = `https://localhost:${ports.auth}`;
      if (config.apiPort === 0) apiUrl = `https://localhost:${ports.api}`;
      return { apiUrl, authUrl, adminUrl: `http://${config.adminHost}:${ports.admin}` };
    },
    async close() {
      // /ready fails first, so a load balancer stops sending while in-flight requests finish.
      draining = true;
      scheduler.stop();
      // The admin listener goes last, so its /ready reports the draining until the end. The
      // answered requests' audit entries may still be on their way to the log.
      await Promise.all([api.close(), auth.close()]).then(() => audit.written());
      // The last figures of this instance, so a restart loses none of them.
      await statistics.flush().catch((error: unknown) => jobFailed("interface-statistics", error));
      await admin.close();
      await store.close();
    },
  };
  return app;
}
