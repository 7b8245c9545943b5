/**
 * SQLite's checkpoints in a server: on a thread of their own, so that no request waits while a
 * commit copies the WAL into the database file; the bank's connection checkpoints only as a
 * backstop. What is committed stays committed, whoever checkpoints.
 */
import assert from "node:assert/strict";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { sql } from "kysely";
import { loadConfig } from "../../src/config.js";
import { openStore, sqliteFile, type Store } from "../../src/store/db.js";
import { freshDatabase } from "../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";

async function withServerStore(work: (store: Store, file: string) => Promise<void>): Promise<void> {
  const database = await freshDatabase("sqlite");
  const store = await openStore({ ...loadConfig({ DATA_DIR: database.dataDir }), backgroundCheckpoints: true });
  try {
    await work(store, sqliteFile(database.dataDir));
  } finally {
    await store.close();
    await database.remove();
  }
}

test("a server's commits leave checkpoints to the worker, up to a backstop of 10,000 pages", async () => {
  await withServerStore(async (store) => {
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db);
    assert.equal(rows[0]?.wal_autocheckpoint, 10_000);
  });
});

test("a server's committed pages reach the database file while the bank's connection waits for none", async () => {
  await withServerStore(async (store, file) => {
    const before = statSync(file).size;
    // 64 commits of 3 rows (a page each): under SQLite's own threshold of 1,000 pages, so only the
    // worker copies them.
    for (let i = 0; i < 64; i += 1) {
      await store.transaction(async (tx) => {
        for (let j = 0; j < 3; j += 1) {
          await tx.insertInto("tpps").values({ id: `PSDDE-BAFIN-8${i}-${j}`, name: "x".repeat(3000),
            blocked: 0, created_at: AT }).execute();
        }
      });
    }
    const deadline = Date.now() + 5000;
    while (statSync(file).size <= before + 3 * 3000 && Date.now() < deadline) await sleep(50);
    assert.ok(statSync(file).size > before + 3 * 3000, "grew by the rows of one commit at least");
    const count = await store.db.selectFrom("tpps").select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "=", "x".repeat(3000)).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 192);
  });
});

/** The WAL header's checkpoint sequence number, which SQLite moves each time the WAL starts over. */
function walGeneration(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, "r");
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

test("under continuous commits the WAL starts over long before the backstop, the event loop never checkpointing", async () => {
  await withServerStore(async (store, file) => {
    const started = walGeneration(file);
    // Eight writers, each committing again as soon as it is answered, as under load: a group
    // commit follows the one before while that waits for the disk, so the worker's checkpoints
    // never find the WAL without new frames. A few frames a commit (a leaf of the table and of its
    // key), so 1,000 commits stay far below the backstop's 10,000.
    let commits = 0;
    const writer = async (name: number) => {
      while (commits < 1000 && walGeneration(file) === started) {
        commits += 1;
        await store.transaction(async (tx) => {
          await tx.insertInto("tpps").values({ id: `PSDDE-BAFIN-${name}-${commits}`, name: "x",
            blocked: 0, created_at: AT }).execute();
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, name) => writer(name)));
    assert.notEqual(walGeneration(file), started, `the WAL did not start over in ${commits} commits`);
  });
});
