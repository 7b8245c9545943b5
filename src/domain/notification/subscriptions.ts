/** A resource's subscription to pushed statuses, taken with its creation (same transaction). */
import type { StoreDeps } from "../deps.js";
import type { Tx } from "../kernel/ports.js";
import type { Subscription } from "./ports.js";

export interface NotificationSubscriptions {
  subscribe(tx: Tx, subscription: Subscription): Promise<void>;
}

export function createNotificationSubscriptions(
  { store, clock }: StoreDeps<"notifications", "clock">,
): NotificationSubscriptions {
  return {
    subscribe: (tx, subscription) =>
      store.notifications.subscribe(tx, subscription, clock.now().toISOString()),
  };
}
