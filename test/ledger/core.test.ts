/**
 * Tests for src/ledger/core.ts and src/ledger/demo-data.ts over a real database (SQLite, and
 * PostgreSQL via core.postgres.test.ts): payments book once per paymentId, refusals write nothing,
 * and the seeded books balance.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PaymentOrder } from "../../src/domain/account-information/core-banking.js";
import { availableBalance, bookedBalance } from "../../src/ledger/book.js";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { ALL_DEMO_PSUS, DEMO_ACCOUNTS, DEMO_BANK_CODE, seedDemoData } from "../../src/ledger/demo-data.js";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";
import { makeIban } from "../../src/lib/iban.js";
import { newPaymentId } from "../../src/lib/ids.js";
import { createPasswords, hashPassword } from "../../src/app/passwords.js";
import { cardRepository } from "../../src/store/cards.js";
import type { Store } from "../../src/store/db.js";
import type { LedgerAccountRecord } from "../../src/store/ledger.js";
import { freshStore } from "../support/engines.js";

const TIME_ZONE = "Europe/Berlin";
/** 23:30 UTC is already the next day in Berlin: booking dates must follow the bank's zone. */
const NOW = new Date("2026-03-15T23:30:00.000Z");
const BANK_DATE = "2026-03-16";
const ALICE_GIRO = makeIban("DE", `${DEMO_BANK_CODE}1000000001`);
const BOB_GIRO = makeIban("DE", `${DEMO_BANK_CODE}2000000001`);
const EXTERNAL_IBAN = "FR1420041010050500013M02606";

async function seededBank() {
  const { store, close } = await freshStore();
  const clock = manualClock(NOW);
  const seeded = await seedDemoData({
    store, clock, timeZone: TIME_ZONE, bic: "DEMODEFFXXX", hashPassword,
  });
  assert.equal(seeded, true);
  const core = createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: TIME_ZONE, bankCode: "50010000", bic: "DEMODEFFXXX",
  });
  return {
    store, core, clock, seeded,
    async close() {
      await close();
    },
  };
}

async function accountByIban(store: Store, iban: string): Promise<LedgerAccountRecord> {
  const account = await store.ledger.findAccountByIban(store.db, iban);
  assert.ok(account, `no account with IBAN ${iban}`);
  return account;
}

async function accountById(store: Store, id: string): Promise<LedgerAccountRecord> {
  const account = await store.ledger.getAccount(store.db, id);
  assert.ok(account, `no account ${id}`);
  return account;
}

async function entriesOf(store: Store, accountId: string) {
  const rows = await store.db.selectFrom("entries").selectAll()
    .where("account_id", "=", accountId).orderBy("seq").execute();
  return rows.map((r) => ({ ...r, seq: BigInt(r.seq), amount: BigInt(r.amount),
    balance_after: BigInt(r.balance_after) }));
}

