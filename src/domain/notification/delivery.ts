/**
 * Delivers the outbox: each due notification is pushed to its TPP, the earliest undelivered one
 * of a resource first (order per resource), again and again with exponential backoff until the
 * TPP takes it or the retry period ends (then it waits for the operator's `notification retry`).
 * A notification counts as delivered only after the TPP answered 2xx: at least once.
 */
import type { StoreDeps } from "../deps.js";
import type { QueuedNotification } from "./ports.js";

export interface DeliverySettings {
  /** The wait after the first failure; doubled after each further one. */
  firstRetryMs: number;
  /** The longest a notification is retried after its creation. */
  retryForMs: number;
  /** The most notifications pushed at once. */
  batch: number;
  /** The most pushed at once to one TPP (NOTIFICATION_PUSHES_PER_TPP). */
  perTpp: number;
  /** How often new due notifications are claimed while pushes are in flight. */
  pollMs: number;
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

type DeliveryDeps = StoreDeps<"db" | "notifications", "clock">;

/** One push and its outcome written back; true when the TPP took it. */
async function pushOne(
  { store, clock }: DeliveryDeps, push: Push, n: QueuedNotification, settings: DeliverySettings,
): Promise<boolean> {
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
}

/** The pushes in flight of one delivery run, by notification id and by TPP. */
function inFlight(deps: DeliveryDeps, push: Push, settings: DeliverySettings) {
  const total = { delivered: 0, failed: 0 };
  const running = new Map<string, Promise<void>>();
  const busy = new Map<string, number>();
  const count = (tppId: string, by: number) => busy.set(tppId, (busy.get(tppId) ?? 0) + by);
  const start = (n: QueuedNotification) => {
    count(n.tppId, 1);
    running.set(n.id, pushOne(deps, push, n, settings).then((delivered) => {
      total[delivered ? "delivered" : "failed"] += 1;
      count(n.tppId, -1);
      running.delete(n.id);
    }));
  };
  /** Claims what is due within the free slots and starts pushing it. */
  const fill = async () => {
    const now = deps.clock.now();
    const claimUntil = new Date(now.getTime() + settings.claimMs).toISOString();
    const free = settings.batch - running.size;
    if (free === 0) return;
    const due = await deps.store.notifications.claimDue(deps.store.db, now.toISOString(),
      claimUntil, { total: free, perTpp: settings.perTpp, busy });
    due.forEach(start);
  };
  return { total, running, fill };
}

/**
 * Pushes what is due, at most `batch` at once and `perTpp` to any one TPP, until nothing is in
 * flight. It claims again when a push was delivered (more may be due, as before: while a round
 * delivers something) and every `pollMs` while pushes hang, so a slow TPP endpoint holds only
 * its own slots and never another TPP's notification. Returns the counts.
 */
export async function deliverNotifications(
  deps: DeliveryDeps, push: Push, settings: DeliverySettings,
): Promise<DeliveryRound> {
  const { total, running, fill } = inFlight(deps, push, settings);
  let claim = true;
  for (;;) {
    const deliveredBefore = total.delivered;
    if (claim) await fill();
    if (running.size === 0) return total;
    const polled = await firstOf(running.values(), settings.pollMs);
    claim = polled || total.delivered > deliveredBefore;
  }
}

/** Waits until a push ends (false) or, while pushes hang, the poll period passes (true). */
async function firstOf(pushes: Iterable<Promise<void>>, pollMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const polled = new Promise<boolean>((resolve) => { timer = setTimeout(resolve, pollMs, true); });
  const polledFirst = await Promise.race([...[...pushes].map((p) => p.then(() => false)), polled]);
  clearTimeout(timer);
  return polledFirst;
}
