/**
 * Two instances on one PostgreSQL database, as behind a load balancer: each step of a flow may
 * land on either, so everything a step needs (sessions, tokens, signing key, idempotency) is in the
 * database. And concurrent bookings from one account through both keep the ledger exact.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { availableBalance, bookedBalance } from "../../src/ledger/book.js";
import type { BrowserClient, Page } from "../support/browser.js";
import { creditAccount } from "../support/cli.js";
import { postgresUnavailable } from "../support/engines.js";
import {
  ALICE_MAIN, BOB_MAIN, confirm, consentBody, createConsent, createPayment, enterCode, logIn,
  OK_URI, paymentBody, reachReview, REDIRECTS,
} from "../support/flows.js";
import { codeFor } from "../support/psu.js";
import { twoInstancesOnPostgres, type TestBank } from "../support/start-app.js";

let first: TestBank;
let second: TestBank;

/** A redirect of `page` followed on `bank`'s PSU listener instead of the one that sent it. */
function getOn(browser: BrowserClient, bank: TestBank, page: Page): Promise<Page> {
  assert.equal(page.status, 303, page.html);
  return browser.get(new URL(page.location ?? "", bank.authUrl).href);
}

/** Login, code and confirm with every step on the other instance than the one before. */
async function authoriseAlternating(scaRedirect: string, login: string, accounts: string[] = []) {
  assert.ok(scaRedirect.startsWith(first.authUrl));
  const browser = second.browser();
  const loginPage = await browser.get(scaRedirect);
  assert.equal(loginPage.status, 200, loginPage.html);
  const loggedIn = await logIn(browser, loginPage, login, `${login}-demo`);
  const codePage = await getOn(browser, first, loggedIn);
  const code = await codeFor(browser, login);
  const review = await getOn(browser, first, await enterCode(browser, codePage, code));
  assert.match(review.html, /action="\/sca\/confirm"/, review.html);
  return confirm(browser, review, accounts);
}

async function bookedMinor(bank: TestBank, iban: string): Promise<bigint> {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, iban);
  assert.ok(account);
  return bookedBalance(account);
}

// Several instances need PostgreSQL: better-sqlite3 waits for a lock synchronously, so two
// in one process would block each other's event loop (the embedded default runs one instance).
describe("two instances on one PostgreSQL database", { skip: postgresUnavailable ?? false }, () => {
  twoInstancesOnPostgres((started, sharing) => { [first, second] = [started, sharing]; });

  test("a payment completes with its steps alternating between the instances", async () => {
    const { paymentId, scaRedirect } = await createPayment(first.tpp);
    const status = `/psd2/v1/payments/${paymentId}/status`;
    assert.deepEqual((await second.tpp.get(status)).body, { transactionStatus: "RCVD" });
    const done = await authoriseAlternating(scaRedirect, "alice");
    assert.equal(done.location, OK_URI);
    assert.deepEqual((await first.tpp.get(status)).body, { transactionStatus: "ACSC" });
    assert.deepEqual((await second.tpp.get(status)).body, { transactionStatus: "ACSC" });
  });

  test("a consent completes alternating, and either instance serves the accounts", async () => {
    const { consentId, scaRedirect } = await createConsent(first.tpp, consentBody());
    assert.equal((await authoriseAlternating(scaRedirect, "alice", [ALICE_MAIN])).location, OK_URI);
    for (const bank of [second, first]) {
      const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId });
      assert.equal(accounts.status, 200, accounts.text);
      assert.ok(accounts.body.accounts.some((a: { iban: string }) => a.iban === ALICE_MAIN));
    }
  });

  test("one X-Request-ID sent to both instances at once creates one payment", async () => {
    const headers = { ...REDIRECTS, "X-Request-ID": randomUUID() };
    const answers = await Promise.all([first, second, first, second].map((bank) =>
      bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(), headers)));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    assert.equal(new Set(answers.map((a) => a.body.paymentId)).size, 1);
  });

  test("50 concurrent payments from one account through both instances book exactly", async () => {
    creditAccount(first.database, BOB_MAIN, "400.00");
    const opening = await bookedMinor(first, BOB_MAIN);
    const bob = await first.app.store.ledger.findAccountByIban(first.app.store.db, BOB_MAIN);
    assert.ok(bob);
    // 40 fit and 10 do not: the bookings race for the last euros the account has available.
    const amountMinor = availableBalance(bob) / 40n;
    const amount = `${amountMinor / 100n}.${String(amountMinor % 100n).padStart(2, "0")}`;
    type Pending = { bank: TestBank; paymentId: string; browser: BrowserClient; review: Page };
    const reviews: Pending[] = [];
    for (let i = 0; i < 50; i += 1) {
      const bank = i % 2 === 0 ? first : second;
      const instructedAmount = { currency: "EUR", amount };
      const body = paymentBody({ debtorAccount: BOB_MAIN, instructedAmount });
      const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
      const browser = bank.browser();
      const review = await reachReview(browser, scaRedirect, "bob");
      reviews.push({ bank, paymentId, browser, review });
    }
    const confirmed = await Promise.all(reviews.map(({ browser, review }) =>
      confirm(browser, review)));
    // A confirmation the bank failed to take shows here with its page, not as a status left RCVD.
    for (const page of confirmed) assert.equal(page.status, 200, page.html.slice(0, 600));
    const statuses = await Promise.all(reviews.map(async ({ bank, paymentId }) =>
      (await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body.transactionStatus as string,
    ));
    assert.equal(statuses.filter((s) => s === "ACSC").length, 40, statuses.join(","));
    assert.equal(statuses.filter((s) => s === "RJCT").length, 10, statuses.join(","));
    assert.equal(await bookedMinor(second, BOB_MAIN), opening - 40n * amountMinor);
    const { ledger, db } = first.app.store;
    let total = 0n;
    for (const account of await ledger.allAccounts(db)) {
      assert.equal(await ledger.sumOfEntries(db, account.id), bookedBalance(account), account.id);
      total += bookedBalance(account);
    }
    assert.equal(total, 0n, "debits and credits differ");
  });
});
