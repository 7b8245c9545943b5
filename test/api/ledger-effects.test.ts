import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { availableBalance, bookedBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import type { LedgerAccountRecord } from "../../src/store/ledger.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, BOB_MAIN, confirm, createPayment, EXTERNAL_IBAN, OK_URI, paymentBody,
  reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const CLEARING = "clearing-eur";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

interface LedgerState {
  accounts: LedgerAccountRecord[];
  /** Booked balance (credits − debits) per ledger account id. */
  booked: Map<string, bigint>;
  total: bigint;
  transfers: number;
}

async function ledgerState(): Promise<LedgerState> {
  const { ledger, db } = bank.app.store;
  const accounts = await ledger.allAccounts(db);
  const booked = new Map(accounts.map((a) => [a.id, bookedBalance(a)]));
  const total = [...booked.values()].reduce((sum, b) => sum + b, 0n);
  const row = await db.selectFrom("transfers")
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return { accounts, booked, total, transfers: Number(row.n) };
}

async function accountId(iban: string): Promise<string> {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, iban);
  assert.ok(account, `no ledger account for ${iban}`);
  return account.id;
}

async function transfersOf(paymentId: string) {
  return bank.app.store.db.selectFrom("transfers").selectAll()
    .where("payment_id", "=", paymentId).execute();
}

/** Each account's counters agree with its entries: balance = Σ entries, count = #entries. */
async function assertCountersMatchEntries() {
  const { ledger, db } = bank.app.store;
  for (const account of await ledger.allAccounts(db)) {
    assert.equal(await ledger.sumOfEntries(db, account.id), bookedBalance(account), account.id);
    const row = await db.selectFrom("entries").where("account_id", "=", account.id)
      .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    assert.equal(BigInt(row.n), account.entryCount, account.id);
  }
}

/** The balance changes between two states, without the accounts that did not move. */
function changes(before: LedgerState, after: LedgerState): Map<string, bigint> {
  const moved = new Map<string, bigint>();
  for (const [id, balance] of after.booked) {
    const delta = balance - (before.booked.get(id) ?? 0n);
    if (delta !== 0n) moved.set(id, delta);
  }
  return moved;
}

/** Creates a payment and has its PSU confirm it; returns the id and the confirm's answer. */
async function payAndConfirm(login: string, body: Record<string, unknown>) {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody(body));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, login);
  const done = await confirm(browser, review);
  const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
  return { paymentId, done, status: status.body.transactionStatus as string };
}

const euros = (minor: bigint) => ({ currency: "EUR", amount: formatAmount(minor, "EUR") });

test("a confirmed payment to another bank moves exactly its amount to SEPA clearing",
  async () => {
    const before = await ledgerState();
    assert.equal(before.total, 0n, "the equity account should balance the seeded deposits");
    const debtor = await accountId(ALICE_MAIN);
    const amount = 3_715n;
    const { paymentId, done, status } = await payAndConfirm("alice", {
      creditorAccount: EXTERNAL_IBAN, instructedAmount: euros(amount),
    });
    assert.equal(done.status, 200);
    assert.equal(done.location, OK_URI);
    assert.equal(done.outcome, "The payment has been made.");
    assert.equal(status, "ACSC");
    const after = await ledgerState();
    assert.deepEqual(changes(before, after), new Map([[debtor, -amount], [CLEARING, amount]]));
    assert.equal(after.total, before.total);
    assert.equal(after.transfers, before.transfers + 1);
    const transfers = await transfersOf(paymentId);
    assert.equal(transfers.length, 1);
    const [transfer] = transfers;
    assert.equal(transfer?.debit_account_id, debtor);
    assert.equal(transfer?.credit_account_id, CLEARING);
    assert.equal(BigInt(transfer?.amount ?? 0), amount);
    await assertCountersMatchEntries();
  });

test("a confirmed payment to another account of this bank credits that account, not clearing",
  async () => {
    const before = await ledgerState();
    const debtor = await accountId(ALICE_MAIN);
    const savings = await accountId(ALICE_SAVINGS);
    const amount = 10_001n;
    const { paymentId, status } = await payAndConfirm("alice", {
      creditorAccount: ALICE_SAVINGS, creditorName: "Alice Schmidt",
      instructedAmount: euros(amount),
    });
    assert.equal(status, "ACSC");
    const after = await ledgerState();
    assert.deepEqual(changes(before, after), new Map([[debtor, -amount], [savings, amount]]));
    assert.equal(after.booked.get(CLEARING), before.booked.get(CLEARING));
    assert.equal(after.total, before.total);
    const transfers = await transfersOf(paymentId);
    assert.equal(transfers.length, 1);
    assert.equal(transfers[0]?.credit_account_id, savings);
    await assertCountersMatchEntries();
  });

test("a payment above the available balance is rejected after confirm and books nothing",
  async () => {
    const before = await ledgerState();
    const bob = before.accounts.find((a) => a.iban === BOB_MAIN);
    assert.ok(bob, "bob's account is missing");
    const available = availableBalance(bob);
    assert.ok(available > 0n && available < 1_000_000n, `bob has ${available} cents`);
    const { paymentId, done, status } = await payAndConfirm("bob", {
      debtorAccount: BOB_MAIN, instructedAmount: euros(available + 1n),
    });
    assert.equal(status, "RJCT");
    assert.equal(done.status, 200);
    assert.equal(done.outcome, "The bank did not make this payment: the account does not hold "
      + "enough money, overdraft included. No money has left your account.",
    "the PSU is told the truth, never that it succeeded");
    assert.equal(done.location, OK_URI, "the way back is still the TPP-Redirect-URI");
    const after = await ledgerState();
    assert.deepEqual(after.booked, before.booked);
    assert.equal(after.transfers, before.transfers);
    assert.deepEqual(await transfersOf(paymentId), []);
    await assertCountersMatchEntries();
  });

test("a payment of exactly the available balance is booked", async () => {
  const before = await ledgerState();
  const bob = before.accounts.find((a) => a.iban === BOB_MAIN);
  assert.ok(bob, "bob's account is missing");
  const available = availableBalance(bob);
  const { status } = await payAndConfirm("bob", {
    debtorAccount: BOB_MAIN, instructedAmount: euros(available),
  });
  assert.equal(status, "ACSC");
  const after = await ledgerState();
  assert.deepEqual(changes(before, after), new Map([[bob.id, -available], [CLEARING, available]]));
});
