/**
 * The permission dashboard in chromium (PSR; issue 36's layout): bob's accounts with their
 * balances first, his card masked after them, then his permissions with the purpose each
 * provider declared; two columns on a desktop, one on a phone; a standing order stopped from the
 * dashboard is CANC for the TPP at once. axe at 0 on every page, English and German.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import { audited, PHONE, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import {
  BOB_MAIN, confirm, consentBody, createdStatus, CREATION_HEADERS, linkOf, paymentBody,
  reachReview,
} from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import type { TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const PERIODIC = "/psd2/v1/periodic-payments/sepa-credit-transfers";

/** A consent and a standing order bob gave Demo TPP, each with a declared purpose. */
async function bobsPermissions(): Promise<string> {
  const http = bank.browser();
  const consent = await bank.tpp.post("/psd2/v1/consents", consentBody(),
    { ...CREATION_HEADERS, "TPP-Declared-Purpose": "Monthly budget overview" });
  assert.equal(consent.status, createdStatus(bank.tpp), consent.text);
  await confirm(http, await reachReview(http, linkOf(bank.tpp, consent.body._links.scaRedirect), "bob"),
    [BOB_MAIN]);
  const tomorrow = addDays(dateInZone(new Date(), bank.app.config.timeZone), 1);
  const order = await bank.tpp.post(PERIODIC, { ...paymentBody({ debtorAccount: BOB_MAIN,
    creditorName: "Sportverein Nord", instructedAmount: { currency: "EUR", amount: "9.00" } }),
  startDate: tomorrow, frequency: "Monthly" }, { ...CREATION_HEADERS, "TPP-Declared-Purpose": "Club fee" });
  assert.equal(order.status, createdStatus(bank.tpp), order.text);
  await confirm(http, await reachReview(http, linkOf(bank.tpp, order.body._links.scaRedirect), "bob"));
  return order.body.paymentId as string;
}

async function logIn(page: Page, labels: { login: string; password: string; button: string;
  code: string; next: string }) {
  await page.goto(`${bank.authUrl}/dashboard`);
  await page.getByLabel(labels.login).fill("bob");
  await page.getByLabel(labels.password).fill("bob-demo");
  await page.getByRole("button", { name: labels.button }).click();
  await page.getByLabel(labels.code).fill((await lastSmsCode(bank.browser(), "bob")).code);
  await page.getByRole("button", { name: labels.next }).click();
}

/** The grid columns of the first list of cards: the accounts'. */
const firstListColumns = async (page: Page) => String(await page.evaluate(
  "getComputedStyle(document.querySelector('main > section > .cards')).gridTemplateColumns"));

const top = async (page: Page, heading: string) =>
  (await page.getByRole("heading", { level: 2, name: heading }).boundingBox())?.y ?? -1;

test("desktop: accounts and the masked card first, then permissions in two columns; a standing "
  + "order stopped here is CANC for the TPP at once", async () => {
  const order = await bobsPermissions();
  const { page, context, problems } = await chromium.context();
  await logIn(page, { login: "Login name", password: "Password", button: "Log in",
    code: "Authorization code", next: "Continue" });
  const tops = await Promise.all(["Your accounts and cards", "Access to your accounts",
    "Standing orders through providers", "Payments initiated through providers"]
    .map((h) => top(page, h)));
  assert.ok(tops.every((y, i) => y > 0 && (i === 0 || y > (tops[i - 1] ?? 0))), String(tops));
  const accounts = page.locator("section", { has: page.getByRole("heading", { name: "Your accounts and cards" }) });
  assert.match(await accounts.innerText(), /DE51 5001 0000 2000 0000 01[\s\S]*Visa Classic\s+•••• 7714/);
  const columns = await firstListColumns(page);
  assert.equal(columns.split(" ").length, 2, `two columns: ${columns}`);
  const main = await page.locator("main").innerText();
  assert.match(main, /Purpose\s+Monthly budget overview/);
  assert.match(main, /Purpose\s+Club fee/);
  await audited(page, "dashboard-permissions-en");

  await page.locator(`form:has(input[value="${order}"]) button`).click();
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(),
    "Stop the standing order to Sportverein Nord?");
  await audited(page, "dashboard-permissions-withdraw-en");
  await page.getByRole("button", { name: "Yes, stop the standing order" }).click();
  assert.match(await page.getByRole("status").innerText(), /The standing order has been stopped/);
  assert.equal((await bank.tpp.get(`${PERIODIC}/${order}/status`)).body?.transactionStatus, "CANC");
  assert.match(await page.locator("main").innerText(), /Status\s+stopped by you\s+Ended on/);
  await audited(page, "dashboard-permissions-withdrawn-en");
  assert.deepEqual(problems, []);
  await context.close();
});

test("phone, in German: one column, no sideways scrolling, the permissions in German", async () => {
  await bobsPermissions();
  const { page, context, problems } = await chromium.context({ ...PHONE, locale: "de-DE" });
  await logIn(page, { login: "Anmeldename", password: "Passwort", button: "Anmelden",
    code: "Autorisierungscode", next: "Weiter" });
  const columns = await firstListColumns(page);
  assert.ok(columns === "none" || columns.split(" ").length === 1, `one column: ${columns}`);
  const width = await page.evaluate("document.documentElement.scrollWidth") as number;
  assert.ok(width <= 390, `no horizontal scrolling on a phone (${width}px)`);
  const main = await page.locator("main").innerText();
  assert.match(main, /Ihre Konten und Karten[\s\S]*•••• 7714/);
  assert.match(main, /Zweck\s+Monthly budget overview/);
  assert.match(main, /Daueraufträge über Anbieter/);
  await audited(page, "dashboard-permissions-phone-de");
  assert.deepEqual(problems, []);
  await context.close();
});
