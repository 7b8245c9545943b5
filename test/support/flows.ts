/**
 * The spec's two flows as test steps: create over the API, then the PSU's pages step by step.
 */
import assert from "node:assert/strict";
import { presentersFor } from "../../src/api/profile.js";
import type { App } from "../../src/app/build-app.js";
import { DEMO_BANK_CODE } from "../../src/ledger/demo-data.js";
import { html } from "../../src/lib/html.js";
import { makeIban } from "../../src/lib/iban.js";
import { CATALOGUES } from "../../src/sca/messages/index.js";
import { csrfOf, formOf, type BrowserClient, type Page } from "./browser.js";
import { codeFor } from "./psu.js";
import type { TppClient, TppResponse } from "./tpp-client.js";

export const OK_URI = "https://tpp.example/ok";
export const NOK_URI = "https://tpp.example/nok";
export const REDIRECTS = { "TPP-Redirect-URI": OK_URI, "TPP-Nok-Redirect-URI": NOK_URI };
/** A creation's headers: where the PSU returns, and its address (Berlin Group requires it). */
export const CREATION_HEADERS = { ...REDIRECTS, "PSU-IP-Address": "192.0.2.1" };

export const ALICE_MAIN = "DE96500100001000000001";
export const ALICE_SAVINGS = "DE69500100001000000002";
export const BOB_MAIN = "DE51500100002000000001";
export const CAROL_MAIN = "DE06500100003000000001";
export const EXTERNAL_IBAN = "DE89370400440532013000";

/** The IBAN of a demo account, by its account number (src/ledger/demo-data.ts). */
export const ibanOf = (accountNumber: string) =>
  makeIban("DE", `${DEMO_BANK_CODE}${accountNumber}`);

export function paymentBody(over: Record<string, unknown> = {}) {
  return {
    debtorAccount: ALICE_MAIN,
    creditorAccount: EXTERNAL_IBAN,
    creditorName: "Merchant GmbH",
    instructedAmount: { currency: "EUR", amount: 12.5 },
    creditorAddress: { street: "Hauptstr.", buildingNumber: "1", city: "Berlin", postalCode: "10115", country: "DE" },
    remittanceInformationUnstructured: "Order 42",
    ...over,
  };
}

export function consentBody(over: Record<string, unknown> = {}) {
  const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  return {
    access: { accounts: [], balances: [], transactions: [], availableAccounts: "allAccounts", allPsd2: "allAccounts" },
    recurringIndicator: true, validUntil, frequencyPerDay: 4, combinedServiceIndicator: false, ...over,
  };
}

/** A request body as Berlin Group writes it: account references as objects, amounts as strings. */
export function bgPaymentBody(over: Record<string, unknown> = {}) {
  return {
    debtorAccount: { iban: ALICE_MAIN, currency: "EUR" },
    creditorAccount: { iban: EXTERNAL_IBAN },
    creditorName: "Merchant GmbH",
    instructedAmount: { currency: "EUR", amount: "12.50" },
    creditorAddress: { streetName: "Hauptstr.", buildingNumber: "1", townName: "Berlin", postCode: "10115", country: "DE" },
    remittanceInformationUnstructured: "Order 42",
    ...over,
  };
}

export function bgConsentBody() {
  const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  return {
    access: { availableAccounts: "allAccounts", allPsd2: "allAccounts" },
    recurringIndicator: true, validUntil, frequencyPerDay: 4, combinedServiceIndicator: false,
  };
}

/** The spec's link is a string, Berlin Group's an object {"href": ...}. */
export function linkOf(tpp: TppClient, link: any): string {
  return tpp.profile === "berlin-group" ? link.href : link;
}

/** A link that may be missing: the spec sends null, Berlin Group leaves it out. */
export function optionalLink(tpp: TppClient, link: any): string | null {
  return link === null || link === undefined ? null : linkOf(tpp, link);
}

