/**
 * PostgreSQL's shared reads: a read costs a round trip, and concurrent requests ask for the same
 * rows (their TPP's stop-list entry, a consent used by many) or rows of one kind (the payments,
 * consents and accounts of many customers). Reads asked for in one turn of the event loop are
 * sent on the next turn: the same read once, and the reads of one kind for distinct keys as one
 * statement (`= any($1)`). Every request that shares the answer had arrived before its statement
 * was sent, so the answer holds every change committed before the request came (a block or a
 * revocation counts from the next request, on every instance), as a read of its own would.
 */
import type { Batch, ManyRead, ReadCache } from "./cached-reads.js";
import type { Tx } from "./handle.js";

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The rows are shared by several requests (a Map's entries are no properties to freeze). */
function freezeRows<R>(rows: Map<string, R>): Map<string, R> {
  for (const row of rows.values()) deepFreeze(row);
  return rows;
}

const nextTurn = () => new Promise<void>((next) => setImmediate(next));

/** The keys of one kind asked for in this turn, and the one read that answers them all. */
interface Pending { keys: Set<string>; rows: Promise<Map<string, unknown>> }

export function createCoalescedReads(db: Tx): ReadCache {
  let waiting = new Map<string, Promise<unknown>>();
  const pending = new Map<ManyRead<unknown>, Pending>();
  const batched = <R>(many: ManyRead<R>, key: string): Promise<R | undefined> => {
    let batch = pending.get(many as ManyRead<unknown>);
    if (!batch) {
      const keys = new Set<string>();
      // Taken off at the send: a key asked for after it waits for the next statement.
      const rows = nextTurn().then(() => {
        pending.delete(many as ManyRead<unknown>);
        return many(db, [...keys]);
      }).then(freezeRows);
      batch = { keys, rows };
      pending.set(many as ManyRead<unknown>, batch);
    }
    batch.keys.add(key);
    return batch.rows.then((rows) => rows.get(key) as R | undefined);
  };
  return <T, R>(tx: Tx, key: string, read: () => Promise<T>, batch?: Batch<R, T>): Promise<T> => {
    if (tx !== db) return read();
    if (batch) return batched(batch.many, batch.key).then(batch.pick);
    let answer = waiting.get(key);
    if (!answer) {
      // Scheduled before the reads of this turn, so it runs before any of them is sent.
      if (waiting.size === 0) setImmediate(() => (waiting = new Map()));
      answer = nextTurn().then(read).then(deepFreeze);
      waiting.set(key, answer);
    }
    return answer as Promise<T>;
  };
}
