/**
 * SQLite's checkpoints off the event loop. By default the commit that takes the WAL past 1,000
 * pages copies them into the database file and waits for the disk: better-sqlite3 is synchronous,
 * so every request of the process waited with it, tens of milliseconds on a busy disk. A worker
 * thread checkpoints instead, on a connection of its own, after a commit at most every
 * CHECKPOINT_INTERVAL_MS (never while the bank writes nothing); the bank's connection
 * checkpoints only past BACKSTOP_PAGES, should the worker fall behind or die. Durability is the
 * WAL's, fsynced at each commit as before: a checkpoint only moves committed pages, and one cut
 * short by a crash is redone from the WAL.
 *
 * SQLite starts the WAL over only at a write that finds every frame copied, which under
 * continuous writes a checkpoint beside them never leaves: the WAL grew to the backstop, and the
 * commit that passed it checkpointed on the event loop (34-66 ms every 230 ms under load, the
 * creations' p99). So each checkpoint is followed, at the next commit, by a second one while the
 * bank's connection is held (the event loop goes on, the statements wait): it copies only what
 * was written during the first, and the next write starts the WAL over. Creation alone, in turns
 * (2026-11-29): p99 25-31 / 29-35 ms on one / 1,000 accounts against 40-44 / 57-62, the same CPU.
 */
import { Worker } from "node:worker_threads";
import type Sqlite from "better-sqlite3";
import type { CheckpointMessage } from "./checkpoint-worker.js";

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
  /**
   * A commit was made, and the connection is still held: the worker checkpoints, unless it still
   * is or did a moment ago. A promise when the connection is to stay held until the worker has
   * copied what is left.
   */
  committed(): Promise<void> | undefined;
  /**
   * Ends the hold if the worker has finished, without waiting for its message: the event loop
   * reads that only after the turn under way, which lasts up to 10-20 ms under load.
   */
  poll(): void;
  close(): Promise<void>;
}

export function checkpointInBackground(file: Sqlite.Database, path: string): Checkpoints {
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  /** Checkpoints the worker has ended, counted by the worker. */
  const ended = new Int32Array(new SharedArrayBuffer(4));
  let asked = 0;
  const worker = new Worker(WORKER, { workerData: { path, ended }, resourceLimits: HEAP });
  let last = -Infinity;
  /** Ends the wait for the checkpoint under way; none is under way without it. */
  let settle: (() => void) | undefined;
  /** A checkpoint ended since the last commit: the WAL holds what was written during it. */
  let leftBehind = false;
  let alive = true;
  let closing = false;
  // A message may come after its checkpoint was seen ended by `poll` and the next one asked for.
  const poll = () => {
    if (Atomics.load(ended, 0) >= asked) settle?.();
  };
  worker.on("error", () => undefined).on("message", poll).unref();
  // A dead worker leaves the checkpoints to the backstop, and the connection is not held for it.
  const exited = new Promise<void>((resolve) => worker.once("exit", () => {
    alive = false;
    settle?.();
    resolve();
  }));
  // Referenced while it runs: a start's seeding may wait for it with nothing else to keep the
  // process alive.
  const checkpoint = (message: CheckpointMessage) => new Promise<void>((resolve) => {
    settle = resolve;
    asked += 1;
    worker.ref();
    worker.postMessage(message);
  }).finally(() => {
    // Not once closing: Node counts no references, and the process would end before the worker.
    if (!closing) worker.unref();
    settle = undefined;
  });
  return {
    committed() {
      if (settle || !alive) return undefined;
      if (leftBehind) {
        leftBehind = false;
        return checkpoint("finish");
      }
      const now = performance.now();
      if (now - last < CHECKPOINT_INTERVAL_MS) return undefined;
      last = now;
      void checkpoint("copy").then(() => (leftBehind = true));
      return undefined;
    },
    poll,
    async close() {
      // Unreferenced while it runs, but waited for here: the process keeps running until it ends.
      closing = true;
      worker.ref();
      worker.postMessage("close");
      await exited;
    },
  };
}