/**
 * An answer a test writes in the spec's dialect, as the bank's profile sends it: converted by that
 * profile's own presenters (Berlin Group drops the nulls, writes links as {"href"}).
 */
export function inProfile(tpp: TppClient, specAnswer: Record<string, unknown>) {
  return presentersFor(tpp.profile).answer(specAnswer);
}

/** 200 in the spec's dialect, 201 in Berlin Group's. */
export const createdStatus = (tpp: TppClient) => presentersFor(tpp.profile).createdStatus;

function assertCreated(tpp: TppClient, res: TppResponse) {
  assert.equal(res.status, createdStatus(tpp), res.text);
}

export async function createPayment(
  tpp: TppClient, body: unknown = paymentBody(), headers = {}, product = "sepa-credit-transfers",
) {
  const path = `/psd2/v1/payments/${product}`;
  const res = await tpp.post(path, body, { ...CREATION_HEADERS, ...headers });
  assertCreated(tpp, res);
  return { paymentId: res.body.paymentId as string, scaRedirect: linkOf(tpp, res.body._links.scaRedirect) };
}

export async function createConsent(tpp: TppClient, body: unknown = consentBody(), headers = {}) {
  const res = await tpp.post("/psd2/v1/consents", body, { ...CREATION_HEADERS, ...headers });
  assertCreated(tpp, res);
  return { consentId: res.body.consentId as string, scaRedirect: linkOf(tpp, res.body._links.scaRedirect) };
}

/** How many ledger transfers book this payment: one, however many times it was confirmed. */
export async function bookings(bank: { app: App }, paymentId: string): Promise<number> {
  const rows = await bank.app.store.db.selectFrom("transfers").select("id")
    .where("payment_id", "=", paymentId).execute();
  return rows.length;
}

/** Opens the redirect link: its login page, which uses up nothing until the PSU posts it. */
export async function open(browser: BrowserClient, scaRedirect: string): Promise<Page> {
  const entry = await browser.get(scaRedirect);
  assert.equal(entry.status, 200, entry.html);
  return entry;
}

/** Posts the page's login form (the link's own page, or the session's login step). */
export async function logIn(browser: BrowserClient, page: Page, login: string, password: string) {
  const form = formOf(page.html, /name="password"/);
  return browser.post(form.action, { ...form.hidden, login, password });
}

export async function enterCode(browser: BrowserClient, page: Page, code: string) {
  return browser.post("/sca/code", { _csrf: csrfOf(page.html), code });
}

/**
 * RTS art. 10a: a TPP's consent within 180 days of the PSU's last SCA for one of its consents
 * (a renewal) goes from the password straight to the review.
 */
export const renewedWithoutCode = (page: Page) =>
  /action="\/sca\/confirm"/.test(page.html) && Object.values(CATALOGUES)
    .some((c) => page.html.includes(html`${c.exemption_10a}`.text));

/**
 * Login → code → review, asserting each step (a consent renewal under art. 10a has no code
 * step); returns the review page.
 */
export async function reachReview(browser: BrowserClient, scaRedirect: string, login: string) {
  const password = `${login}-demo`;
  const loginPage = await open(browser, scaRedirect);
  const codePage = await browser.follow(await logIn(browser, loginPage, login, password));
  if (renewedWithoutCode(codePage)) return codePage;
  assert.match(codePage.html, /name="code"/, codePage.html);
  const review = await browser.follow(await enterCode(browser, codePage, await codeFor(browser, login)));
  assert.match(review.html, /action="\/sca\/confirm"/, review.html);
  return review;
}

/**
 * A taken decision's answer followed to the bank's result page: `location` is where the page
 * forwards itself to, with no click, within 3 seconds (the spec's redirect back to the TPP), and
 * where its fallback button leads; `outcome` what it says became of the resource. Any other
 * answer (a refusal on the review) is returned as it came.
 */
