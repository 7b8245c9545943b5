/**
 * The PSU pages in a real chromium: payment and consent flows (confirm and cancel) in several
 * languages, a phone-sized viewport, JavaScript disabled, keyboard only, and an axe-core WCAG 2.2
 * AA audit of every step with zero violations. Every step is saved as a screenshot for the docs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import {
  audited, axeViolations, holdTpp, leaveForTpp, PHONE, type RealBrowser, screenshot,
} from "../support/chromium.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, bobsPaymentHistory, BOB_MAIN, confirm, consentBody, createConsent, createPayment, NOK_URI, OK_URI,
  paymentBody, reachReview,
} from "../support/flows.js";

const BOB_CARD = "492181******7714";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";
import { manualClock } from "../../src/lib/clock.js";
import { groupedIban } from "../../src/sca/format.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));


/** Audits the page and saves its screenshot: each step of every flow passes through here. */
async function step(page: Page, name: string, audit = true): Promise<void> {
  await (audit ? audited : screenshot)(page, name);
}

async function code(login: string): Promise<string> {
  const psu = demoPsu(login);
  const client = bank.browser();
  return psu.device.kind === "totp"
    ? nextTotp(psu.device.secret, client.authUrl) : (await lastSmsCode(client, login)).code;
}

/** Whether the first element ends above the second's top: read before it. */
async function isAbove(page: Page, first: string, second: string): Promise<boolean> {
  const a = await page.locator(first).boundingBox();
  const b = await page.locator(second).boundingBox();
  return a !== null && b !== null && a.y + a.height <= b.y;
}

interface LoginLabels { login: string; password: string; button: string }

async function logIn(page: Page, login: string, labels: LoginLabels) {
  await page.getByLabel(labels.login).fill(login);
  await page.getByLabel(labels.password).fill(`${login}-demo`);
  await page.getByRole("button", { name: labels.button }).click();
}

const EN = {
  login: "Login name", password: "Password", button: "Log in", code: "Authorization code",
};

/** The TPP guide walkthrough's payment: Alice's current account to her savings account. */
const WALKTHROUGH_PAYMENT = {
  debtorAccount: ALICE_MAIN, creditorAccount: ALICE_SAVINGS, creditorName: "Alice Schmidt",
  instructedAmount: { currency: "EUR", amount: 12.5 }, remittanceInformationUnstructured: "Order 42",
};

test("payment: alice logs in, verifies, reviews the payment in large type, confirms", async () => {
  const { scaRedirect } = await createPayment(bank.tpp, WALKTHROUGH_PAYMENT);
  const { page, context, problems } = await chromium.context();
  holdTpp(page);
  await page.goto(scaRedirect);
  assert.equal(new URL(page.url()).pathname, "/sca/payment", "the link's own login page");
  assert.equal(await page.locator("h1").innerText(),
    "Demo TPP asks you to authorise a payment.");
  assert.equal(await page.locator('[aria-current="step"]').innerText(), "1 Log in");
  // What the password is for, before it is asked (issue 36).
  const about = "Pay €12.50 to Alice Schmidt, asked by Demo TPP";
  assert.equal(await page.locator("#about").innerText(), about);
  assert.ok(await isAbove(page, "#about", "#password"), "said before the password");
  await step(page, "payment-1-login-en");

  await logIn(page, "alice", EN);
  assert.equal(await page.locator('[aria-current="step"]').innerText(), "2 Verify");
  assert.equal(await page.locator("#about").innerText(), about);
  await step(page, "payment-2-code-en");
  await page.getByLabel(EN.code).fill(await code("alice"));
  await page.getByRole("button", { name: "Continue" }).click();

  assert.equal(await page.locator('[aria-current="step"]').innerText(), "3 Review");
  const amount = page.locator(".review dd").first();
  assert.equal(await amount.innerText(), "€12.50");
  const size = await page.evaluate(
    "getComputedStyle(document.querySelector('.review dd')).fontSize");
  assert.ok(parseFloat(String(size)) >= 20, `amount in large type: ${String(size)}`);
  assert.equal(await page.locator(".vop-match").innerText(),
    "✓ Your own account: the money stays with you.");
  assert.equal(await page.locator("#vop-ack").count(), 0, "no tick asked");
  await step(page, "payment-3-review-en");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL(/\/sca\/done$/);
  assert.equal(await page.locator("h1").innerText(), "Done");
  // The receipt (issue 36): what, from and to which account, when, the reference to quote.
  const receipt = await page.locator(".receipt").innerText();
  for (const shown of ["Receipt", "€12.50", "DE69 5001 0000 1000 0000 02", "Date and time",
    "Reference", "Order 42"]) assert.ok(receipt.includes(shown), `${shown} in ${receipt}`);
  await step(page, "payment-4-result-en");
  const width = await page.evaluate("document.querySelector('main').offsetWidth") as number;
  assert.ok(width < 600, `a receipt keeps the pages' narrow column (${width}px)`);
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.locator(".languages").isVisible(), false, "no navigation on paper");
  assert.equal(await page.locator("a.button").isVisible(), false, "no button on paper");
  assert.equal(await page.locator(".receipt").isVisible(), true, "the receipt on paper");
  await page.emulateMedia({ media: "screen" });
  assert.equal(await leaveForTpp(page, /^Back to Demo TPP$/, OK_URI), "The payment has been made.");
  await step(page, "payment-5-back-at-tpp", false);
  assert.deepEqual(problems, []);
  await context.close();
});

