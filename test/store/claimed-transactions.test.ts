/**
 * Claimed transactions (store/claimed.ts), the store's side of idempotent creation: whatever the
 * engine, the work's writes are kept exactly when its claim takes the key, and a work that reads
 * sees its own inserts. On PostgreSQL a work of plain inserts opens no transaction before its
 * claim, and a payment's insert takes no lock on its TPP's row.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import type { Store, Tx } from "../../src/store/db.js";
import { onEachEngine, twoInstances } from "../support/engines.js";
import { AT, storedPayment, TPP } from "../support/lifecycle.js";

onEachEngine("claimed transactions", (engine) => {
  let store: Store;
  let other: Store;
  let close: () => Promise<void>;
  before(async () => {
    ({ store, other, close } = await twoInstances(engine));
    await store.tpps.ensure(store.db, TPP, TPP, AT);
  });
  after(() => close());

  const authorise = (tx: Tx, id: string, resourceId: string) => store.sca.insertAuthorisation(tx, {
    id, resourceType: "payment", resourceId, tppId: TPP, scaStatus: "received", psuId: null,
    lang: "en",
  }, AT);
  /** A creation: a payment and its authorisation, claimed under `requestId`. */
  const create = (requestId: string, id: string, between?: (tx: Tx) => Promise<void>) =>
    store.claimedTransaction(async (tx) => {
      await store.payments.insert(tx, storedPayment(id, "RCVD"));
      await between?.(tx);
      await authorise(tx, `${id}-a`, id);
      return id;
    }, (tx) => store.idempotency.record(tx, { tppId: TPP, requestId, at: AT },
      { bodyHash: "h", statusCode: 201, responseBody: JSON.stringify({ id }) }));
  const kept = async (ids: string[]) => {
    const payments = await other.db.selectFrom("payments").select("id").where("id", "in", ids)
      .execute();
    const authorisations = await other.db.selectFrom("authorisations").select("resource_id")
      .where("resource_id", "in", ids).execute();
    assert.deepEqual(authorisations.map((a) => a.resource_id).sort(),
      payments.map((p) => p.id).sort(), "a payment and its authorisation, or neither");
    return payments.map((p) => p.id).sort();
  };

  test("a claim that finds its key taken keeps none of the work's writes", async () => {
    assert.deepEqual(await create("r-1", "p-1"), { value: "p-1" });
    assert.equal(await create("r-1", "p-2"), undefined);
    assert.deepEqual(await kept(["p-1", "p-2"]), ["p-1"]);
    const answer = await other.idempotency.find(other.db, TPP, "r-1");
    assert.equal(answer?.responseBody, JSON.stringify({ id: "p-1" }));
  });

  test("of concurrent claims of one key one keeps its writes, the others none", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `p-race-${i}`);
    const outcomes = await Promise.all(ids.map((id) => create("r-race", id)));
    const won = outcomes.filter((o) => o !== undefined);
    assert.equal(won.length, 1);
    assert.deepEqual(await kept(ids), [won[0]!.value]);
  });

  test("a work that reads sees its own inserts and is undone when its key is taken", async () => {
    const seen: (string | undefined)[] = [];
    const reading = async (tx: Tx) => {
      seen.push((await store.payments.find(tx, seen.length === 0 ? "p-read-1" : "p-read-2"))?.id);
    };
    assert.deepEqual(await create("r-read", "p-read-1", reading), { value: "p-read-1" });
    assert.equal(await create("r-read", "p-read-2", reading), undefined);
    assert.deepEqual(seen, ["p-read-1", "p-read-2"]);
    assert.deepEqual(await kept(["p-read-1", "p-read-2"]), ["p-read-1"]);
  });

  test("a work that throws keeps nothing and leaves its key free", async () => {
    await assert.rejects(create("r-throw", "p-throw-1", async () => {
      throw new Error("refused");
    }), /refused/);
    assert.deepEqual(await create("r-throw", "p-throw-2"), { value: "p-throw-2" });
    assert.deepEqual(await kept(["p-throw-1", "p-throw-2"]), ["p-throw-2"]);
  });

  if (engine !== "postgres") return;

  test("a work of plain inserts opens no transaction before its claim", async () => {
    const idle = async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.execute(other.db);
      return rows[0]!.n;
    };
    let during = -1;
    await create("r-idle", "p-idle", async () => {
      during = await idle();
    });
    assert.equal(during, 0);
    assert.deepEqual(await kept(["p-idle"]), ["p-idle"]);
  });

  test("a payment's insert does not wait for a lock on its TPP's row", async () => {
    const holder = await other.db.startTransaction().execute();
    try {
      await sql`SELECT id FROM tpps WHERE id = ${TPP} FOR UPDATE`.execute(holder);
      const inserted = store.payments.insert(store.db, storedPayment("p-lock", "RCVD")).then(() => "inserted");
      const late = new Promise((resolve) => setTimeout(() => resolve("waited"), 3000).unref());
      assert.equal(await Promise.race([inserted, late]), "inserted");
    } finally {
      await holder.rollback().execute();
    }
  });
});