async function countRows(store: Store, table: "transfers" | "entries"): Promise<number> {
  const row = await store.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Everything a payment could write: every account's counters and the row counts. */
async function snapshot(store: Store) {
  return {
    accounts: await store.ledger.allAccounts(store.db),
    transfers: await countRows(store, "transfers"),
    entries: await countRows(store, "entries"),
  };
}

function netOfAll(accounts: readonly LedgerAccountRecord[]): bigint {
  return accounts.reduce((sum, a) => sum + a.creditsPosted - a.debitsPosted, 0n);
}

function order(debtor: LedgerAccountRecord, creditorIban: string, amountMinor: bigint,
  paymentId = newPaymentId()): PaymentOrder {
  return {
    paymentId, debtorAccountId: debtor.id, creditorIban, creditorName: "Bob Meyer",
    debtorName: debtor.ownerName, amountMinor, currency: "EUR", remittance: "Invoice 42",
    endToEndId: "E2E-42",
  };
}

describe("the embedded ledger", () => {
  test("books a payment exactly once per paymentId", async () => {
    const bank = await seededBank();
    try {
      const { store, core } = bank;
      const alice = await accountByIban(store, ALICE_GIRO);
      const first = order(alice, BOB_GIRO, 1_234n);
      const booked = await store.transaction((tx) => core.executePayment(tx, first));
      assert.equal(booked.status, "booked");
      const afterFirst = await snapshot(store);
      const again = await store.transaction((tx) => core.executePayment(tx, first));
      const changed = { ...first, amountMinor: 99n, creditorIban: EXTERNAL_IBAN };
      const replay = await store.transaction((tx) => core.executePayment(tx, changed));
      assert.ok(booked.status === "booked");
      assert.deepEqual(again, { status: "already_booked", transferId: booked.transferId });
      assert.deepEqual(replay, { status: "already_booked", transferId: booked.transferId });
      assert.deepEqual(await snapshot(store), afterFirst);
      const rows = await store.db.selectFrom("transfers").selectAll()
        .where("payment_id", "=", first.paymentId).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.id, booked.transferId);
      assert.equal(rows[0]?.booking_date, BANK_DATE);
    } finally {
      await bank.close();
    }
  });

  test("rejects a payment above the available balance with insufficient_funds and writes nothing",
    async () => {
      const bank = await seededBank();
      try {
        const { store, core } = bank;
        const bob = await accountByIban(store, BOB_GIRO);
        const before = await snapshot(store);
        const tooMuch = order(bob, ALICE_GIRO, availableBalance(bob) + 1n);
        const outcome = await store.transaction((tx) => core.executePayment(tx, tooMuch));
        assert.deepEqual(outcome, { status: "rejected", reason: "insufficient_funds" });
        assert.deepEqual(await snapshot(store), before);
        const exact = order(bob, ALICE_GIRO, availableBalance(bob));
        const all = await store.transaction((tx) => core.executePayment(tx, exact));
        assert.equal(all.status, "booked");
        assert.equal(availableBalance(await accountById(store, bob.id)), 0n);
      } finally {
        await bank.close();
      }
    });

  test("rejects a payment from an unknown or blocked account and writes nothing", async () => {
    const bank = await seededBank();
    try {
      const { store, core } = bank;
      const alice = await accountByIban(store, ALICE_GIRO);
      const ghost = { ...alice, id: "no-such-account" };
      await store.db.updateTable("ledger_accounts").set({ status: "blocked" })
        .where("iban", "=", BOB_GIRO).execute();
      const before = await snapshot(store);
      const unknown = await store.transaction((tx) =>
        core.executePayment(tx, order(ghost, BOB_GIRO, 100n)));
      const blocked = await store.transaction((tx) =>
        core.executePayment(tx, order(alice, BOB_GIRO, 100n)));
      assert.deepEqual(unknown, { status: "rejected", reason: "account_unknown" });
      assert.deepEqual(blocked, { status: "rejected", reason: "account_blocked" });
      assert.deepEqual(await snapshot(store), before);
    } finally {
      await bank.close();
    }
  });

  test("credits an account of the bank directly and an external IBAN via the clearing account",
    async () => {
      const bank = await seededBank();
      try {
        const { store, core } = bank;
        const alice = await accountByIban(store, ALICE_GIRO);
        const bob = await accountByIban(store, BOB_GIRO);
        const clearing = await store.ledger.findAccountByKind(store.db, "clearing", "EUR");
        assert.ok(clearing);
        await store.transaction((tx) => core.executePayment(tx, order(alice, BOB_GIRO, 500n)));
        const bobAfter = await accountByIban(store, BOB_GIRO);
        assert.equal(bookedBalance(bobAfter), bookedBalance(bob) + 500n);
        assert.deepEqual(await accountById(store, clearing.id), clearing);
        const bobLast = (await entriesOf(store, bob.id)).at(-1);
        assert.deepEqual([bobLast?.seq, bobLast?.amount, bobLast?.balance_after],
          [bobAfter.entryCount, 500n, bookedBalance(bobAfter)]);

        await store.transaction((tx) => core.executePayment(tx, order(alice, EXTERNAL_IBAN, 700n)));
        const clearingAfter = await accountById(store, clearing.id);
        assert.equal(clearingAfter.creditsPosted, clearing.creditsPosted + 700n);
        assert.equal(clearingAfter.entryCount, clearing.entryCount + 1n);
        assert.deepEqual(await accountByIban(store, BOB_GIRO), bobAfter);
        const aliceAfter = await accountById(store, alice.id);
        assert.equal(bookedBalance(aliceAfter), bookedBalance(alice) - 1_200n);
        const aliceLast = (await entriesOf(store, alice.id)).at(-1);
        assert.deepEqual([aliceLast?.seq, aliceLast?.amount, aliceLast?.balance_after],
          [aliceAfter.entryCount, -700n, bookedBalance(aliceAfter)]);
        const external = await store.db.selectFrom("transfers").selectAll()
          .where("creditor_iban", "=", EXTERNAL_IBAN).executeTakeFirstOrThrow();
        assert.equal(external.credit_account_id, clearing.id);
        assert.equal(external.debit_account_id, alice.id);
      } finally {
        await bank.close();
      }
    });

  test("reports closingBooked, expected and interimAvailable equal to the ledger counters", async () => {
    const bank = await seededBank();
    try {
      const { store, core, clock } = bank;
      const alice = await accountByIban(store, ALICE_GIRO);
      await store.db.updateTable("ledger_accounts").set({ debits_pending: 321n })
        .where("id", "=", alice.id).execute();
      const counters = await accountById(store, alice.id);
      const balances = await store.transaction((tx) => core.balances(tx, alice.id));
      const referenceDate = dateInZone(clock.now(), TIME_ZONE);
      // The demo history ends yesterday, so yesterday's closing balance is the booked one.
      const booked = counters.creditsPosted - counters.debitsPosted;
      const last = await store.statements.bySeq(store.db, alice.id, counters.entryCount);
      const lastChangeDateTime = last?.bookedAt ?? "none";
      assert.equal(last?.bookingDate, addDays(referenceDate, -1));
      assert.deepEqual(balances, [
        { balanceType: "closingBooked", amountMinor: booked, currency: "EUR",
          referenceDate: addDays(referenceDate, -1), lastChangeDateTime },
        { balanceType: "expected", amountMinor: booked - 321n, currency: "EUR", referenceDate,
          lastChangeDateTime },
        { balanceType: "interimAvailable", amountMinor: booked - 321n, currency: "EUR", referenceDate,
          lastChangeDateTime },
      ]);
      assert.equal(referenceDate, BANK_DATE);
      assert.deepEqual(await store.transaction((tx) => core.balances(tx, "no-such-account")), []);
    } finally {
      await bank.close();
    }
  });

  test("keeps the sum of credits minus debits over all accounts at zero", async () => {
    const bank = await seededBank();
    try {
      const { store, core } = bank;
      const openings = DEMO_ACCOUNTS
        .reduce((s, a) => s + a.openingMinor, 0n);
      const equity = await store.ledger.findAccountByKind(store.db, "equity", "EUR");
      assert.ok(equity);
      assert.equal(bookedBalance(equity), -openings, "equity mirrors the seeded money");
      assert.equal(netOfAll(await store.ledger.allAccounts(store.db)), 0n);
      const alice = await accountByIban(store, ALICE_GIRO);
      const bob = await accountByIban(store, BOB_GIRO);
      for (const [debtor, creditor, amount] of [
        [alice, BOB_GIRO, 10_000n], [bob, EXTERNAL_IBAN, 2_500n], [alice, EXTERNAL_IBAN, 1n],
        [bob, ALICE_GIRO, 10n ** 12n],
      ] as const) {
        await store.transaction((tx) => core.executePayment(tx, order(debtor, creditor, amount)));
        assert.equal(netOfAll(await store.ledger.allAccounts(store.db)), 0n);
      }
      assert.deepEqual(await accountById(store, equity.id), equity);
    } finally {
      await bank.close();
    }
  });
});

