/**
 * The checkpointer's thread (checkpoints.ts): copies the WAL's committed pages into the database
 * file and waits for the disk there, off the event loop. PASSIVE takes no lock a writer or reader
 * waits for: what a running transaction still needs is left for the next round.
 */
import { parentPort, workerData } from "node:worker_threads";
import Sqlite from "better-sqlite3";

const { path, intervalMs } = workerData as { path: string; intervalMs: number };
const db = new Sqlite(path, { fileMustExist: true });
// The database file is on disk before the WAL's frames are reused, as SQLite's own checkpoint does.
db.pragma("synchronous = FULL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch {
    // A busy or failing round is retried at the next; the bank's own backstop bounds the WAL.
  }
}, intervalMs);

parentPort?.once("message", () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
