/**
 * Issue 36's polish, in a real chromium on a desktop and a phone, in English and German: an
 * invalid link's page is a whole page with a heading, the reason and a way on; no link in the
 * browser's default blue, buttons in the page's font; a database outage behind a PSU page reads
 * as the bank's own 503 page in the PSU's language, never the framework's JSON. Accounts named as
 * a bank names them (name, IBAN in groups of four, what they hold) on the consent review and the
 * receipt, with the balance after the booking; the consent review's Confirm and Cancel pinned on
 * a phone; the login's links for a forgotten password and help; the session's idle end told
 * before and when it comes, without script. axe at 0.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { audited, holdTpp, PHONE, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { postgresUnavailable, setPostgresReachable } from "../support/engines.js";
import {
  BOB_MAIN, consentBody, createConsent, createPayment, paymentBody,
} from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const DEFAULT_BLUE = "rgb(0, 0, 238)";

/** The colours of every link, and whether each button uses the body's font. */
const looks = (page: Page) => page.evaluate(`(() => {
  const body = getComputedStyle(document.body).fontFamily;
  return {
    links: [...document.querySelectorAll("a")].map((a) => getComputedStyle(a).color),
    buttons: [...document.querySelectorAll("button")]
      .map((b) => getComputedStyle(b).fontFamily === body),
  };
})()`) as Promise<{ links: string[]; buttons: boolean[] }>;

for (const [lang, options, heading, name] of [
  ["en", {}, "This request cannot go on", "error-link-invalid-en"],
  ["de", PHONE, "Dieser Auftrag kann nicht fortgesetzt werden", "error-link-invalid-phone-de"],
] as const) {
  test(`an invalid link in ${lang}${options === PHONE ? " on a phone" : ""}: a whole page with `
    + "a heading, the reason and a way on", async () => {
    const { page, context } = await chromium.context({ ...options, locale: lang });
    const answer = await page.goto(`${bank.authUrl}/sca/payment?token=not-a-token&lang=${lang}`);
    assert.equal(answer?.status(), 400);
    assert.equal(await page.locator("h1").innerText(), heading);
    assert.match(await page.getByRole("alert").innerText(), lang === "en"
      ? /This link is not valid or has expired\./ : /nicht gültig|abgelaufen/);
    assert.equal(await page.locator("main a.button").count(), 1, "a way on");
    await audited(page, name);
    await context.close();
  });
}

test("no link in the browser's default blue (site root, 404, login) and buttons in the page's "
  + "font", async () => {
  const { page, context } = await chromium.context();
  const { scaRedirect } = await createPayment(bank.tpp, paymentBody());
  for (const url of [`${bank.authUrl}/`, `${bank.authUrl}/no-such-page`, scaRedirect]) {
    await page.goto(url);
    const { links, buttons } = await looks(page);
    assert.ok(links.length > 0, url);
    assert.deepEqual(links.filter((color) => color === DEFAULT_BLUE), [], url);
    assert.ok(buttons.every(Boolean), `buttons in the body's font on ${url}`);
  }
  await audited(page, "site-404-en");
  await context.close();
});

test("a database outage behind a PSU page: the bank's 503 page in German, try again, never JSON",
  { skip: postgresUnavailable ?? false }, async (t) => {
    const own = await startOwnBank(t, { engine: "postgres" });
    const { scaRedirect } = await createPayment(own.tpp, paymentBody(),
      { "PSU-Accept-Language": "de-DE" });
    const { page, context } = await chromium.context({ ...PHONE, locale: "de-DE" });
    await setPostgresReachable(own.database.databaseUrl, false);
    const answer = await page.goto(scaRedirect);
    assert.equal(answer?.status(), 503);
    assert.match(String(answer?.headers()["content-type"]), /^text\/html/);
    assert.equal(await page.locator("h1").innerText(), "Vorübergehend nicht erreichbar");
    assert.match(await page.getByRole("alert").innerText(), /Nichts, was Sie bestätigt haben/);
    await audited(page, "error-unavailable-phone-de");
    await setPostgresReachable(own.database.databaseUrl, true);
    await page.getByRole("link", { name: "Erneut versuchen" }).click();
    assert.equal(await page.locator("#about").innerText(),
      "12,50\u00a0€ an Merchant GmbH zahlen, beauftragt von Demo TPP");
    await context.close();
  });

const LABELS = {
  en: { login: "Login name", password: "Password", button: "Log in", code: "Authorization code",
    next: "Continue" },
  de: { login: "Anmeldename", password: "Passwort", button: "Anmelden", code: "Autorisierungscode",
    next: "Weiter" },
} as const;

/** Bob (an SMS user) logs in on the link's page: on to the code page. */
async function logInBob(page: Page, link: string, lang: "en" | "de"): Promise<void> {
  const labels = LABELS[lang];
  await page.goto(link);
  await page.getByLabel(labels.login).fill("bob");
  await page.getByLabel(labels.password).fill("bob-demo");
  await page.getByRole("button", { name: labels.button }).click();
  await page.waitForURL(/\/sca\/code/);
}

async function toReview(page: Page, on: TestBank, link: string, lang: "en" | "de") {
  await logInBob(page, link, lang);
  await page.getByLabel(LABELS[lang].code).fill((await lastSmsCode(on.browser(), "bob")).code);
  await page.getByRole("button", { name: LABELS[lang].next }).click();
  await page.waitForURL(/\/sca\/review/);
}

