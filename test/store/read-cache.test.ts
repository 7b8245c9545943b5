/**
 * The store's cache of the reads every request repeats, and the unsynced log write. On SQLite an
 * answer is reused only while no connection has changed the database; on PostgreSQL, where other
 * instances cannot be watched for free, only the same reads asked for in one turn share a query.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import Sqlite from "better-sqlite3";
import { sql } from "kysely";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { systemClock } from "../../src/lib/clock.js";
import type { Store } from "../../src/store/db.js";
import { onEachEngine, twoInstances } from "../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";

const consentOf = (id: string, tppId: string) => ({
  id, tppId, status: "received" as const, psuId: null,
  access: {
    accounts: [], balances: [], transactions: [], availableAccounts: null,
    availableAccountsWithBalance: null, allPsd2: "allAccounts" as const,
  },
  recurringIndicator: true, validUntil: "2026-12-31", frequencyPerDay: 4,
  combinedServiceIndicator: false, redirectUri: "https://tpp.example/ok", nokRedirectUri: null,
  createdAt: AT, updatedAt: AT, authorisedAt: null,
});

/** Counts the statements the store sends outside a transaction from now on. */
function countStatements(store: Store): () => number {
  let count = 0;
  const execute = store.db.executeQuery.bind(store.db);
  store.db.executeQuery = ((query: Parameters<typeof execute>[0]) => {
    count += 1;
    return execute(query);
  }) as typeof store.db.executeQuery;
  return () => count;
}

/** Counts the statements better-sqlite3 runs (every connection) until `stop`. */
function countSqliteStatements(): { count: () => number; stop: () => void } {
  const probe = new Sqlite(":memory:");
  const prototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, unknown>;
  probe.close();
  let count = 0;
  const methods = ["run", "get", "all", "iterate"] as const;
  const originals = methods.map((method) => prototype[method] as (...args: unknown[]) => unknown);
  methods.forEach((method, i) => {
    prototype[method] = function (this: unknown, ...args: unknown[]) {
      count += 1;
      return originals[i]!.apply(this, args);
    };
  });
  return {
    count: () => count,
    stop: () => methods.forEach((method, i) => (prototype[method] = originals[i])),
  };
}