export async function settled(browser: BrowserClient, posted: Page): Promise<Page & { outcome?: string }> {
  if (posted.status !== 303 || posted.location !== "/sca/done") return posted;
  const result = await browser.follow(posted);
  assert.equal(result.status, 200, result.html);
  const forward = forwardOf(result);
  const back = /<a class="button" href="([^"]+)"/.exec(result.html)?.[1];
  assert.ok(forward && back, result.html);
  assert.ok(forward.seconds <= 3, `forwards within 3 s: ${forward.seconds}`);
  assert.equal(unescapeHtml(back), forward.url, "the button leads where the page forwards to");
  return { ...result, location: forward.url, outcome: outcomeText(result) };
}

/** The page's `<meta http-equiv="refresh">`: after how many seconds it goes where. */
export function forwardOf(page: Page): { seconds: number; url: string } | undefined {
  const found = /<meta http-equiv="refresh" content="(\d+);url=([^"]+)">/.exec(page.html);
  return found ? { seconds: Number(found[1]), url: unescapeHtml(found[2] ?? "") } : undefined;
}

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_m, code: string) =>
  String.fromCharCode(Number(code))).replace(/&amp;/g, "&");

/** What the result page says became of the payment or consent, as text. */
export function outcomeText(page: Page): string {
  return /<p class="[^"]*" role="\w+" id="outcome">([^<]*)<\/p>/.exec(page.html)?.[1] ?? "";
}

/** Ticks the accounts and, where the page offers the choice, their balances and transactions. */
export async function confirm(browser: BrowserClient, review: Page, accounts: string[] = [],
  share: { balances?: string[]; transactions?: string[] } = {}) {
  // A payee's name that did not match needs the PSU's tick; confirming means ticking it.
  const acknowledged: Record<string, string> =
    review.html.includes('name="vop_acknowledged"') ? { vop_acknowledged: "yes" } : {};
  return settled(browser, await browser.post("/sca/confirm", {
    _csrf: csrfOf(review.html), account: accounts,
    balances: share.balances ?? accounts, transactions: share.transactions ?? accounts, ...acknowledged,
  }));
}

export async function cancel(browser: BrowserClient, page: Page) {
  const form = formOf(page.html, /class="cancel"/);
  return settled(browser, await browser.post(form.action, form.hidden));
}

/** Registers a consent and lets `login` confirm it for `ibans`; returns the consent's id. */
export async function authorisedConsent(
  tpp: TppClient, browser: BrowserClient, login: string, ibans: string[], body: unknown = consentBody(),
) {
  const { consentId, scaRedirect } = await createConsent(tpp, body);
  const done = await confirm(browser, await reachReview(browser, scaRedirect, login), ibans);
  assert.equal(done.status, 200, done.html);
  assert.equal(done.location, OK_URI);
  return consentId;
}

/**
 * Twelve payments of bob's that fill two pages of the dashboard's list: one abandoned (its SCA
 * timed out, as the 31 minutes `clock` moves on make it), ten awaiting authorisation, €0.01
 * executed and €0.02 cancelled.
 */
export async function bobsPaymentHistory(
  bank: { tpp: TppClient; browser(): BrowserClient }, clock: { advance(ms: number): void },
): Promise<void> {
  const pay = (cents: number) => createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN,
    instructedAmount: { currency: "EUR", amount: (cents / 100).toFixed(2) } }));
  // Created first, then left: its SCA times out (RJCT, sca_expired) once 31 minutes pass.
  const abandoned = await pay(9);
  clock.advance(31 * 60_000);
  await bank.tpp.get(`/psd2/v1/payments/${abandoned.paymentId}/status`);
  for (let i = 10; i < 20; i++) await pay(i);
  const executed = await pay(1);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, executed.scaRedirect, "bob"));
  const cancelled = await pay(2);
  await bank.tpp.call("DELETE", `/psd2/v1/payments/sepa-credit-transfers/${cancelled.paymentId}`);
}
