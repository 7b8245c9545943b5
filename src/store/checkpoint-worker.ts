/**
 * The checkpointer's thread (checkpoints.ts): copies the WAL's committed pages into the database
 * file and waits for the disk there, off the event loop, each time the bank asks. PASSIVE takes
 * no lock a writer or reader waits for: what a running transaction still needs is left for the
 * next time.
 */
import { parentPort, workerData } from "node:worker_threads";
import Sqlite from "better-sqlite3";

const { path } = workerData as { path: string };
const db = new Sqlite(path, { fileMustExist: true });
// The database file is on disk before the WAL's frames are reused, as SQLite's own checkpoint does.
db.pragma("synchronous = FULL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

parentPort?.on("message", (message: "checkpoint" | "close") => {
  if (message === "close") {
    db.close();
    parentPort?.close();
    return;
  }
  try {
    checkpoint.run();
  } catch {
    // A failed checkpoint is retried at the next request; the bank's own backstop bounds the WAL.
  }
  parentPort?.postMessage("done");
});
