/**
 * The audit log of the TPP API: who asked what, about which resource, and what the bank answered.
 * Never bodies, so no credential or personal data beyond the PSU's IP address is kept; entries
 * older than the retention period are pruned.
 */
import type { Clock } from "../../lib/clock.js";
import { newTimeOrderedUuid } from "../../lib/ids.js";
import type { AuditEntry, AuditQuery } from "./ports.js";
import type { StorePort as Store } from "../deps.js";
import { OperatorError } from "./errors.js";
import { batchWrites } from "./write-batches.js";

export interface AuditDeps { store: Store; clock: Clock; retentionDays: number }

export type AuditRecord = Omit<AuditEntry, "id" | "at">;

export interface AuditFilter { tppId?: string; resourceId?: string; requestId?: string;
  since?: string; until?: string; limit?: number }

const LIMIT_MAX = 10_000;

function instant(text: string | undefined, field: string): string | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) {
    throw new OperatorError(`${field} must be a date or an ISO 8601 time, got "${text}".`, field);
  }
  return new Date(time).toISOString();
}

export function createAuditLog({ store, clock, retentionDays }: AuditDeps) {
  const { append, written } =
    batchWrites<AuditEntry>((entries) => store.writeLog((tx) => store.audit.append(tx, entries)));
  return {
    /** Settles once every entry recorded so far is stored or failed to be. */
    written,

    record(entry: AuditRecord): Promise<void> {
      return append({ ...entry, id: newTimeOrderedUuid(), at: clock.now().toISOString() });
    },

    async query(filter: AuditFilter): Promise<AuditEntry[]> {
      const limit = filter.limit ?? 100;
      if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) {
        throw new OperatorError(`limit must be between 1 and ${LIMIT_MAX}.`, "limit");
      }
      const query: AuditQuery = {
        tppId: filter.tppId, resourceId: filter.resourceId, requestId: filter.requestId,
        since: instant(filter.since, "since"), until: instant(filter.until, "until"), limit,
      };
      return store.audit.query(store.db, query);
    },

    /** Deletes what is older than the retention period; answers how many entries went. */
    async prune(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - retentionDays * 86_400_000).toISOString();
      return store.audit.pruneBefore(store.db, cutoff);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
