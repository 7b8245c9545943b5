/**
 * SQLite's checkpoints off the event loop. By default the commit that takes the WAL past 1,000
 * pages copies them into the database file and waits for the disk: better-sqlite3 is synchronous,
 * so every request of the process waited with it, tens of milliseconds on a busy disk. A worker
 * thread checkpoints instead, on a connection of its own, after a commit at most every
 * CHECKPOINT_INTERVAL_MS (never while the bank writes nothing); the bank's connection
 * checkpoints only past BACKSTOP_PAGES, should the worker fall behind or die. Durability is the
 * WAL's, fsynced at each commit as before: a checkpoint only moves committed pages, and one cut
 * short by a crash is redone from the WAL.
 */
import { Worker } from "node:worker_threads";
import type Sqlite from "better-sqlite3";

const WORKER = new URL("./checkpoint-worker.js", import.meta.url);
/**
 * Under load a few hundred pages between checkpoints. Every 32 commits instead (thousands of pages
 * at once) did not lower the tail of commits in one trial, every 200 ms did.
 */
const CHECKPOINT_INTERVAL_MS = 200;
/** 40 MB of WAL with 4 KiB pages. */
const BACKSTOP_PAGES = 10_000;
/** The worker holds one connection: a small heap. */
const HEAP = { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 };

export interface Checkpoints {
  /** A commit was made: the worker checkpoints, unless it still is or did a moment ago. */
  committed(): void;
  close(): Promise<void>;
}

export function checkpointInBackground(file: Sqlite.Database, path: string): Checkpoints {
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(WORKER, { workerData: { path }, resourceLimits: HEAP });
  let last = -Infinity;
  let running = false;
  // A dead worker leaves the checkpoints to the backstop; nothing answered depends on it.
  worker.on("error", () => undefined).on("message", () => (running = false)).unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    committed() {
      const now = performance.now();
      if (running || now - last < CHECKPOINT_INTERVAL_MS) return;
      last = now;
      running = true;
      worker.postMessage("checkpoint");
    },
    async close() {
      // Unreferenced while it runs, but waited for here: the process keeps running until it ends.
      worker.ref();
      worker.postMessage("close");
      await exited;
    },
  };
}