test("payment on a phone, in German: a wrong password is tied to its field, then cancel",
  async () => {
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }),
      { "PSU-Accept-Language": "de-DE" });
    const { page, context, problems } = await chromium.context(PHONE);
    holdTpp(page);
    await page.goto(scaRedirect);
    assert.equal(await page.locator("#about").innerText(),
      "12,50\u00a0€ an Merchant GmbH zahlen, beauftragt von Demo TPP");
    assert.ok(await isAbove(page, "#about", "#password"), "said before the password");
    const header = await page.locator("header").boundingBox();
    assert.ok(header && header.height < 60, `bank and languages on one line (${header?.height})`);
    await page.getByLabel("Anmeldename").fill("bob");
    await page.getByLabel("Passwort").fill("wrong");
    await page.getByRole("button", { name: "Anmelden" }).click();
    const error = page.getByRole("alert");
    assert.match(await error.innerText(), /nicht korrekt/);
    assert.equal(await page.getByLabel("Passwort").getAttribute("aria-describedby"), "form-error");
    const width = await page.evaluate("document.documentElement.scrollWidth") as number;
    assert.ok(width <= 390, `no horizontal scrolling on a phone (${width}px)`);
    await step(page, "payment-phone-de-1-wrong-password");

    await logIn(page, "bob", { login: "Anmeldename", password: "Passwort", button: "Anmelden" });
    assert.match(await page.locator("main").innerText(), /SMS an \+49151/);
    assert.equal(await page.locator("#about").innerText(),
      "12,50\u00a0€ an Merchant GmbH zahlen, beauftragt von Demo TPP");
    await step(page, "payment-phone-de-2-code");
    await page.getByRole("button", { name: "Abbrechen" }).click();
    await page.waitForURL(/\/sca\/done$/);
    await step(page, "payment-phone-de-3-cancelled");
    assert.equal(await leaveForTpp(page, /^Zurück zu Demo TPP$/, NOK_URI),
      "Sie haben abgebrochen. Es wird nichts bezahlt.");
    assert.deepEqual(problems, []);
    await context.close();
  });

