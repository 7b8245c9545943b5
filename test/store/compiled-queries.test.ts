/**
 * Compiled queries (store/compiled.ts): built and compiled once per dialect, then bound to each
 * call's values, inside a transaction and outside one, and a write's count of changed rows.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { compiledInsert, compiledQuery } from "../../src/store/compiled.js";
import type { Store } from "../../src/store/db.js";
import type { Tx } from "../../src/store/handle.js";
import { freshStore, onEachEngine } from "../support/engines.js";

onEachEngine("compiled queries", (engine) => {
  let store: Store;
  let close: () => Promise<void>;
  before(async () => ({ store, close } = await freshStore(engine)));
  after(() => close());

  const insertSecret = compiledInsert("secrets", ["name", "value"]);
  let builds = 0;
  const secretsFrom = compiledQuery(["from", "limit"] as const,
    (tx: Tx, p: { from: string; limit: number }) => {
      builds += 1;
      return tx.selectFrom("secrets").select(["name", "value"]).where("name", ">=", p.from)
        .where("name", "like", "compiled-%").orderBy("name").limit(p.limit);
    });

  test("built once, each call with its own values, in a transaction and outside", async () => {
    await store.transaction(async (tx) => {
      for (const name of ["compiled-a", "compiled-b", "compiled-c"]) {
        await insertSecret(tx, { name, value: `value of ${name}` });
      }
      assert.deepEqual((await secretsFrom(tx, { from: "compiled-c", limit: 5 })).rows,
        [{ name: "compiled-c", value: "value of compiled-c" }]);
    });
    const names = async (from: string, limit: number) =>
      (await secretsFrom(store.db, { from, limit })).rows.map((r) => r.name);
    assert.deepEqual(await names("compiled-a", 2), ["compiled-a", "compiled-b"]);
    assert.deepEqual(await names("compiled-b", 5), ["compiled-b", "compiled-c"]);
    assert.deepEqual(await names("compiled-d", 5), []);
    assert.equal(builds, 1);
  });

  test("an insert answers the rows it changed; one that conflicts changes none", async () => {
    const key = { tppId: "PSDDE-BAFIN-COMPILED", requestId: "request-1", at: new Date().toISOString() };
    const answer = { bodyHash: "hash", statusCode: 201, responseBody: "{}" };
    const record = () => store.transaction((tx) => store.idempotency.record(tx, key, answer));
    assert.equal(await record(), true);
    assert.equal(await record(), false);
  });
});
