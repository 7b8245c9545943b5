/**
 * Fifty payments from one account, confirmed by the PSU at the same moment, with funds for ten:
 * exactly ten are booked, forty rejected, and the books are exact to the cent.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { availableBalance, bookedBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import {
  BOB_MAIN, confirm, createPayment, OK_URI, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const PAYMENTS = 50;
const AFFORDABLE = 10;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

async function bobAccount() {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, BOB_MAIN);
  assert.ok(account);
  return account;
}

async function totalOfAllAccounts() {
  const accounts = await bank.app.store.ledger.allAccounts(bank.app.store.db);
  return accounts.reduce((sum, a) => sum + bookedBalance(a), 0n);
}

test(`${PAYMENTS} simultaneous confirmations, funds for ${AFFORDABLE}: ${AFFORDABLE} booked`,
  async () => {
    const opening = await bobAccount();
    const each = availableBalance(opening) / BigInt(AFFORDABLE);
    assert.ok(each * BigInt(AFFORDABLE + 1) > availableBalance(opening));
    const body = paymentBody({
      debtorAccount: BOB_MAIN,
      instructedAmount: { currency: "EUR", amount: formatAmount(each, "EUR") },
    });
    const reviews = [];
    for (let i = 0; i < PAYMENTS; i += 1) {
      const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
      const browser = bank.browser();
      reviews.push({ paymentId, browser, review: await reachReview(browser, scaRedirect, "bob") });
    }
    const totalBefore = await totalOfAllAccounts();
    const answers = await Promise.all(reviews.map((r) => confirm(r.browser, r.review)));
    for (const answer of answers) assert.equal(answer.location, OK_URI);

    const statuses: string[] = [];
    for (const { paymentId } of reviews) {
      const res = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
      statuses.push(res.body.transactionStatus);
    }
    const count = (s: string) => statuses.filter((x) => x === s).length;
    assert.equal(count("ACSC"), AFFORDABLE, statuses.join(","));
    assert.equal(count("RJCT"), PAYMENTS - AFFORDABLE, statuses.join(","));

    const closing = await bobAccount();
    assert.equal(bookedBalance(closing), bookedBalance(opening) - each * BigInt(AFFORDABLE));
    assert.ok(availableBalance(closing) >= 0n);
    assert.equal(await totalOfAllAccounts(), totalBefore, "money was created or destroyed");
    const booked = await bank.app.store.db.selectFrom("transfers").select("payment_id")
      .where("payment_id", "in", reviews.map((r) => r.paymentId)).execute();
    assert.equal(booked.length, AFFORDABLE);
  });
