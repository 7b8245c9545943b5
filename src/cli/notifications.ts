/** `psd2-bank notification ...`: the statuses pushed to TPPs, as the operator follows them. */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import type { QueuedNotification } from "../domain/notification/ports.js";
import { OperatorError } from "../domain/kernel/errors.js";
import { print, required, table, usageEntry } from "./output.js";

export const NOTIFICATION_USAGE = [
  usageEntry("notification list [--tpp ID] [--failed] [--limit N]",
    "status notifications pushed to TPPs, newest first (default limit 100)"),
  usageEntry("notification retry ID",
    "queues a notification that failed (retry period over) again"),
].join("\n");

function state(n: QueuedNotification): string {
  if (n.deliveredAt) return `delivered ${n.deliveredAt}`;
  if (n.failedAt) return `FAILED ${n.failedAt}`;
  return `queued, next ${n.nextAttemptAt}`;
}

function status(n: QueuedNotification): string {
  const body = JSON.parse(n.body) as Record<string, string | undefined>;
  return body.transactionStatus ?? body.consentStatus ?? `sca ${body.scaStatus ?? "?"}`;
}

function listed(rows: QueuedNotification[]): string {
  return table(["id", "tpp", "resource", "status", "created", "attempts", "state", "last error"],
    rows.map((n) => [n.id, n.tppId, n.resourceId, status(n), n.createdAt, String(n.attempts),
      state(n), n.lastError ?? ""]));
}

export async function notificationCommand(admin: Administration, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: {
      json: { type: "boolean" }, tpp: { type: "string" }, failed: { type: "boolean" },
      limit: { type: "string" },
    },
  });
  const [action, id] = positionals;
  if (action === "list") {
    const rows = await admin.notifications.list({ tppId: values.tpp, failed: values.failed,
      limit: values.limit === undefined ? undefined : Number(values.limit) });
    return print(values.json, rows, () => listed(rows));
  }
  if (action === "retry") {
    const row = await admin.notifications.retry(required(id, "the notification's id"));
    return print(values.json, row, () => `notification ${row.id} queued again.\n`);
  }
  throw new OperatorError(`notification needs one of: list, retry\n${NOTIFICATION_USAGE}`);
}
