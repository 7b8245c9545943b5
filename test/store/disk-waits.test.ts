/**
 * SQLite's group commit waits for the disk off the event loop: the WAL is flushed on libuv's
 * thread pool, the batch's callers are answered only after it, and the connection reads nothing
 * in between. The disk is made slow by delaying Node's own fdatasync of a file handle.
 */
import assert from "node:assert/strict";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { loadConfig } from "../../src/config.js";
import { openStore, type Tx } from "../../src/store/db.js";
import { freshDatabase } from "../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";
const SLOW_DISK_MS = 150;

/** Every flush of a file handle takes SLOW_DISK_MS more while `work` runs, which sees when each ended. */
async function withSlowDisk(dataDir: string, work: (flushes: { at: number }[]) => Promise<void>) {
  const probe = await open(join(dataDir, "probe"), "w");
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const datasync = prototype.datasync;
  const flushes: { at: number }[] = [];
  prototype.datasync = async function slow(this: FileHandle) {
    await sleep(SLOW_DISK_MS);
    await datasync.call(this);
    flushes.push({ at: performance.now() });
  };
  try {
    await work(flushes);
  } finally {
    prototype.datasync = datasync;
  }
}

const insertTpp = (tx: Tx, id: string) =>
  tx.insertInto("tpps").values({ id, name: id, blocked: 0, created_at: AT }).execute();

test("a group commit is answered after its WAL is flushed, and the event loop runs meanwhile", async () => {
  const database = await freshDatabase("sqlite");
  const store = await openStore(loadConfig({ DATA_DIR: database.dataDir }));
  try {
    await withSlowDisk(database.dataDir, async (flushes) => {
      let ticks = 0;
      const ticking = setInterval(() => (ticks += 1), 10);
      const started = performance.now();
      const answered = await Promise.all(["PSDDE-BAFIN-771001", "PSDDE-BAFIN-771002"].map((id) =>
        store.transaction((tx) => insertTpp(tx, id)).then(() => performance.now())));
      clearInterval(ticking);
      assert.equal(flushes.length, 1, "one flush for the batch");
      for (const at of answered) assert.ok(at >= flushes[0]!.at, "answered after the flush");
      assert.ok(answered[0]! - started >= SLOW_DISK_MS - 5);
      assert.ok(ticks >= 5, `timers ran while the disk was slow (${ticks})`);
    });
  } finally {
    await store.close();
    await database.remove();
  }
});

test("a read of the store waits for the flush of a batch committed before it", async () => {
  const database = await freshDatabase("sqlite");
  const store = await openStore(loadConfig({ DATA_DIR: database.dataDir }));
  try {
    await withSlowDisk(database.dataDir, async (flushes) => {
      const id = "PSDDE-BAFIN-771003";
      const written = store.transaction((tx) => insertTpp(tx, id));
      await sleep(SLOW_DISK_MS / 3);
      const read = await store.db.selectFrom("tpps").select("id").where("id", "=", id)
        .executeTakeFirst().then((row) => ({ row, at: performance.now() }));
      await written;
      assert.equal(flushes.length, 1);
      assert.ok(read.at >= flushes[0]!.at, "the read answered after the flush");
      assert.equal(read.row?.id, id);
    });
  } finally {
    await store.close();
    await database.remove();
  }
});

test("with SQLITE_SYNCHRONOUS=normal a commit waits for no flush", async () => {
  const database = await freshDatabase("sqlite");
  const store = await openStore(loadConfig({ DATA_DIR: database.dataDir, SQLITE_SYNCHRONOUS: "normal" }));
  try {
    await withSlowDisk(database.dataDir, async (flushes) => {
      await store.transaction((tx) => insertTpp(tx, "PSDDE-BAFIN-771004"));
      assert.equal(flushes.length, 0);
    });
  } finally {
    await store.close();
    await database.remove();
  }
});
