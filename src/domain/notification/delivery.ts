/**
 * Delivers the outbox: each due notification is pushed to its TPP, the earliest undelivered one
 * of a resource first (order per resource), again and again with exponential backoff until the
 * TPP takes it or the retry period ends (then it waits for the operator's `notification retry`).
 * A notification counts as delivered only after the TPP answered 2xx: at least once.
 */
import type { Deps } from "../deps.js";
import type { QueuedNotification } from "./ports.js";

export interface DeliverySettings {
  /** The wait after the first failure; doubled after each further one. */
  firstRetryMs: number;
  /** The longest a notification is retried after its creation. */
  retryForMs: number;
  /** The most notifications pushed at once in one round. */
  batch: number;
  /**
   * How long a push in flight keeps its notification from other runs: longer than a push may
   * take. After a crash mid-push, the notification is pushed again once this has passed.
   */
  claimMs: number;
}

export type Push = (notification: QueuedNotification) => Promise<void>;

/** When to try again after the attempt number `attempts` failed at `now`; null: give up. */
export function nextAttempt(
  n: Pick<QueuedNotification, "attempts" | "createdAt">, now: Date, settings: DeliverySettings,
): string | null {
  const wait = settings.firstRetryMs * 2 ** Math.min(n.attempts, 30);
  const next = now.getTime() + wait;
  const end = Date.parse(n.createdAt) + settings.retryForMs;
  if (now.getTime() >= end) return null;
  return new Date(Math.min(next, end)).toISOString();
}

export interface DeliveryRound { delivered: number; failed: number }

/** Pushes what is due, round after round while a round delivers something; returns the counts. */
export async function deliverNotifications(
  { store, clock }: Pick<Deps, "store" | "clock">, push: Push, settings: DeliverySettings,
): Promise<DeliveryRound> {
  const total = { delivered: 0, failed: 0 };
  for (;;) {
    const now = clock.now();
    const claimUntil = new Date(now.getTime() + settings.claimMs).toISOString();
    const due = await store.notifications.claimDue(store.db, now.toISOString(), claimUntil,
      settings.batch);
    const outcomes = await Promise.all(due.map(async (n) => {
      try {
        await push(n);
        await store.notifications.delivered(store.db, n.id, clock.now().toISOString());
        return true;
      } catch (error) {
        const now = clock.now();
        const reason = error instanceof Error ? error.message : String(error);
        await store.notifications.attemptFailed(store.db, n.id, reason, now.toISOString(),
          nextAttempt(n, now, settings));
        return false;
      }
    }));
    const delivered = outcomes.filter(Boolean).length;
    total.delivered += delivered;
    total.failed += outcomes.length - delivered;
    if (delivered === 0) return total;
  }
}
