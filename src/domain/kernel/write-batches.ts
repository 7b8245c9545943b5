/**
 * Writes made while one burst of answers goes out, gathered into one: a commit per item cost more
 * than the reads that make them (the audit log's entries, the delta lists' marks). Each caller's
 * promise still settles once its own item is stored (or failed to be); `written` once every item
 * appended before it is.
 */

/** Items of one write at most: a statement's parameters stay well within SQLite's limit. */
const BATCH_MAX = 500;

export interface WriteBatches<T> {
  append(item: T): Promise<void>;
  written(): Promise<void>;
}

export function batchWrites<T>(write: (items: T[]) => Promise<void>): WriteBatches<T> {
  let pending: { item: T; settle: (error?: unknown) => void }[] = [];
  const flushes = new Set<Promise<void>>();
  const flush = async () => {
    const batch = pending;
    pending = [];
    for (let first = 0; first < batch.length; first += BATCH_MAX) {
      const chunk = batch.slice(first, first + BATCH_MAX);
      await write(chunk.map((p) => p.item)).then(() => chunk.forEach((p) => p.settle()),
        (error: unknown) =>
          chunk.forEach((p) => p.settle(error ?? new Error("batched write failed"))));
    }
  };
  const scheduleFlush = () => {
    const flushed = new Promise<void>((resolve) => setImmediate(() => void flush().then(resolve)));
    flushes.add(flushed);
    void flushed.then(() => flushes.delete(flushed));
  };
  return {
    append: (item) => new Promise<void>((resolve, reject) => {
      if (pending.length === 0) scheduleFlush();
      pending.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    }),
    written: async () => { await Promise.all([...flushes]); },
  };
}