/** A ledger that keeps the committed entries it reads, and Alice's whole history as a query. */
async function keptStatements(store: Store, clock: ReturnType<typeof manualClock>) {
  const core = createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: TIME_ZONE, bankCode: "50010000", bic: "DEMODEFFXXX",
    committed: (tx) => tx === store.db,
  });
  const alice = await accountByIban(store, ALICE_GIRO);
  const all = { dateFrom: null, dateTo: BANK_DATE, entryReferenceFrom: null, page: 0, pageSize: 100_000 };
  return { core, alice, all };
}

describe("the embedded ledger's statements", () => {
  test("hand out a committed entry as one object on every page from its second read, never an entry a transaction saw", async () => {
    const bank = await seededBank();
    try {
      const { store, clock } = bank;
      const { core, alice, all } = await keptStatements(store, clock);
      const first = await core.statement(store.db, alice.id, all);
      const again = await core.statement(store.db, alice.id, all);
      const third = await core.statement(store.db, alice.id, all);
      assert.ok(first.transactions.length > 0);
      assert.ok(first.transactions.every((t, i) => again.transactions[i] !== t && !Object.isFrozen(t)),
        "a range read once is not kept: a delta list reads each range once");
      assert.ok(again.transactions.every((t, i) => third.transactions[i] === t), "read again, kept");
      await assert.rejects(store.transaction(async (tx) => {
        await core.executePayment(tx, order(alice, BOB_GIRO, 111n));
        const seen = await core.statement(tx, alice.id, all);
        assert.equal(seen.transactions.at(-1)?.amountMinor, -111n);
        throw new Error("rolled back");
      }), /rolled back/);
      await store.transaction((tx) => core.executePayment(tx, order(alice, BOB_GIRO, 222n)));
      const after = await core.statement(store.db, alice.id, all);
      assert.equal(after.transactions.length, first.transactions.length + 1);
      assert.equal(after.transactions.at(-1)?.amountMinor, -222n, "the seq went to the booked one");
    } finally {
      await bank.close();
    }
  });
  test("give concurrent pages of one range the same objects, once the range was read before", async () => {
    const bank = await seededBank();
    try {
      const { store, clock } = bank;
      const { core, alice, all } = await keptStatements(store, clock);
      // Read once and not kept: whether two first reads meet depends on the engine's timing.
      await core.statement(store.db, alice.id, all);
      const [one, other] = await Promise.all([
        core.statement(store.db, alice.id, all), core.statement(store.db, alice.id, all)]);
      assert.ok(one.transactions.length > 0);
      assert.ok(one.transactions.every((t, i) => other.transactions[i] === t), "one read, shared");
    } finally {
      await bank.close();
    }
  });
});

