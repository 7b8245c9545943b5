/**
 * The bank's optional limits, set by configuration: an overdraft for customer accounts and a
 * daily payment limit per PSU over all of the PSU's accounts. A payment over a limit is RJCT and
 * books nothing.
 */
import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { availableBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, BOB_MAIN, confirm, createPayment, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

async function bankWith(t: TestContext, env: Record<string, string>) {
  const bank = await startBank({ env });
  t.after(() => bank.close());
  return bank;
}

async function available(bank: TestBank, iban: string): Promise<bigint> {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, iban);
  assert.ok(account);
  return availableBalance(account);
}

/** Creates and confirms a payment; returns its final status. */
async function pay(bank: TestBank, login: string, debtorAccount: string, minor: bigint) {
  const body = paymentBody({
    debtorAccount, instructedAmount: { currency: "EUR", amount: formatAmount(minor, "EUR") },
  });
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, scaRedirect, login));
  return (await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body.transactionStatus;
}

test("with an overdraft of 100.00 an account may go exactly 100.00 below zero", async (t) => {
  const bank = await bankWith(t, { OVERDRAFT_LIMIT_CENTS: "10000" });
  const before = await available(bank, BOB_MAIN);
  assert.equal(await pay(bank, "bob", BOB_MAIN, before + 10_000n), "ACSC");
  assert.equal(await available(bank, BOB_MAIN), -10_000n);
  assert.equal(await pay(bank, "bob", BOB_MAIN, 1n), "RJCT");
  assert.equal(await available(bank, BOB_MAIN), -10_000n);
});

test("without an overdraft setting an account cannot go below zero", async (t) => {
  const bank = await bankWith(t, {});
  const before = await available(bank, BOB_MAIN);
  assert.equal(await pay(bank, "bob", BOB_MAIN, before + 1n), "RJCT");
  assert.equal(await available(bank, BOB_MAIN), before);
});

test("a daily limit of 100.00 counts all of the PSU's accounts; the cent above it is RJCT",
  async (t) => {
    const bank = await bankWith(t, { DAILY_PAYMENT_LIMIT_CENTS: "10000" });
    const savings = await available(bank, ALICE_SAVINGS);
    assert.equal(await pay(bank, "alice", ALICE_MAIN, 6_000n), "ACSC");
    assert.equal(await pay(bank, "alice", ALICE_SAVINGS, 4_000n), "ACSC");
    assert.equal(await pay(bank, "alice", ALICE_SAVINGS, 1n), "RJCT");
    assert.equal(await available(bank, ALICE_SAVINGS), savings - 4_000n);
  });
