/**
 * Store transactions under concurrency: on SQLite, transactions queued while one runs commit
 * together (group commit), each in a savepoint of its own. Whatever the engine: a work that
 * throws leaves nothing behind, the others are kept, and an answered transaction is committed.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import { ConfigError, loadConfig } from "../../src/config.js";
import { openStore, type Store, type Tx } from "../../src/store/db.js";
import { freshDatabase, onEachEngine, twoInstances } from "../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";

onEachEngine("transactions", (engine) => {
  let store: Store;
  let other: Store;
  let close: () => Promise<void>;
  before(async () => {
    ({ store, other, close } = await twoInstances(engine));
  });
  after(() => close());

  const insertTpp = (tx: Tx, id: string) =>
    tx.insertInto("tpps").values({ id, name: id, blocked: 0, created_at: AT }).execute();
  const committed = async (ids: string[]) => {
    const rows = await other.db.selectFrom("tpps").select("id").where("id", "in", ids).execute();
    return rows.map((r) => r.id).sort();
  };

  test("of concurrent transactions, the throwing ones leave nothing, the rest commit", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `PSDDE-BAFIN-9${String(i).padStart(5, "0")}`);
    const outcomes = await Promise.allSettled(ids.map((id, i) => store.transaction(async (tx) => {
      await insertTpp(tx, id);
      await tx.updateTable("tpps").set({ name: `${id} renamed` }).where("id", "=", id).execute();
      if (i % 3 === 0) throw new Error(`refused ${id}`);
      return id;
    })));
    outcomes.forEach((outcome, i) => {
      if (i % 3 === 0) {
        assert.equal(outcome.status, "rejected");
        assert.equal((outcome as PromiseRejectedResult).reason.message, `refused ${ids[i]}`);
      } else {
        assert.deepEqual(outcome, { status: "fulfilled", value: ids[i] });
      }
    });
    assert.deepEqual(await committed(ids), ids.filter((_, i) => i % 3 !== 0).sort());
    const names = await other.db.selectFrom("tpps").select("name").where("id", "in", ids).execute();
    assert.ok(names.every((r) => r.name.endsWith(" renamed")));
  });

  test("two transactions claim one key: one wins, the loser's writes are all undone", async () => {
    const key = "PSDDE-BAFIN-990001";
    const claim = (extra: string) => store.transaction(async (tx) => {
      await insertTpp(tx, extra);
      await insertTpp(tx, key);
      return extra;
    });
    const [a, b] = ["PSDDE-BAFIN-990002", "PSDDE-BAFIN-990003"];
    const outcomes = await Promise.allSettled([claim(a), claim(b)]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(won.length, 1);
    const winner = (won[0] as PromiseFulfilledResult<string>).value;
    assert.deepEqual(await committed([key, a, b]), [key, winner].sort());
  });

  test("a transaction is committed by the time its caller has the answer", async () => {
    for (let i = 0; i < 5; i += 1) {
      const id = `PSDDE-BAFIN-99100${i}`;
      const running = Array.from({ length: 10 }, (_, j) => store.transaction((tx) =>
        insertTpp(tx, `PSDDE-BAFIN-992${i}${String(j).padStart(2, "0")}`)));
      await store.transaction((tx) => insertTpp(tx, id));
      assert.deepEqual(await committed([id]), [id]);
      await Promise.all(running);
    }
  });
});

test("SQLite fsyncs every commit unless SQLITE_SYNCHRONOUS=normal; other values are refused; "
  + "savepoints journal in memory", async () => {
  const database = await freshDatabase("sqlite");
  try {
    for (const [setting, expected] of [[undefined, 2], ["normal", 1], ["full", 2]] as const) {
      const config = loadConfig({ DATA_DIR: database.dataDir, SQLITE_SYNCHRONOUS: setting });
      const store = await openStore(config);
      try {
        const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db);
        assert.equal(rows[0]?.synchronous, expected, `SQLITE_SYNCHRONOUS=${setting}`);
        const temp = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db);
        assert.equal(temp.rows[0]?.temp_store, 2, "MEMORY: no file write per page saved");
      } finally {
        await store.close();
      }
    }
    assert.throws(() => loadConfig({ DATA_DIR: database.dataDir, SQLITE_SYNCHRONOUS: "off" }),
      (error: Error) => error instanceof ConfigError && /SQLITE_SYNCHRONOUS must be "full" or "normal"/.test(error.message));
  } finally {
    await database.remove();
  }
});
