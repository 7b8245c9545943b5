/**
 * Writes asked for while one burst of answers goes out, done together: a commit each cost more
 * than the reads that asked for them (the audit log's entries, the deltaList marks). Each
 * caller's promise still settles once its own item is stored (or failed to be).
 */
const BATCH_MAX = 500;

export function batchWrites<T>(
  write: (items: T[]) => Promise<void>,
): (item: T) => Promise<void> {
  let pending: { item: T; settle: (error?: unknown) => void }[] = [];
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
  return (item) => new Promise<void>((resolve, reject) => {
    if (pending.length === 0) setImmediate(() => void flush());
    pending.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
  });
}