onEachEngine("read cache", (engine) => {
  let store: Store;
  let other: Store;
  let close: () => Promise<void>;
  before(async () => {
    ({ store, other, close } = await twoInstances(engine));
  });
  after(() => close());

  const id = `PSDDE-BAFIN-${engine === "sqlite" ? 1 : 2}77001`;
  let reads = 0;
  const blocked = () => store.cached(store.db, `blocked:${id}`, async () => {
    reads += 1;
    return { blocked: await store.tpps.isBlocked(store.db, id) };
  });

  test("an answer is reused until this instance or another one changes the database", async () => {
    await store.tpps.setBlocked(store.db, id, false, AT);
    reads = 0;
    assert.deepEqual(await blocked(), { blocked: false });
    assert.deepEqual(await blocked(), { blocked: false });
    assert.equal(reads, engine === "sqlite" ? 1 : 2);

    await other.tpps.setBlocked(other.db, id, true, AT);
    assert.deepEqual(await blocked(), { blocked: true }, "another instance's block applies at once");
    await store.tpps.setBlocked(store.db, id, false, AT);
    assert.deepEqual(await blocked(), { blocked: false }, "so does this instance's own change");
    // Any write counts, even to a table the answer was not read from.
    const before = reads;
    await other.db.insertInto("secrets").values({ name: `cache-test-${engine}`, value: "x" }).execute();
    await blocked();
    assert.equal(reads, before + 1);
  });

  test("inside a transaction nothing is cached: its uncommitted changes never leak out", async () => {
    await assert.rejects(store.transaction(async (tx) => {
      await tx.updateTable("tpps").set({ blocked: 1 }).where("id", "=", id).execute();
      const inside = await store.cached(tx, `blocked:${id}`, async () => ({ blocked: await store.tpps.isBlocked(tx, id) }));
      assert.deepEqual(inside, { blocked: true });
      throw new Error("roll back");
    }), /roll back/);
    assert.deepEqual(await blocked(), { blocked: false });
  });

  if (engine === "sqlite") {
    test("the log's own writes leave cached answers in place; any other write does not", async () => {
      await store.tpps.setBlocked(store.db, id, false, AT);
      reads = 0;
      await blocked();
      await store.writeLog((tx) => tx.insertInto("secrets").values({ name: "log-kept", value: "1" })
        .execute().then(() => undefined));
      await blocked();
      assert.equal(reads, 1);
      await store.db.insertInto("secrets").values({ name: "log-not", value: "1" }).execute();
      await blocked();
      assert.equal(reads, 2);
    });
  }

  if (engine === "sqlite") {
    test("an answer is reused without a statement to SQLite while nothing changed", async () => {
      await store.tpps.setBlocked(store.db, id, false, AT);
      await blocked();
      const statements = countSqliteStatements();
      try {
        assert.deepEqual(await blocked(), { blocked: false });
        assert.deepEqual(await blocked(), { blocked: false });
        assert.equal(statements.count(), 0);
      } finally {
        statements.stop();
      }
      // This instance's own write still counts: it was counted as it ran.
      await store.tpps.setBlocked(store.db, id, true, AT);
      assert.deepEqual(await blocked(), { blocked: true });
    });

    test("a cached answer read while the log writes stays in place", async () => {
      await store.tpps.setBlocked(store.db, id, false, AT);
      reads = 0;
      await blocked();
      let meanwhile: Promise<unknown> | undefined;
      await store.writeLog(async (tx) => {
        await tx.insertInto("secrets").values({ name: "log-meanwhile", value: "1" }).execute();
        // Another request's read, between the log's statement and the end of its write.
        meanwhile = blocked();
        await new Promise((resolve) => setImmediate(resolve));
      });
      await meanwhile;
      await blocked();
      assert.equal(reads, 1);
    });
  }

  if (engine === "sqlite") {
    test("another process's commit counts from the next arrival: SQLite is asked once per request",
      async () => {
        await store.tpps.setBlocked(store.db, id, false, AT);
        store.arrived();
        reads = 0;
        await blocked();
        const { rows: [main] } = await sql<{ file: string }>`PRAGMA database_list`.execute(store.db);
        // A connection of its own, unknown to this process's stores: as the operator's CLI.
        const outside = new Sqlite(main!.file);
        try {
          outside.prepare("UPDATE tpps SET blocked = 1 WHERE id = ?").run(id);
        } finally {
          outside.close();
        }
        assert.deepEqual(await blocked(), { blocked: false }, "within the request before the commit");
        store.arrived();
        assert.deepEqual(await blocked(), { blocked: true }, "the next request sees it");
        assert.equal(reads, 2);
      });

    test("another store of this process: its group commit counts at once, with no arrival",
      async () => {
        await store.tpps.setBlocked(store.db, id, false, AT);
        store.arrived();
        assert.deepEqual(await blocked(), { blocked: false });
        await other.transaction((tx) => other.tpps.setBlocked(tx, id, true, AT));
        assert.deepEqual(await blocked(), { blocked: true });
      });
  }

  if (engine === "sqlite") {
    test("the same read asked for while the connection is held is one statement for all",
      async () => {
        await store.tpps.setBlocked(store.db, id, false, AT);
        store.arrived();
        reads = 0;
        // As a group commit holds the connection while its flush runs: the reads queue meanwhile.
        let free = () => {};
        const held = store.db.connection().execute(() => new Promise<void>((resolve) => {
          free = resolve;
        }));
        await new Promise((resolve) => setImmediate(resolve));
        const answers = Promise.all([blocked(), blocked(), blocked()]);
        free();
        await held;
        assert.deepEqual(await answers, [{ blocked: false }, { blocked: false }, { blocked: false }]);
        assert.equal(reads, 1);
      });

    test("a failed shared read is not kept: the next one asks again", async () => {
      store.arrived();
      const key = `failing:${id}`;
      await assert.rejects(Promise.all([1, 2].map(() => store.cached(store.db, key, async () => {
        throw new Error("read failed");
      }))), /read failed/);
      assert.equal(await store.cached(store.db, key, async () => "read again"), "read again");
    });
  }

  test("a shared answer is frozen: one request cannot change what another one reads", async () => {
    const answer = await blocked();
    assert.throws(() => {
      (answer as { blocked: boolean }).blocked = true;
    }, TypeError);
  });

  if (engine === "postgres") {
    test("the same reads asked for in one turn share a query sent after the last of them", async () => {
      await store.tpps.setBlocked(store.db, id, false, AT);
      reads = 0;
      const first = blocked();
      // Another instance's block commits while the first read is under way: the reads asked for
      // after that commit do not take the first read's answer, they share one of their own.
      await other.tpps.setBlocked(other.db, id, true, AT);
      const answers = await Promise.all([first, blocked(), blocked()]);
      assert.equal(reads, 2);
      assert.deepEqual(answers.slice(1), [{ blocked: true }, { blocked: true }]);
      assert.deepEqual(await Promise.all([blocked(), blocked(), blocked()]),
        [{ blocked: true }, { blocked: true }, { blocked: true }]);
      assert.equal(reads, 3);
    });
  }

  if (engine === "postgres") {
    test("a delta list's mark asked for in one turn is one statement, and read anew in the next",
      async () => {
        await store.db.insertInto("tpps").values({ id: "PSDDE-MARKS", name: "marks", blocked: 0,
          created_at: AT }).execute();
        await store.consents.insert(store.db, consentOf("m-1", "PSDDE-MARKS"));
        await sql`insert into ledger_accounts (id, kind, currency, status,
          debits_must_not_exceed_credits, created_at) values ('m-acc', 'customer', 'EUR',
          'enabled', 1, ${AT})`.execute(store.db);
        const statements = countStatements(store);
        const mark = () => store.deltaMarks.get(store.db, "m-1", "m-acc");
        assert.deepEqual(await Promise.all([mark(), mark(), mark()]), [null, null, null]);
        assert.equal(statements(), 1);
        await other.deltaMarks.setAll(other.db,
          [{ consentId: "m-1", accountId: "m-acc", entryReference: "7" }]);
        assert.equal(await mark(), "7", "another instance's mark, written before the read was asked");
        assert.equal(statements(), 2);
      });
  }

  test("delta marks moved together: of one consent's two, the later wins", async () => {
    await store.db.insertInto("tpps").values({ id: "PSDDE-MOVES", name: "moves", blocked: 0,
      created_at: AT }).execute();
    for (const id of ["mv-1", "mv-2"]) await store.consents.insert(store.db, consentOf(id, "PSDDE-MOVES"));
    await sql`insert into ledger_accounts (id, kind, currency, status,
      debits_must_not_exceed_credits, created_at) values ('mv-acc', 'customer', 'EUR',
      'enabled', 1, ${AT})`.execute(store.db);
    const moved = (consentId: string, entryReference: string) =>
      ({ consentId, accountId: "mv-acc", entryReference });
    const marks = () => Promise.all(["mv-1", "mv-2"].map((id) => store.deltaMarks.get(store.db, id, "mv-acc")));
    await store.deltaMarks.setAll(store.db, [moved("mv-1", "3"), moved("mv-2", "5"), moved("mv-1", "4")]);
    assert.deepEqual(await marks(), ["4", "5"]);
    await store.deltaMarks.setAll(store.db, [moved("mv-2", "9")]);
    await store.deltaMarks.setAll(store.db, []);
    assert.deepEqual(await marks(), ["4", "9"]);
    if (engine === "postgres") {
      const statements = countStatements(store);
      const mark = (consentId: string, accountId = "mv-acc") =>
        store.deltaMarks.get(store.db, consentId, accountId);
      assert.deepEqual(await Promise.all([mark("mv-1"), mark("mv-2"), mark("mv-1", "other"), mark("mv-none")]),
        ["4", "9", null, null]);
      assert.equal(statements(), 1, "the marks of distinct consents asked for in one turn");
    }
  });

  if (engine === "postgres") {
    test("authorisations of distinct resources asked for in one turn are one statement", async () => {
      await store.tpps.ensure(store.db, "PSDDE-AUTHS", "auths", AT);
      const authorise = (id: string, resourceId: string, at: string) => store.sca.insertAuthorisation(
        store.db, { id, resourceType: "consent", resourceId, tppId: "PSDDE-AUTHS",
          scaStatus: "finalised", psuId: null, lang: "en" }, at);
      await authorise("au-2", "ar-1", "2026-05-01T10:00:02.000Z");
      await authorise("au-1", "ar-1", "2026-05-01T10:00:01.000Z");
      await authorise("au-3", "ar-2", AT);
      const statements = countStatements(store);
      const ids = (resourceId: string) =>
        store.sca.authorisationsOf(store.db, resourceId).then((found) => found.map((a) => a.id));
      assert.deepEqual(await Promise.all([ids("ar-1"), ids("ar-2"), ids("ar-none")]),
        [["au-1", "au-2"], ["au-3"], []]);
      assert.equal(statements(), 1);
    });
  }

  if (engine === "postgres") {
    test("distinct consents asked for in one turn are one statement, each TPP's own", async () => {
      const [mine, theirs] = [`PSDDE-BATCH-MINE`, `PSDDE-BATCH-THEIRS`];
      await store.db.insertInto("tpps").values([mine, theirs].map((tpp) =>
        ({ id: tpp, name: tpp, blocked: 0, created_at: AT }))).execute();
      for (const [consentId, tppId] of [["b-1", mine], ["b-2", mine], ["b-3", theirs]] as const) {
        await store.consents.insert(store.db, consentOf(consentId, tppId));
      }
      await sql`insert into ledger_accounts (id, kind, currency, status,
        debits_must_not_exceed_credits, created_at) values ('b-acc', 'customer', 'EUR',
        'enabled', 1, ${AT})`.execute(store.db);
      await store.consents.grantAccounts(store.db, "b-1",
        [{ accountId: "b-acc", balances: true, transactions: false }]);
      const find = (consentId: string, tppId: string) =>
        store.consents.findForTppWithGrants(store.db, consentId, tppId);
      const statements = countStatements(store);
      const [first, second, foreign, own, unknown] = await Promise.all([find("b-1", mine),
        find("b-2", mine), find("b-3", mine), find("b-3", theirs), find("b-none", mine)]);
      assert.equal(statements(), 1);
      assert.deepEqual(first?.granted, [{ accountId: "b-acc", balances: true, transactions: false }]);
      assert.ok(Object.isFrozen(first?.consent) && Object.isFrozen(first?.granted[0]), "shared, so frozen");
      assert.deepEqual([second?.consent.id, second?.granted], ["b-2", []]);
      assert.equal(foreign, undefined, "another TPP's consent in the same statement stays unknown");
      assert.equal(own?.consent.tppId, theirs);
      assert.equal(unknown, undefined);
      // Another instance's change committed before the next reads were asked for counts for them.
      await other.consents.transition(other.db, "b-2", ["received"], "valid", { at: AT });
      const [again, changed] = await Promise.all([find("b-1", mine), find("b-2", mine)]);
      assert.equal(statements(), 2);
      assert.equal(again?.consent.status, "received");
      assert.equal(changed?.consent.status, "valid");
    });
  }

  if (engine === "postgres") {
    test("distinct accounts asked for in one turn, by id or by IBAN, are one statement each",
      async () => {
        await store.db.insertInto("psus").values({ id: "psu-a", login: "batch-a", name: "A",
          password_hash: "x", status: "active", failed_attempts: 0, blocked_until: null,
          created_at: AT, sandbox_behaviour: null }).execute();
        await sql`insert into ledger_accounts (id, iban, psu_id, kind, currency, status,
          debits_must_not_exceed_credits, created_at, credits_posted) values
          ('a-1', 'DE-A-1', 'psu-a', 'customer', 'EUR', 'enabled', 1, ${AT}, 500),
          ('a-2', 'DE-A-2', 'psu-a', 'customer', 'EUR', 'enabled', 1, ${AT}, 700)`
          .execute(store.db);
        const core = createEmbeddedLedger({ ledger: store.ledger, clock: systemClock,
          timeZone: "Europe/Berlin", bankCode: "50010000", bic: "DEMODEFFXXX", cached: store.cached });
        const statements = countStatements(store);
        const [lists, first, byIban] = await Promise.all([
          Promise.all([core.getAccounts(store.db, ["a-1", "a-2"]), core.getAccounts(store.db, ["a-2"])]),
          core.getAccount(store.db, "a-1"),
          Promise.all([core.findAccountWithAvailable(store.db, "DE-A-2"),
            core.findAccountByIban(store.db, "DE-A-1"), core.findAccountByIban(store.db, "DE-none")]),
        ]);
        assert.equal(statements(), 2);
        assert.deepEqual(lists.map((l) => l.map((a) => a.id)), [["a-1", "a-2"], ["a-2"]]);
        assert.equal(first?.iban, "DE-A-1");
        assert.deepEqual([byIban[0]?.account.id, byIban[0]?.availableMinor], ["a-2", 700n]);
        assert.deepEqual([byIban[1]?.id, byIban[2]], ["a-1", undefined]);
      });
  }

  test("the log write commits its rows and leaves every other commit waiting for the disk", async () => {
    await store.writeLog((tx) => tx.insertInto("secrets").values({ name: `log-${engine}`, value: "1" }).execute()
      .then(() => undefined));
    await assert.rejects(store.writeLog(async (tx) => {
      await tx.insertInto("secrets").values({ name: `log-${engine}`, value: "twice" }).execute();
    }));
    const rows = await other.db.selectFrom("secrets").select("value").where("name", "=", `log-${engine}`).execute();
    assert.deepEqual(rows, [{ value: "1" }]);
    if (engine === "sqlite") {
      const { rows: [setting] } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db);
      assert.equal(setting?.synchronous, 2, "FULL again, after a success and after a failure");
    } else {
      const { rows: [setting] } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(store.db);
      assert.equal(setting?.synchronous_commit, "on");
    }
  });
});
