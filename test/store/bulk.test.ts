/**
 * Chunks of batched statements (store/bulk.ts `inChunks`): a few SQL texts on SQLite, whose
 * prepared statements are cached by text, and one statement on PostgreSQL; a bulk insert through
 * them on each engine.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { inChunks } from "../../src/store/bulk.js";
import { openStore } from "../../src/store/db.js";
import { freshMigratedDatabase, postgresUnavailable } from "../support/engines.js";

const chunkSizes = async (engine: "sqlite" | "postgres", rows: number, max: number) => {
  const sizes: number[] = [];
  const seen: number[] = [];
  await inChunks(engine, Array.from({ length: rows }, (_, i) => i), max, async (chunk) => {
    sizes.push(chunk.length);
    seen.push(...chunk);
  });
  assert.deepEqual(seen, Array.from({ length: rows }, (_, i) => i), "every row once, in order");
  return sizes;
};

test("SQLite writes in power-of-two chunks up to the maximum, PostgreSQL all at once", async () => {
  assert.deepEqual(await chunkSizes("sqlite", 300, 256), [256, 32, 8, 4]);
  assert.deepEqual(await chunkSizes("sqlite", 7, 256), [4, 2, 1]);
  assert.deepEqual(await chunkSizes("sqlite", 600, 256), [256, 256, 64, 16, 8]);
  assert.deepEqual(await chunkSizes("postgres", 300, 256), [300]);
  assert.deepEqual(await chunkSizes("sqlite", 0, 256), []);
});

for (const engine of ["sqlite", "postgres"] as const) {
  test(`${engine}: a bulk insert of 600 rows writes each once, every column`,
    { skip: engine === "postgres" && (postgresUnavailable ?? false) }, async (t) => {
      const database = await freshMigratedDatabase(engine);
      const store = await openStore(database);
      // Hooks run in the order they were added: the store closes before its database goes.
      t.after(() => store.close());
      t.after(() => database.remove());
      // 600 rows are chunks of 256, 256, 64, 16 and 8 on SQLite, one statement on PostgreSQL.
      const entries = Array.from({ length: 600 }, (_, i) => ({
        id: `bulk-${String(i).padStart(4, "0")}`, at: "2026-11-29T04:00:00.000Z",
        tppId: i % 2 ? "PSDDE-BAFIN-BULK" : null, requestId: `request-${i}`, psuIp: null,
        method: "GET", path: `/psd2/v1/accounts/${i}`, resourceId: null, status: 200 + (i % 7), ms: i,
      }));
      await store.transaction((tx) => store.audit.append(tx, entries));
      const read = await store.audit.query(store.db, { limit: 1000 });
      assert.deepEqual(read.sort((a, b) => a.id.localeCompare(b.id)), entries);
    });
}
