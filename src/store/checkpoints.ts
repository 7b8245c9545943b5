/**
 * SQLite's checkpoints off the event loop. By default the commit that takes the WAL past 1,000
 * pages copies them into the database file and waits for the disk: better-sqlite3 is synchronous,
 * so every request of the process waited with it, tens of milliseconds on a busy disk, the slowest
 * answers of a burst of creations. A worker thread checkpoints instead, on a connection of its
 * own, every CHECKPOINT_INTERVAL_MS; the bank's connection checkpoints only past
 * BACKSTOP_PAGES, should the worker fall behind or die. Durability is the WAL's, fsynced at each
 * commit as before: a checkpoint only moves committed pages, and one cut short by a crash is
 * redone from the WAL.
 */
import { Worker } from "node:worker_threads";
import type Sqlite from "better-sqlite3";

const WORKER = new URL("./checkpoint-worker.js", import.meta.url);
const CHECKPOINT_INTERVAL_MS = 200;
/** 40 MB of WAL with 4 KiB pages. */
const BACKSTOP_PAGES = 10_000;
/** The worker holds one connection and a timer: a small heap. */
const HEAP = { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 };

export interface Checkpoints { close(): Promise<void> }

export function checkpointInBackground(file: Sqlite.Database, path: string): Checkpoints {
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(WORKER, {
    workerData: { path, intervalMs: CHECKPOINT_INTERVAL_MS }, resourceLimits: HEAP,
  });
  // A dead worker leaves the checkpoints to the backstop; nothing answered depends on it.
  worker.on("error", () => undefined).unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async close() {
      // Unreferenced while it runs, but waited for here: the process keeps running until it ends.
      worker.ref();
      worker.postMessage("close");
      await exited;
    },
  };
}
