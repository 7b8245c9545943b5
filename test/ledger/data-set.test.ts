/**
 * Tests for src/ledger/data-set.ts over a real database (SQLite, and PostgreSQL via
 * data-set.postgres.test.ts): a generated data set's books are exact, however it is cut into
 * transactions and writes, and a live payment between two data sets stays counted.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sql } from "kysely";
import { bookedBalance } from "../../src/ledger/book.js";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { generateDataSet, type DataSetRequest } from "../../src/ledger/data-set.js";
import { manualClock } from "../../src/lib/clock.js";
import { isUuid, newPaymentId } from "../../src/lib/ids.js";
import type { Store } from "../../src/store/db.js";
import { statementRepository } from "../../src/store/statements.js";
import { freshStore } from "../support/engines.js";

const TIME_ZONE = "Europe/Berlin";
const NOW = new Date("2026-03-15T10:00:00.000Z");
const REMITTANCE = 'NULL, {"a\\b"}';

function request(store: Store, over: Partial<DataSetRequest>): DataSetRequest {
  return {
    store, clock: manualClock(NOW), timeZone: TIME_ZONE, bankCode: "50010000",
    bic: "DEMODEFFXXX", psus: 7, transactions: 503, seed: 1, passwordHash: "not-a-real-hash",
    progress: () => undefined, ...over,
  };
}

/** Every account's counters against its entries, and every transfer against its two legs. */
async function assertBooksExact(store: Store): Promise<void> {
  const accounts = await store.ledger.allAccounts(store.db);
  let debits = 0n;
  let credits = 0n;
  for (const account of accounts) {
    debits += account.debitsPosted;
    credits += account.creditsPosted;
    const entries = await store.db.selectFrom("entries").select(["seq", "amount", "balance_after"])
      .where("account_id", "=", account.id).orderBy("seq").execute();
    assert.equal(BigInt(entries.length), account.entryCount, `${account.id}: entry count`);
    assert.deepEqual(entries.map((e) => Number(e.seq)),
      entries.map((_, i) => i + 1), `${account.id}: seq 1, 2, 3, ...`);
    let balance = 0n;
    for (const entry of entries) {
      balance += BigInt(entry.amount);
      assert.equal(BigInt(entry.balance_after), balance, `${account.id}: after ${entry.seq}`);
    }
    assert.equal(balance, bookedBalance(account), `${account.id}: counters = sum of entries`);
    assert.equal(await store.ledger.sumOfEntries(store.db, account.id), balance);
  }
  assert.equal(debits, credits, "debits = credits over all accounts");
  const legs = await sql<{ id: string; legs: number | string; debit: number | string;
    credit: number | string; amount: number | string; }>`
    select t.id, count(*) as legs, min(e.amount) as debit, max(e.amount) as credit, t.amount
    from transfers t join entries e on e.transfer_id = t.id group by t.id, t.amount`
    .execute(store.db);
  for (const t of legs.rows) {
    assert.ok(isUuid(t.id), `${t.id}: a UUID`);
    assert.equal(Number(t.legs), 2, `${t.id}: two legs`);
    assert.equal(BigInt(t.debit), -BigInt(t.amount), `${t.id}: debit leg`);
    assert.equal(BigInt(t.credit), BigInt(t.amount), `${t.id}: credit leg`);
  }
  const transfers = await store.db.selectFrom("transfers")
    .select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  assert.equal(Number(transfers.n), legs.rows.length, "no transfer without entries");
}

async function countOf(store: Store, table: "transfers" | "psus"): Promise<number> {
  const row = await store.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("a generated data set", () => {
  test("books exactly the transactions asked for, in many transactions and writes", async () => {
    const { store, close } = await freshStore();
    try {
      const progress: number[] = [];
      const result = await generateDataSet(request(store, {
        batches: { perTransaction: 150, perWrite: 40 },
        progress: (done, total) => {
          assert.equal(total, 510);
          progress.push(done);
        },
      }));
      // An opening credit per PSU, then the transactions asked for: none is refused at this size.
      assert.deepEqual(result,
        { firstLogin: "s1-0000000", lastLogin: "s1-0000006", transactions: 510 });
      assert.ok(progress.length > 2, "one progress report per transaction");
      assert.equal(progress.at(-1), 510);
      assert.equal(await countOf(store, "transfers"), 510);
      assert.equal(await countOf(store, "psus"), 7);
      await assertBooksExact(store);
      if (store.engine === "sqlite") {
        // The bulk load's relaxed settings end with it.
        const rows = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db);
        assert.equal(rows.rows[0]?.synchronous, 2, "synchronous = FULL again");
      }
    } finally {
      await close();
    }
  });

  test("spreads transactions over the PSUs and pages through one account's statement", async () => {
    const { store, close } = await freshStore();
    try {
      await generateDataSet(request(store, { psus: 3, transactions: 301, seed: 4 }));
      const psu = await store.psus.findByLogin(store.db, "s4-0000000");
      assert.ok(psu);
      const [account] = await store.ledger.accountsOfPsu(store.db, psu.id);
      assert.ok(account);
      // 101 of the 301 plus the opening credit.
      assert.equal(account.entryCount, 102n);
      const first = await statementRepository.firstSeqFrom(store.db, account.id, "2000-01-01");
      const last = await statementRepository.lastSeqUntil(store.db, account.id, "2026-03-15");
      assert.deepEqual([first, last], [1n, 102n]);
      const page = await statementRepository.between(store.db, account.id, 1n, 50n);
      assert.equal(page.length, 50);
      assert.equal(page[0]?.remittance, "Eroeffnungssaldo");
      const dates = page.map((row) => row.bookingDate);
      assert.deepEqual(dates, [...dates].sort(), "oldest first");
    } finally {
      await close();
    }
  });

  test("leaves a live payment booked between two data sets counted in the clearing account",
    async () => {
      const { store, close } = await freshStore();
      try {
        const batches = { perTransaction: 200, perWrite: 50 };
        await generateDataSet(request(store, { seed: 2, batches }));
        const psu = await store.psus.findByLogin(store.db, "s2-0000003");
        const [debtor] = psu ? await store.ledger.accountsOfPsu(store.db, psu.id) : [];
        assert.ok(debtor);
        const core = createEmbeddedLedger({
          ledger: store.ledger, clock: manualClock(NOW), timeZone: TIME_ZONE,
          bankCode: "50010000", bic: "DEMODEFFXXX",
        });
        const outcome = await store.transaction((tx) => core.executePayment(tx, {
          paymentId: newPaymentId(), debtorAccountId: debtor.id, debtorName: debtor.ownerName,
          creditorIban: "FR1420041010050500013M02606", creditorName: "Ext", amountMinor: 777n,
          currency: "EUR", remittance: REMITTANCE, endToEndId: null,
        }));
        assert.ok(outcome.status === "booked");
        // Written as one array per column on PostgreSQL: the text must come back as it was.
        const stored = await store.db.selectFrom("transfers").select("remittance")
          .where("id", "=", outcome.transferId).executeTakeFirst();
        assert.equal(stored?.remittance, REMITTANCE);
        await generateDataSet(request(store, { seed: 3, batches }));
        assert.equal(await countOf(store, "transfers"), 2 * 510 + 1);
        await assertBooksExact(store);
        await assert.rejects(generateDataSet(request(store, { seed: 3 })), /seed 3 exists already/);
      } finally {
        await close();
      }
    });
});