test("consent in French: bob picks his account and confirms; the review says what and until when",
  async () => {
    const { scaRedirect } = await createConsent(bank.tpp, undefined,
      { "PSU-Accept-Language": "fr" });
    const { page, context, problems } = await chromium.context();
    holdTpp(page);
    await page.goto(scaRedirect);
    assert.equal(await page.locator("html").getAttribute("lang"), "fr");
    await step(page, "consent-1-login-fr");
    await logIn(page, "bob",
      { login: "Identifiant", password: "Mot de passe", button: "Se connecter" });
    await step(page, "consent-2-code-fr");
    await page.getByLabel("Code d'autorisation").fill(await code("bob"));
    await page.getByRole("button", { name: "Continuer" }).click();
    assert.equal(await page.getByLabel(groupedIban(BOB_MAIN)).isChecked(), false, "nothing pre-ticked");
    await page.getByLabel(groupedIban(BOB_MAIN)).check();
    assert.doesNotMatch(await page.locator("main").innerText(), new RegExp(BOB_MAIN),
      "no raw 22-character IBAN: groups of four");
    assert.match(await page.locator("main").innerText(),
      /Accès valable jusqu'au \d{1,2} \p{L}+ \d{4}/u);
    assert.match(await page.locator("main").innerText(),
      /partagé : détails du compte, soldes, opérations/);
    await step(page, "consent-3-review-fr");
    await page.getByRole("button", { name: "Confirmer" }).click();
    assert.match(await leaveForTpp(page, /^Retour à Demo TPP$/, OK_URI),
      /^Demo TPP peut désormais accéder aux comptes choisis jusqu'au \d{1,2} \p{L}+ \d{4}\.$/u);
    assert.deepEqual(problems, []);
    await context.close();
  });

test("bank-offered consent: bob shares his card's balances but not its transactions", async () => {
  // Under its own registration: at the demo TPP, bob's earlier consent makes this one a renewal
  // that needs no code (RTS art. 10a).
  const tpp = await bank.tppWith({ name: "Demo TPP", organizationIdentifier: "PSDDE-BAFIN-990144" });
  const { consentId, scaRedirect } = await createConsent(tpp,
    consentBody({ access: { accounts: [], balances: [], transactions: [] } }));
  const { page, context, problems } = await chromium.context();
  holdTpp(page);
  await page.goto(scaRedirect);
  assert.match(await page.locator("#about").innerText(),
    /^Demo TPP asks to see your accounts until \p{L}+ \d{1,2}, \d{4}$/u);
  await logIn(page, "bob", EN);
  await page.getByLabel(EN.code).fill(await code("bob"));
  await page.getByRole("button", { name: "Continue" }).click();
  assert.equal(await page.locator("input[type=checkbox]:checked").count(), 0, "nothing pre-ticked");
  const mainRow = page.locator(".account", { has: page.getByLabel(groupedIban(BOB_MAIN)) });
  const cardRow = page.locator(".account", { has: page.getByLabel(BOB_CARD) });
  for (const box of [page.getByLabel(groupedIban(BOB_MAIN)), mainRow.getByLabel("balances"),
    mainRow.getByLabel("transactions"), page.getByLabel(BOB_CARD), cardRow.getByLabel("balances")]) {
    await box.check();
  }
  const sizes = await page.evaluate(`[...document.querySelectorAll("input[type=checkbox]")]
    .map((box) => { const r = box.getBoundingClientRect(); return Math.min(r.width, r.height); })`);
  assert.ok((sizes as number[]).every((size) => size >= 24), `24px targets: ${String(sizes)}`);
  await step(page, "consent-bank-offered-review-en");
  await page.getByRole("button", { name: "Confirm" }).click();
  await leaveForTpp(page, /^Back to Demo TPP$/, OK_URI);
  const access = (await tpp.get(`/psd2/v1/consents/${consentId}`)).body.access;
  assert.deepEqual(access.balances.map((r: { iban?: string; maskedPan?: string }) => r.iban ?? r.maskedPan).sort(),
    [BOB_CARD, BOB_MAIN].sort());
  assert.deepEqual(access.transactions, [{ iban: BOB_MAIN, currency: "EUR" }]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("consent cancelled on the review, switching to Italian on the way", async () => {
  const { scaRedirect } = await createConsent(bank.tpp);
  const { page, context, problems } = await chromium.context();
  holdTpp(page);
  await page.goto(scaRedirect);
  await page.getByRole("link", { name: "Italiano" }).click();
  assert.equal(await page.locator("html").getAttribute("lang"), "it");
  await step(page, "consent-cancel-1-login-it");
  await logIn(page, "alice", { login: "Nome utente", password: "Password", button: "Accedi" });
  await page.getByLabel("Codice di autorizzazione").fill(await code("alice"));
  await page.getByRole("button", { name: "Continua" }).click();
  await step(page, "consent-cancel-2-review-it");
  await page.getByRole("button", { name: "Annulla" }).click();
  assert.equal(await leaveForTpp(page, /^Torna a Demo TPP$/, NOK_URI),
    "Non è stato concesso alcun accesso.");
  assert.deepEqual(problems, []);
  await context.close();
});

test("without JavaScript and by keyboard alone, in the browser's language (Spanish)", async () => {
  const { scaRedirect } = await createPayment(bank.tpp);
  const link = new URL(scaRedirect);
  link.searchParams.delete("lang");
  const { page, context, problems } = await chromium.context(
    { javaScriptEnabled: false, locale: "es-ES" });
  holdTpp(page);
  await page.goto(link.toString());
  assert.equal(await page.locator("html").getAttribute("lang"), "es");
  await step(page, "payment-keyboard-es-1-login", false);
  const focused = async () =>
    page.evaluate("document.activeElement.id || document.activeElement.textContent");
  const order: unknown[] = [];
  for (let i = 0; i < 12 && !order.includes("login"); i++) {
    await page.keyboard.press("Tab");
    order.push(await focused());
  }
  assert.ok(order.includes("login"), `Tab reaches the login field: ${order.join(" → ")}`);
  await page.keyboard.type("alice");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "password");
  await page.keyboard.type("alice-demo");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/sca\/code$/);
  await page.keyboard.press("Tab");
  while (await focused() !== "code") await page.keyboard.press("Tab");
  await page.keyboard.type(await code("alice"));
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/sca\/review$/);
  await step(page, "payment-keyboard-es-2-review", false);
  assert.match(await page.locator("main").innerText(), /Importe/);
  await page.getByRole("button", { name: "Confirmar" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/sca\/done$/);
  await page.keyboard.press("Tab");
  for (let i = 0; i < 20 && await focused() !== "Volver a Demo TPP"; i++) {
    await page.keyboard.press("Tab");
  }
  assert.equal(await page.evaluate("document.activeElement.href"), OK_URI);
  // The page forwards itself without JavaScript too: a meta refresh is no script.
  assert.equal(await leaveForTpp(page, /^Volver a Demo TPP$/, OK_URI), "El pago se ha realizado.");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the audit itself catches what it is there for: an unlabelled field, faint text", async () => {
  const { page, context } = await chromium.context();
  await page.setContent(`<!doctype html><html lang="en"><title>bad</title><body><main>
<input name="login"><p style="color:#ccc;background:#fff">faint</p></main></body></html>`);
  const ids = (await axeViolations(page)).map((v) => v.id).sort();
  assert.deepEqual(ids, ["color-contrast", "label"]);
  await context.close();
});

test("dashboard: bob logs in, sees his consent and payment, revokes the consent, logs out", async () => {
  const http = bank.browser();
  const consentId = await authorisedConsent(bank.tpp, http, "bob", [BOB_MAIN]);
  const payment = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN, creditorName: "Stadtwerke" }));
  await confirm(http, await reachReview(http, payment.scaRedirect, "bob"));
  const { page, context, problems } = await chromium.context();
  await page.goto(`${bank.authUrl}/dashboard`);
  assert.equal(await page.locator("h1").innerText(), "Your consents at PSD2 Demo Bank");
  await step(page, "dashboard-1-login-en");
  await logIn(page, "bob", EN);
  await step(page, "dashboard-2-code-en");
  await page.getByLabel(EN.code).fill(await code("bob"));
  await page.getByRole("button", { name: "Continue" }).click();
  assert.match(await page.locator("main").innerText(), /Logged in as Bob Meyer/);
  assert.match(await page.locator("main").innerText(), /€12\.50 to Stadtwerke/);
  // A desktop's width used: the lists as two columns (issue 36).
  const columns = await page.evaluate(
    "getComputedStyle(document.querySelector('main > section > .cards')).gridTemplateColumns");
  assert.equal(String(columns).split(" ").length, 2, `two columns: ${String(columns)}`);
  await step(page, "dashboard-3-overview-en");

  const revoke = page.locator(`form:has(input[value="${consentId}"]) button`);
  assert.equal(await revoke.innerText(), "Revoke access for Demo TPP");
  await revoke.focus();
  const outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle");
  assert.equal(outline, "solid", "visible focus on the revoke button");
  await revoke.click();
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(),
    "Revoke the access of Demo TPP?");
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body?.consentStatus,
    "valid", "asking revokes nothing");
  await step(page, "dashboard-4-revoke-confirm-en");
  await page.getByRole("button", { name: "Yes, revoke the access" }).click();
  assert.match(await page.getByRole("status").innerText(), /The access has been revoked/);
  await step(page, "dashboard-4-revoked-en");
  const read = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(read.status, 401);
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body?.consentStatus, "revokedByPsu");

  await page.getByRole("button", { name: "Log out" }).click();
  assert.match(await page.getByRole("status").innerText(), /You have been logged out/);
  await page.goBack();
  await page.reload();
  assert.doesNotMatch(await page.locator("main").innerText(), /Bob Meyer/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("dashboard on a phone, in German: gina chooses her SMS device", async () => {
  const { page, context, problems } = await chromium.context({ ...PHONE, locale: "de-DE" });
  await page.goto(`${bank.authUrl}/dashboard`);
  await logIn(page, "gina", { login: "Anmeldename", password: "Passwort", button: "Anmelden" });
  assert.equal(new URL(page.url()).pathname, "/dashboard");
  await step(page, "dashboard-phone-de-1-device");
  await page.getByLabel(/SMS an/).check();
  await page.getByRole("button", { name: "Weiter" }).click();
  assert.match(await page.locator("main").innerText(), /SMS an \+49151/);
  await page.getByLabel("Autorisierungscode").fill((await lastSmsCode(bank.browser(), "gina")).code);
  await page.getByRole("button", { name: "Weiter" }).click();
  assert.match(await page.locator("main").innerText(), /Angemeldet als Gina Zweigeraet/);
  const width = await page.evaluate("document.documentElement.scrollWidth") as number;
  assert.ok(width <= 390, `no horizontal scrolling on a phone (${width}px)`);
  await step(page, "dashboard-phone-de-2-overview");
  assert.deepEqual(problems, []);
  await context.close();
});

const DE_LOGIN = { login: "Anmeldename", password: "Passwort", button: "Anmelden" };

test("dashboard in German with twelve payments: filters, page 1 of 2, the abandoned collapsed",
  async (t) => {
    const clock = manualClock(new Date());
    const own = await startOwnBank(t, { clock });
    await bobsPaymentHistory(own, clock);
    const { page, context, problems } = await chromium.context({ locale: "de-DE" });
    await page.goto(`${own.authUrl}/dashboard`);
    await logIn(page, "bob", DE_LOGIN);
    await page.getByLabel("Autorisierungscode").fill((await lastSmsCode(own.browser(), "bob")).code);
    await page.getByRole("button", { name: "Weiter" }).click();
    const filters = page.getByRole("navigation", { name: "Zahlungen anzeigen" }).getByRole("link");
    assert.deepEqual(await filters.allInnerTexts(), ["Alle", "Warten auf Freigabe",
      "Ausgeführt oder angenommen", "Abgelehnt oder storniert"]);
    assert.equal(await page.locator(".pager span").innerText(), "Seite 1 von 2");
    const abandoned = page.locator("details");
    assert.equal(await abandoned.locator("summary").innerText(),
      "Nicht abgeschlossen: nie freigegeben (1)");
    assert.equal(await abandoned.getAttribute("open"), null, "collapsed");
    const hidden = abandoned.locator("h3");
    assert.match(await hidden.textContent() ?? "", /^0,09\s€ an Merchant GmbH$/);
    assert.equal(await hidden.isVisible(), false, "out of the way until opened");
    await step(page, "dashboard-lists-de");
    await page.getByRole("link", { name: "Weiter" }).click();
    assert.equal(await page.locator(".pager span").innerText(), "Seite 2 von 2");
    await filters.filter({ hasText: "Abgelehnt oder storniert" }).click();
    assert.equal(await filters.filter({ hasText: "Abgelehnt" }).getAttribute("aria-current"),
      "page");
    const listed = await page.locator("main").innerText();
    assert.match(listed, /0,02\s€ an Merchant GmbH/);
    assert.doesNotMatch(listed, /0,1\d\s€ an/, "none awaiting authorisation");
    await step(page, "dashboard-lists-rejected-de");
    assert.deepEqual(problems, []);
    await context.close();
  });
