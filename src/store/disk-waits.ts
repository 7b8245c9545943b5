/**
 * SQLite's waits for the disk, off the event loop. With synchronous=FULL, COMMIT fsyncs the WAL
 * inside better-sqlite3's synchronous call, so every request of the process waited with it: a
 * group commit's fsync held the event loop 1.3 ms at the median, 4-7 ms at the 90th percentile
 * under load (measured on 2026-11-27). Here a commit that is answered (the group commit's) is
 * made with synchronous=NORMAL, its WAL frames written but not flushed, and the WAL is then
 * flushed with fdatasync on libuv's thread pool: the flush FULL's COMMIT makes, done while the
 * event loop reads and answers other requests. The group commit answers its callers only after
 * it, and keeps the connection until then, so that no statement of this process reads the batch
 * before it is on disk. A commit nobody waits for (the audit log's) waits for no flush of its own:
 * the next group commit's flushes it too. Another connection (a second instance, the operator's
 * CLI) may read a batch during its flush, where FULL shows a commit only once it is on disk; its
 * own commits come later in the WAL and flush the batch with theirs.
 */
import { open, type FileHandle } from "node:fs/promises";
import type Sqlite from "better-sqlite3";

export interface DiskWaits {
  /**
   * Runs `work`, whose transactions are committed without waiting for the disk: a transaction
   * must neither start before nor stay open after it (SQLite keeps the setting per transaction).
   */
  unsynced<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `work` (a bulk load) with no commit waiting for the disk, the group commit's neither. */
  withoutDisk<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Resolves once every commit made so far is on disk: at once unless the last `unsynced` work
   * ran where commits wait for the disk (not with SQLITE_SYNCHRONOUS=normal, nor in a bulk load).
   */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** PRAGMA synchronous's levels: OFF, NORMAL, and FULL, from which a commit waits for the disk. */
const OFF = 0;
const NORMAL = 1;
const FULL = 2;

export function diskWaits(file: Sqlite.Database, walPath: string): DiskWaits {
  // The connection's level is kept here, as it is only ever set here: SQLite reads and sets it
  // while preparing the PRAGMA, so a read is a prepare (8 µs), where exec sets it for 1 µs.
  let level = file.pragma("synchronous", { simple: true }) as number;
  const at = async <T>(chosen: number, work: () => Promise<T>): Promise<T> => {
    const before = level;
    file.exec(`PRAGMA synchronous = ${chosen}`);
    level = chosen;
    try {
      return await work();
    } finally {
      file.exec(`PRAGMA synchronous = ${before}`);
      level = before;
    }
  };
  let owed = false;
  let wal: Promise<FileHandle> | undefined;
  const opened = () => (wal ??= open(walPath, "r").catch((error: unknown) => {
    wal = undefined;
    throw error;
  }));
  return {
    unsynced(work) {
      if (level < FULL) return work();
      owed = true;
      return at(NORMAL, work);
    },
    withoutDisk: (work) => at(OFF, work),
    // The WAL stays the same file while the connection is open: SQLite removes it only when the
    // last connection closes, and otherwise truncates or overwrites it in place.
    async flush() {
      if (!owed) return;
      owed = false;
      await (await opened()).datasync();
    },
    close: async () => {
      const handle = wal && await wal.catch(() => undefined);
      await handle?.close();
    },
  };
}
