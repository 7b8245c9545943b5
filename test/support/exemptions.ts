/**
 * The SCA exemptions from the PSU's side: a payment authorised with the password alone (its
 * authorisation then `exempted`), or one for which the password is not enough.
 */
import assert from "node:assert/strict";
import type { BrowserClient, Page } from "./browser.js";
import { confirm, createPayment, logIn, OK_URI, open, paymentBody } from "./flows.js";
import type { TppClient } from "./tpp-client.js";

/** A bank as these helpers need it: a test bank, or the bank in a process of its own. */
interface Bank { tpp: TppClient; browser(): BrowserClient }

export const PAYMENTS = "/psd2/v1/payments/sepa-credit-transfers";

/** The link opened and the password given: the page that follows (the code, or the review). */
export async function afterPassword(browser: BrowserClient, scaRedirect: string, login: string,
  password = `${login}-demo`) {
  return browser.follow(await logIn(browser, await open(browser, scaRedirect), login, password));
}

export const asksForCode = (page: Page) => /name="code"/.test(page.html);
export const isReview = (page: Page) => /action="\/sca\/confirm"/.test(page.html);

/** The scaStatus of a payment's (only) authorisation, as the TPP reads it. */
export async function paymentScaStatus(tpp: TppClient, paymentId: string, path = PAYMENTS) {
  const list = await tpp.get(`${path}/${paymentId}/authorisations`);
  assert.equal(list.status, 200, list.text);
  const [id] = list.body.authorisationIds as string[];
  return (await tpp.get(`${path}/${paymentId}/authorisations/${id}`)).body.scaStatus as string;
}

export const euro = (amount: string, over: Record<string, unknown> = {}) =>
  paymentBody({ instructedAmount: { currency: "EUR", amount }, ...over });

/** A payment of `amount` from `debtor` that `login` authorises with the password alone. */
export async function payExempted(bank: Bank, login: string,
  debtor: string, amount: string, over: Record<string, unknown> = {}, browser = bank.browser()) {
  const { paymentId, scaRedirect } =
    await createPayment(bank.tpp, euro(amount, { debtorAccount: debtor, ...over }));
  const review = await afterPassword(browser, scaRedirect, login);
  assert.ok(isReview(review), `${amount} EUR asked for more than the password:\n${review.html}`);
  const done = await confirm(browser, review);
  assert.equal(done.location, OK_URI, done.html);
  assert.equal(await paymentScaStatus(bank.tpp, paymentId), "exempted");
  return { paymentId, review };
}

/** A payment of `amount` for which the password is not enough: the code page follows it. */
export async function needsCode(bank: Bank, login: string,
  debtor: string, amount: string, browser = bank.browser(), over: Record<string, unknown> = {}) {
  const created = await createPayment(bank.tpp, euro(amount, { debtorAccount: debtor, ...over }));
  const page = await afterPassword(browser, created.scaRedirect, login);
  assert.ok(asksForCode(page), `${amount} EUR went without the code:\n${page.html}`);
  return { ...created, page, browser };
}

