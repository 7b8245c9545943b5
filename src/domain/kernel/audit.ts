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

const BATCH_MAX = 500;

/**
 * Entries recorded while one burst of answers goes out are written together, in one statement:
 * a commit per entry cost more than the reads being audited. Each caller's promise still settles
 * once its own entry is stored (or failed to be); `written` once every entry recorded before it
 * is.
 */
function batchWrites(write: (entries: AuditEntry[]) => Promise<void>): {
  append: (entry: AuditEntry) => Promise<void>; written: () => Promise<void>;
} {
  let pending: { entry: AuditEntry; settle: (error?: unknown) => void }[] = [];
  const flushes = new Set<Promise<void>>();
  const flush = async () => {
    const batch = pending;
    pending = [];
    for (let first = 0; first < batch.length; first += BATCH_MAX) {
      const chunk = batch.slice(first, first + BATCH_MAX);
      await write(chunk.map((p) => p.entry)).then(() => chunk.forEach((p) => p.settle()),
        (error: unknown) =>
          chunk.forEach((p) => p.settle(error ?? new Error("audit write failed"))));
    }
  };
  const scheduleFlush = () => {
    const flushed = new Promise<void>((resolve) => setImmediate(() => void flush().then(resolve)));
    flushes.add(flushed);
    void flushed.then(() => flushes.delete(flushed));
  };
  return {
    append: (entry) => new Promise<void>((resolve, reject) => {
      if (pending.length === 0) scheduleFlush();
      pending.push({ entry, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    }),
    written: async () => { await Promise.all([...flushes]); },
  };
}

export function createAuditLog({ store, clock, retentionDays }: AuditDeps) {
  const { append, written } =
    batchWrites((entries) => store.writeLog((tx) => store.audit.append(tx, entries)));
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