/** The rows of a definition list, label to shown text (lines as a reader sees them). */
const rowsOf = (page: Page, list: string) => page.evaluate(`Object.fromEntries([
  ...document.querySelectorAll(${JSON.stringify(`${list} dt`)})].map((dt) =>
  [dt.textContent, dt.nextElementSibling.innerText]))`) as Promise<Record<string, string>>;

for (const [lang, options, texts] of [
  ["en", {}, { reset: "Forgot your password?", help: "Help with logging in" }],
  ["de", PHONE, { reset: "Passwort vergessen?", help: "Hilfe bei der Anmeldung" }],
] as const) {
  test(`the login in ${lang}${options === PHONE ? " on a phone" : ""} links the bank's password `
    + "reset and its help", async () => {
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody(),
      { "PSU-Accept-Language": lang });
    const { page, context } = await chromium.context({ ...options, locale: lang });
    await page.goto(scaRedirect);
    assert.equal(await page.getByRole("link", { name: texts.reset }).getAttribute("href"),
      "https://psd2-bank.example/password-reset");
    assert.equal(await page.getByRole("link", { name: texts.help }).getAttribute("href"),
      "https://psd2-bank.example/help/login");
    await audited(page, `login-links-${lang}`);
    await context.close();
  });
}

test("the session's idle end, without script: told before, extended by a click, told when it "
  + "comes, then the way back", async (t) => {
  // The notice shows halfway: 8 s for its audit and the click before the session ends, which
  // a loaded machine needs (4 s left 2, too few at a load of 12).
  const own = await startOwnBank(t, { env: { SCA_SESSION_IDLE_SECONDS: "16" } });
  const { scaRedirect } = await createPayment(own.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
  const { page, context, problems } = await chromium.context();
  await logInBob(page, scaRedirect, "en");
  const soon = page.locator(".idle-soon");
  const over = page.locator(".idle-over");
  assert.equal(await soon.isVisible(), false, "nothing to say at first");
  await soon.waitFor({ state: "visible" });
  assert.match(await soon.innerText(), /Your session is about to end/);
  await audited(page, "idle-soon-en");
  await page.getByRole("link", { name: "Stay logged in" }).click();
  await page.waitForURL(/\/sca\/code$/);
  assert.equal(await soon.isVisible(), false, "the count starts again");
  await over.waitFor({ state: "visible" });
  assert.equal(await soon.isVisible(), false, "one notice at a time");
  assert.match(await over.innerText(), /Your session has ended .* Nothing was authorised\./);
  await page.getByRole("link", { name: "Continue" }).click();
  assert.match(await page.locator("main").innerText(), /Your session has ended/);
  assert.match(await page.locator("main a.button").innerText(), /^Back to /);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the consent review on a phone, in German: each account by its name, IBAN in groups and "
  + "what it holds; Confirm and Cancel pinned, Confirm sends the ticks", async () => {
  const { scaRedirect } = await createConsent(bank.tpp, consentBody({
    access: { accounts: [], balances: [], transactions: [] } }), { "PSU-Accept-Language": "de" });
  const { page, context, problems } = await chromium.context({ ...PHONE, locale: "de-DE" });
  holdTpp(page);
  await toReview(page, bank, scaRedirect, "de");
  assert.equal(await page.locator("label[for=account-0]").innerText(),
    "Girokonto DE51 5001 0000 2000 0000 01");
  assert.match(await page.locator("#account-0-info").innerText(), /^[\d.]+,\d\d\u00a0€ verfügbar$/);
  await page.evaluate("window.scrollTo(0, 0)");
  for (const name of ["Bestätigen", "Abbrechen"]) {
    const box = await page.getByRole("button", { name }).boundingBox();
    assert.ok(box && box.y + box.height <= 844, `${name} on screen at the top (${box?.y})`);
  }
  await page.getByLabel("Girokonto DE51").check();
  await audited(page, "consent-review-phone-de");
  await page.getByRole("button", { name: "Bestätigen" }).click();
  await page.waitForURL(/\/sca\/done$/);
  assert.match(await page.locator("#outcome").innerText(), /darf nun bis zum/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Bob pays `amount` from his Girokonto and confirms: the receipt's rows. */
async function paidReceipt(amount: string, name?: string): Promise<Record<string, string>> {
  const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount } }));
  const { page, context, problems } = await chromium.context();
  holdTpp(page);
  await toReview(page, bank, scaRedirect, "en");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL(/\/sca\/done$/);
  const receipt = await rowsOf(page, ".receipt");
  if (name) await audited(page, name);
  assert.deepEqual(problems, []);
  await context.close();
  return receipt;
}

test("the receipt names the account debited as a bank does and the balance after the booking",
  async () => {
    const first = await paidReceipt("1.25");
    const second = await paidReceipt("2.00", "payment-receipt-balance-en");
    assert.equal(second["From account"], "Girokonto\nDE51 5001 0000 2000 0000 01");
    const after = (receipt: Record<string, string>) => receipt["Balance after the booking"] ?? "";
    assert.match(after(second), /^€[\d,]+\.\d\d$/);
    const cents = (text: string) => Number(text.replace(/[^\d]/g, ""));
    assert.equal(cents(after(second)), cents(after(first)) - 200, "the running balance, booked");
  });