describe("the demo data", () => {
  /** Per-account counters keyed by what stays stable across seeds: IBAN, card product, or the fixed id. */
  async function books(store: Store) {
    const accounts = await store.ledger.allAccounts(store.db);
    const key = (a: LedgerAccountRecord) => a.iban ?? (a.kind === "card" ? `${a.product} of ${a.ownerName}` : a.id);
    return {
      perAccount: Object.fromEntries(accounts.map((a) => [key(a), {
        kind: a.kind, booked: bookedBalance(a), debitsPosted: a.debitsPosted,
        creditsPosted: a.creditsPosted, entryCount: a.entryCount,
      }])),
      transfers: await countRows(store, "transfers"),
      entries: await countRows(store, "entries"),
    };
  }

  test("is deterministic: two seeds give the same balances and transfer counts", async () => {
    const [one, two] = [await seededBank(), await seededBank()];
    try {
      const [a, b] = [await books(one.store), await books(two.store)];
      assert.deepEqual(a, b);
      const accounts = DEMO_ACCOUNTS;
      assert.equal(Object.keys(a.perAccount).length, accounts.length + accounts.filter((x) => x.card).length + 2);
      assert.ok(a.transfers > 500, `only ${a.transfers} transfers`);
    } finally {
      await one.close();
      await two.close();
    }
  });

  test("hashes the demo passwords once per process and hasher, and each stored hash verifies its own", async () => {
    const hashed: string[] = [];
    const counting = async (password: string) => {
      hashed.push(password);
      return hashPassword(password);
    };
    const seed = async () => {
      const { store, close } = await freshStore();
      await seedDemoData({ store, clock: manualClock(NOW), timeZone: TIME_ZONE, bic: "DEMODEFFXXX",
        hashPassword: counting });
      return { store, close };
    };
    const [one, two] = [await seed(), await seed()];
    try {
      assert.deepEqual(hashed, ALL_DEMO_PSUS.map((p) => p.password), "each password hashed once for two seeds");
      const passwords = createPasswords();
      for (const psu of ALL_DEMO_PSUS) {
        const stored = (await two.store.psus.findByLogin(two.store.db, psu.login))?.passwordHash ?? null;
        assert.ok(await passwords.verify(stored, psu.password), psu.login);
        assert.equal(await passwords.verify(stored, `${psu.password}!`), false, psu.login);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  test("seeds nothing into a database that has PSUs already", async () => {
    const bank = await seededBank();
    try {
      const before = await snapshot(bank.store);
      const again = await seedDemoData({ store: bank.store, clock: bank.clock,
        timeZone: TIME_ZONE, bic: "DEMODEFFXXX", hashPassword });
      assert.equal(again, false);
      assert.deepEqual(await snapshot(bank.store), before);
    } finally {
      await bank.close();
    }
  });

  test("gives every account 13 months of history whose entries add up to its counters",
    async () => {
      const bank = await seededBank();
      try {
        const { store } = bank;
        const cutoff = new Date(`${BANK_DATE}T00:00:00Z`);
        cutoff.setUTCMonth(cutoff.getUTCMonth() - 13);
        const thirteenMonthsAgo = cutoff.toISOString().slice(0, 10);
        for (const account of await store.ledger.allAccounts(store.db)) {
          const name = account.iban ?? account.id;
          const entries = await entriesOf(store, account.id);
          assert.ok(entries.length > 0, name);
          const first = entries[0]?.booking_date ?? "";
          assert.ok(first <= thirteenMonthsAgo, `${name} starts ${first}`);
          assert.ok((entries.at(-1)?.booking_date ?? "") <= BANK_DATE, name);
          const booked = bookedBalance(account);
          assert.equal(await store.ledger.sumOfEntries(store.db, account.id), booked, name);
          assert.equal(BigInt(entries.length), account.entryCount, name);
          assert.deepEqual(entries.map((e) => e.seq), entries.map((_, i) => BigInt(i + 1)), name);
          assert.equal(entries.at(-1)?.balance_after, booked, name);
          if (account.debitsMustNotExceedCredits) {
            // A card may go down to minus its credit limit, a deposit account not below zero.
            const floor = -((await cardRepository.cardOf(store.db, account.id))?.creditLimit ?? 0n);
            assert.ok(availableBalance(account) >= floor, `${name} is below ${floor}`);
            let running = 0n;
            for (const e of entries) {
              running += e.amount;
              assert.ok(running >= floor, `${name} went below ${floor} on ${e.booking_date}`);
            }
          }
        }
      } finally {
        await bank.close();
      }
    });

  test("gives each demo card purchases with merchant details, some abroad, settled monthly", async () => {
    const bank = await seededBank();
    try {
      const { store, core } = bank;
      const alice = await accountByIban(store, ALICE_GIRO);
      const [card, ...others] = await core.listCardAccountsOfPsu(store.db, alice.psuId ?? "");
      assert.ok(card && others.length === 0);
      assert.equal(card.maskedPan, "525412******3241");
      assert.equal(card.creditLimitMinor, 500_000n);
      assert.deepEqual(await core.findCardAccount(store.db, { pan: "5254120000013241" }), card);
      assert.deepEqual(await core.findCardAccount(store.db, { maskedPan: "525412******3241" }), card);
      assert.equal(await core.getAccount(store.db, card.id), undefined, "a card is no payment account");
      const all = await core.cardStatement(store.db, card.id,
        { dateFrom: null, dateTo: BANK_DATE, entryReferenceFrom: null, page: 0, pageSize: 100_000 });
      const purchases = all.transactions.filter((t) => t.amountMinor < 0n);
      const settlements = all.transactions.filter((t) => t.amountMinor > 0n);
      assert.ok(purchases.length > 100, `${purchases.length} purchases`);
      assert.ok(settlements.length >= 12, `${settlements.length} settlements`);
      assert.ok(settlements.every((t) => t.bookingDate.endsWith("-05")));
      assert.ok(purchases.every((t) => t.merchantCategoryCode !== null && t.transactionDate < t.bookingDate));
      const abroad = purchases.filter((t) => t.original !== null);
      assert.ok(abroad.length > 5 && abroad.every((t) => t.original?.currency !== "EUR"));
      const sum = all.transactions.reduce((s, t) => s + t.amountMinor, 0n);
      const pending = await core.pending(store.db, card.id);
      assert.equal(pending.length, 2);
      const withPending = pending.reduce((s, t) => s + t.amountMinor, sum);
      const balances = await core.cardBalances(store.db, card.id);
      const of = (type: string) => balances.find((b) => b.balanceType === type);
      assert.equal(of("closingBooked")?.amountMinor, sum, "booked: the sum of the booked amounts");
      assert.equal(of("expected")?.amountMinor, withPending, "expected: booked plus pending");
      assert.equal(of("expected")?.creditLimitIncluded, false);
      assert.equal(of("interimAvailable")?.amountMinor, withPending + 500_000n);
      assert.equal(of("interimAvailable")?.creditLimitIncluded, true);
    } finally {
      await bank.close();
    }
  });
});
