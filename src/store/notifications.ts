/**
 * Subscriptions and the notification outbox (domain/notification/ports.ts). A notification is
 * queued in the caller's transaction, numbered within its resource so delivery keeps the order,
 * its body in its subscription's form (notification-bodies.ts).
 */
import { sql, type Selectable } from "kysely";
import type {
  ClaimLimits, NotificationContent, NotificationForm, NotificationPort, NotifiedResource,
  QueuedNotification, StatusNotice,
} from "../domain/notification/ports.js";
import { newTimeOrderedUuid } from "../lib/ids.js";
import type { OnStore, Tx } from "./handle.js";
import { pushBody, type PushedChange, type PushTarget } from "./notification-bodies.js";
import type { NotificationTable } from "./schema.js";

interface Target extends PushTarget { tppId: string; uri: string }

function toQueued(row: Selectable<NotificationTable>): QueuedNotification {
  return {
    id: row.id, tppId: row.tpp_id, resourceId: row.resource_id, uri: row.uri, body: row.body,
    createdAt: row.created_at, attempts: Number(row.attempts), nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at, failedAt: row.failed_at, lastError: row.last_error,
  };
}

/** LAST is PROCESS pushed lean: it wants every status change too. */
const wants = (target: Target, content: NotificationContent) =>
  target.content.split(",").some((c) => c === content || (content === "PROCESS" && c === "LAST"));

async function targetsOf(tx: Tx, resourceIds: string[]): Promise<Map<string, Target>> {
  if (resourceIds.length === 0) return new Map();
  const rows = await tx.selectFrom("notification_subscriptions").selectAll()
    .where("resource_id", "in", resourceIds).execute();
  return new Map(rows.map((r) => [r.resource_id, {
    resourceId: r.resource_id, resourceType: r.resource_type as NotifiedResource,
    tppId: r.tpp_id, uri: r.uri, content: r.content, form: r.form as NotificationForm,
    resourcePath: r.resource_path,
  }]));
}

/**
 * The subscribed resource of each authorisation named, by authorisation id, and whether the
 * authorisation is a payment's cancellation.
 */
async function authorisationTargets(tx: Tx, ids: string[]):
  Promise<Map<string, { target: Target; cancellation: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.selectFrom("authorisations")
    .select(["id", "resource_id", "resource_type"]).where("id", "in", ids).execute();
  const targets = await targetsOf(tx, [...new Set(rows.map((r) => r.resource_id))]);
  const out = new Map<string, { target: Target; cancellation: boolean }>();
  for (const row of rows) {
    const target = targets.get(row.resource_id);
    const cancellation = row.resource_type === "payment-cancellation";
    if (target) out.set(row.id, { target, cancellation });
  }
  return out;
}

async function insert(tx: Tx, target: Target, change: PushedChange, at: string) {
  const last = await tx.selectFrom("notifications")
    .select((eb) => eb.fn.max("position").as("position"))
    .where("resource_id", "=", target.resourceId).executeTakeFirst();
  const id = newTimeOrderedUuid();
  const body = pushBody(target, change, id, at);
  await tx.insertInto("notifications").values({
    id, resource_id: target.resourceId, position: Number(last?.position ?? 0) + 1,
    tpp_id: target.tppId, uri: target.uri, body, created_at: at, next_attempt_at: at,
  }).execute();
}

async function queue(tx: Tx, notices: readonly StatusNotice[], at: string): Promise<void> {
  const resources = await targetsOf(tx, notices.flatMap((n) =>
    "resourceId" in n ? [n.resourceId] : []));
  const authorisations = await authorisationTargets(tx, notices.flatMap((n) =>
    "authorisationId" in n ? [n.authorisationId] : []));
  for (const notice of notices) {
    if ("authorisationId" in notice) {
      const found = authorisations.get(notice.authorisationId);
      if (found && wants(found.target, "SCA")) {
        await insert(tx, found.target, { ...notice, cancellation: found.cancellation }, at);
      }
    } else {
      const target = resources.get(notice.resourceId);
      const { resourceId: _id, ...status } = notice;
      if (target && wants(target, "PROCESS")) await insert(tx, target, status, at);
    }
  }
}

