/**
 * Status pushed to the TPP (Berlin Group TPP-Notification-URI, on /v2 Client-Notification-URI):
 * the subscription a resource carries from its creation, and the outbox the status changes write
 * into, in their own transaction, so that a committed change always has its notification (at
 * least once).
 */
import type { Tx } from "../kernel/ports.js";

export type NotifiedResource = "payment" | "consent" | "signing-basket";

/**
 * What the bank notifies (ASPSP-Notification-Content): SCA and/or PROCESS, or on /v2 LAST: each
 * status change pushed lean, naming where to read the resource's last status (PUSH 2.4's
 * `_links.status`) instead of the status itself.
 */
export type NotificationContent = "SCA" | "PROCESS" | "LAST";

/**
 * The body's form: NextGenPSD2 1.3's (a resource created on /v1) or openFinance PUSH 2.4's
 * pushResourceStatus (on /v2).
 */
export type NotificationForm = "1.3" | "2.4";

export interface Subscription {
  resourceId: string;
  resourceType: NotifiedResource;
  tppId: string;
  uri: string;
  content: readonly NotificationContent[];
  form: NotificationForm;
  /** The resource's path on its interface (its self link), which a lean push links to. */
  resourcePath: string;
}

/** One status change as the outbox receives it. */
export type StatusNotice =
  | { resourceId: string; transactionStatus: string }
  | { resourceId: string; consentStatus: string }
  | { authorisationId: string; scaStatus: string };

/** A queued notification as the delivery job and the operator see it. */
export interface QueuedNotification {
  id: string;
  tppId: string;
  resourceId: string;
  uri: string;
  body: string;
  createdAt: string;
  attempts: number;
  nextAttemptAt: string;
  deliveredAt: string | null;
  failedAt: string | null;
  lastError: string | null;
}

/**
 * The most notifications one claim takes: in all, and of any one TPP counting the `busy` ones
 * (pushes of that TPP still in flight).
 */
export interface ClaimLimits { total: number; perTpp: number; busy: ReadonlyMap<string, number> }

export interface NotificationPort {
  subscribe(tx: Tx, subscription: Subscription, at: string): Promise<void>;
  /**
   * Queues a notification of each change whose resource has a subscription asking for it; no
   * subscription, nothing written. `at` is the change's time.
   */
  queue(tx: Tx, notices: readonly StatusNotice[], at: string): Promise<void>;
  /**
   * Claims the notifications due at `now` until `claimUntil`, each the earliest undelivered one
   * of its resource (in order per resource), oldest first, within `limits`. A claimed one is not
   * due for anyone else (another run, another instance) until the claim ends: after a crash, it
   * is due again.
   */
  claimDue(tx: Tx, now: string, claimUntil: string, limits: ClaimLimits):
    Promise<QueuedNotification[]>;
  delivered(tx: Tx, id: string, at: string): Promise<void>;
  /** A failed attempt: tried again at `nextAttemptAt`, or given up when that is null. */
  attemptFailed(tx: Tx, id: string, error: string, at: string, nextAttemptAt: string | null):
    Promise<void>;
  list(tx: Tx, filter: { id?: string; tppId?: string; failed?: boolean; limit: number }):
    Promise<QueuedNotification[]>;
  /** Puts a given-up notification back in the queue; false when there is none to retry. */
  retry(tx: Tx, id: string, at: string): Promise<boolean>;
  counts(tx: Tx):
    Promise<{ queued: number; delivered: number; failed: number; oldestQueuedAt: string | null }>;
}
