/** The operator's view of pushed notifications: what is queued or failed, and a second chance. */
import type { StoreDeps } from "../deps.js";
import { OperatorError } from "../kernel/errors.js";
import type { QueuedNotification } from "./ports.js";

export interface NotificationAdministration {
  list(filter: { tppId?: string; failed?: boolean; limit?: number }):
    Promise<QueuedNotification[]>;
  /** Queues a given-up notification again, due now. */
  retry(id: string): Promise<QueuedNotification>;
}

const DEFAULT_LIMIT = 100;

export function createNotificationAdministration(
  { store, clock }: StoreDeps<"db" | "notifications", "clock">,
): NotificationAdministration {
  return {
    list: ({ limit = DEFAULT_LIMIT, ...filter }) => {
      if (!Number.isInteger(limit) || limit < 1) {
        throw new OperatorError("--limit must be a whole number of at least 1");
      }
      return store.notifications.list(store.db, { ...filter, limit });
    },
    async retry(id) {
      const retried = await store.notifications.retry(store.db, id, clock.now().toISOString());
      const [row] = await store.notifications.list(store.db, { id, limit: 1 });
      if (!row) throw new OperatorError(`no notification ${id}`);
      if (!retried) {
        throw new OperatorError(`notification ${id} has not failed`
          + (row.deliveredAt ? ` (delivered at ${row.deliveredAt})` : " (it is still queued)"));
      }
      return row;
    },
  };
}
