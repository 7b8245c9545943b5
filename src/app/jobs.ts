/**
 * The periodic jobs, each run once across instances by the one scheduler: status notifications to
 * TPPs, due payments, signing baskets a crash left held, decoupled requests past their time, the
 * consent sweep, and the pruning of retained records (hourly) and of the audit log (daily).
 */
import { readFile } from "node:fs/promises";
import type { Config } from "../config.js";
import { carryOutUnfinished } from "../domain/basket/carry-out.js";
import type { createConsents } from "../domain/consent/registration.js";
import type { Deps } from "../domain/deps.js";
import type { AuditLog } from "../domain/kernel/audit.js";
import { createPermissionHistory } from "../domain/dashboard/permissions.js";
import { createRetention } from "../domain/kernel/retention.js";
import type { Scheduler } from "../domain/kernel/scheduler.js";
import { deliverNotifications } from "../domain/notification/delivery.js";
import { executeDuePayments } from "../domain/payment/execution.js";
import { createDecoupled } from "../domain/sca/decoupled.js";
import type { Clock } from "../lib/clock.js";
import type { Store } from "../store/db.js";
import { createNotificationSender } from "../tpp/notification-sender.js";
import type { TlsMaterial } from "./tls.js";

/**
 * Pushes the outbox to the TPPs, once across instances: signed and sent with the bank's client
 * certificate (the server's unless NOTIFICATION_CLIENT_* name one); the development CA is trusted
 * in sandbox.
 */
export async function scheduleNotifications(
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

/**
 * Payments due for execution, signing baskets a crash left half carried out (the decision
 * carries them out at once), and, where the bank offers the decoupled approach, its requests
 * past their time (the app's own reads check too; the sweep fails the requests nobody looks at).
 * Returns the due-payments run and the baskets' run.
 */
export function scheduleDueWork(scheduler: Scheduler, deps: Deps, config: Config) {
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

/**
 * The hourly pruning of retained records (answers, tokens, the permission history) and the
 * consent sweep; returns the pruning.
 */
export function scheduleSweeps(
  scheduler: Scheduler, deps: Deps, config: Config, consents: ReturnType<typeof createConsents>,
) {
  // Statuses are also checked on use; the sweep keeps them right for everyone reading the store.
  scheduler.every("consent-sweep", 60_000, async () => { await consents.sweepConsents(); });
  const retention = createRetention(deps, config.idempotencyRetentionHours);
  const history = createPermissionHistory(deps, config.permissionHistoryDays);
  const prune = async () => ({ ...await retention.prune(), consents: await history.purge() });
  scheduler.every("retention-prune", 3_600_000, async () => { await prune(); });
  return { prune };
}


const DAY_MS = 86_400_000;

/**
 * The daily pruning of the audit log past AUDIT_RETENTION_DAYS and of the authorisation server's
 * expired codes, tokens and pushed requests, once across instances. Returns its start, for when
 * the bank starts listening: a first run there prunes what a stopped bank left, unless another
 * instance pruned within the day, and the job is scheduled after it.
 */
export function dailyPruning(
  scheduler: Scheduler, parts: { store: Store; audit: AuditLog; clock: Clock },
  failed: (job: string, error: unknown) => void,
): () => Promise<void> {
  const { store, audit, clock } = parts;
  const job = "audit-oauth-prune";
  const prune = async () => {
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    await Promise.all([audit.prune(), store.oauthRecords.prune(store.db, nowSeconds)]);
  };
  return async () => {
    await scheduler.runOnce(job, DAY_MS, prune).catch((error: unknown) => failed(job, error));
    // Scheduled after the first run: its lease would make a tick a day before it expire unused.
    scheduler.every(job, DAY_MS, prune);
  };
}