/**
 * The earliest undelivered notification of each resource, when it is due at `now`, at most
 * `perTpp` of each TPP: a TPP with thousands due cannot fill the claim and starve the others.
 */
function due(tx: Tx, now: string, { total, perTpp }: ClaimLimits) {
  const ranked = tx.selectFrom("notifications as n").selectAll("n")
    .select(sql<number>`row_number() over (partition by n.tpp_id order by n.created_at, n.id)`
      .as("rank"))
    .where("n.delivered_at", "is", null).where("n.failed_at", "is", null)
    .where("n.next_attempt_at", "<=", now)
    // Only the first undelivered of its resource: a later one waits for it (order).
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("notifications as e")
      .select("e.id").whereRef("e.resource_id", "=", "n.resource_id")
      .whereRef("e.position", "<", "n.position").where("e.delivered_at", "is", null)
      .where("e.failed_at", "is", null))));
  return tx.selectFrom(ranked.as("r")).selectAll("r").where("r.rank", "<=", perTpp)
    .orderBy("r.created_at").orderBy("r.id").limit(total).execute();
}

export const notificationRepository: OnStore<NotificationPort> = {
  async subscribe(tx, s, at) {
    await tx.insertInto("notification_subscriptions").values({
      resource_id: s.resourceId, resource_type: s.resourceType, tpp_id: s.tppId, uri: s.uri,
      content: s.content.join(","), created_at: at, form: s.form, resource_path: s.resourcePath,
    }).execute();
  },

  queue,

  async claimDue(tx, now, claimUntil, limits) {
    const claimed: QueuedNotification[] = [];
    const taken = new Map(limits.busy);
    for (const row of await due(tx, now, limits)) {
      const tppTaken = taken.get(row.tpp_id) ?? 0;
      if (tppTaken >= limits.perTpp) continue;
      // Compare-and-set: a concurrent run that claimed it first leaves it alone here.
      const result = await tx.updateTable("notifications").set({ next_attempt_at: claimUntil })
        .where("id", "=", row.id).where("next_attempt_at", "=", row.next_attempt_at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      claimed.push(toQueued(row));
      taken.set(row.tpp_id, tppTaken + 1);
    }
    return claimed;
  },

  async delivered(tx, id, at) {
    await tx.updateTable("notifications").set({ delivered_at: at, last_error: null })
      .where("id", "=", id).execute();
  },

  async attemptFailed(tx, id, error, at, nextAttemptAt) {
    await tx.updateTable("notifications")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1), last_error: error.slice(0, 500),
        next_attempt_at: nextAttemptAt ?? at, failed_at: nextAttemptAt === null ? at : null,
      }))
      .where("id", "=", id).execute();
  },

  async list(tx, { id, tppId, failed, limit }) {
    let query = tx.selectFrom("notifications").selectAll();
    if (id !== undefined) query = query.where("id", "=", id);
    if (tppId !== undefined) query = query.where("tpp_id", "=", tppId);
    if (failed) query = query.where("failed_at", "is not", null);
    // Several statuses of one change share its time: their position orders them, not the id.
    const rows = await query.orderBy("created_at", "desc").orderBy("position", "desc")
      .orderBy("id", "desc").limit(limit).execute();
    return rows.map(toQueued);
  },

  async retry(tx, id, at) {
    const result = await tx.updateTable("notifications")
      .set({ failed_at: null, next_attempt_at: at, attempts: 0 })
      .where("id", "=", id).where("failed_at", "is not", null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async counts(tx) {
    const row = await tx.selectFrom("notifications").select((eb) => [
      eb.fn.countAll().filterWhere("delivered_at", "is not", null).as("delivered"),
      eb.fn.countAll().filterWhere("failed_at", "is not", null).as("failed"),
      eb.fn.countAll().filterWhere((w) => w.and([w("delivered_at", "is", null),
        w("failed_at", "is", null)])).as("queued"),
      eb.fn.min("created_at").filterWhere((w) => w.and([w("delivered_at", "is", null),
        w("failed_at", "is", null)])).as("oldest"),
    ]).executeTakeFirstOrThrow();
    return {
      delivered: Number(row.delivered), failed: Number(row.failed), queued: Number(row.queued),
      oldestQueuedAt: (row.oldest as string | null) ?? null,
    };
  },
};
