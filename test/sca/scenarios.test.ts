/**
 * The sandbox scenario PSUs: each one takes a TPP down the same unhappy path every time.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { makeIban } from "../../src/lib/iban.js";
import { DEMO_BANK_CODE } from "../../src/ledger/demo-data.js";
import { confirm, createPayment, logIn, open, paymentBody, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const ibanOf = (accountNumber: string) => makeIban("DE", `${DEMO_BANK_CODE}${accountNumber}`);
const errorOf = (html: string) => /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];

async function loginAs(login: string, debtorAccount: string) {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({ debtorAccount }));
  const browser = bank.browser();
  const page = await open(browser, scaRedirect);
  return { paymentId, browser, page: await browser.follow(await logIn(browser, page, login, `${login}-demo`)) };
}

test("dora's account is always empty: even a cent is rejected for insufficient funds", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: ibanOf("4000000001"), instructedAmount: { currency: "EUR", amount: "0.01" } }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "dora");
  await confirm(browser, review);
  const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
  assert.equal(status.body?.transactionStatus, "RJCT");
});

test("erik is blocked: the right password still does not log him in", async () => {
  const { page } = await loginAs("erik", ibanOf("5000000001"));
  assert.equal(page.status, 401);
  assert.equal(errorOf(page.html), "Too many failed attempts: access is blocked for a while. Try again later.");
});

test("finn has no authorization device: he is told to contact his bank", async () => {
  const { page } = await loginAs("finn", ibanOf("6000000001"));
  assert.equal(page.status, 401);
  assert.equal(errorOf(page.html), "No authorization device is registered for you. Please contact your bank.");
});
