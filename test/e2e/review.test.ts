/**
 * The payment review in a real chromium, as a bank's own online banking shows it: the amount
 * stands out and is written the language's way, the payee's and the debtor's IBANs in groups of
 * four, when it executes, the fees, the debit account's name and what it holds, and a warning
 * before Confirm when the bank would refuse the payment for want of money. And the pages around
 * it: the result in English and German, a double click on Confirm, the site's root and an unknown
 * path (pages in the PSU's language, never JSON), the error pages' way back to the TPP, and the
 * footer on every page.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import {
  axeViolations, holdTpp, leaveForTpp, screenshot, type RealBrowser,
} from "../support/chromium.js";
import {
  BOB_MAIN, bookings, createPayment, EXTERNAL_IBAN, NOK_URI, OK_URI, paymentBody,
} from "../support/flows.js";
import { translator } from "../../src/sca/messages/index.js";
import { longDate } from "../../src/sca/format.js";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";
import { manualClock } from "../../src/lib/clock.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const LABELS = {
  en: { login: "Login name", password: "Password", button: "Log in", code: "Authorization code",
    next: "Continue" },
  de: { login: "Anmeldename", password: "Passwort", button: "Anmelden", code: "Autorisierungscode",
    next: "Weiter" },
};

const GERMAN = { "PSU-Accept-Language": "de-DE" };
const INSTANT = "instant-sepa-credit-transfers";
/** The review's "what happens next", as the catalogue of `lang` words it for the demo TPP. */
const nextHint = (lang: string) => translator(lang)("review_next", { tpp: "Demo TPP" });

/**
 * Logs `login` in on the link's pages (in the language the TPP asked for) and enters its code:
 * the page is then at the review. `on` is the bank, the file's own unless a test started one.
 */
async function toReview(
  page: Page, scaRedirect: string, login: string, lang: "en" | "de", on: TestBank = bank,
  atCode?: () => Promise<void>,
) {
  const labels = LABELS[lang];
  await page.goto(scaRedirect);
  await page.getByLabel(labels.login).fill(login);
  await page.getByLabel(labels.password).fill(`${login}-demo`);
  await page.getByRole("button", { name: labels.button }).click();
  const psu = demoPsu(login);
  const client = on.browser();
  const code = psu.device.kind === "totp"
    ? await nextTotp(psu.device.secret, client.authUrl) : (await lastSmsCode(client, login)).code;
  await atCode?.();
  await page.getByLabel(labels.code).fill(code);
  await page.getByRole("button", { name: labels.next }).click();
  await page.waitForURL(/\/sca\/review/);
}

/** The review's rows, label to shown text (whitespace as a reader sees it). */
async function rows(page: Page): Promise<Record<string, string>> {
  const pairs = await page.evaluate(`[...document.querySelectorAll(".review dt")]
    .map((dt) => [dt.textContent, dt.nextElementSibling.innerText])`) as [string, string][];
  return Object.fromEntries(pairs.map(([k, v]) => [k, v.replace(/\s+/g, " ").trim()]));
}

const fontSize = async (page: Page, selector: string) => parseFloat(String(await page.evaluate(
  `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).fontSize`)));

/**
 * One visual hierarchy: the warning before Confirm, the amount at least 1.5 times the other
 * rows' type, and Cancel (`cancel` in the page's language) a secondary action.
 */
async function assertHierarchy(page: Page, cancel: string): Promise<void> {
  const order = await page.evaluate(`document.querySelector('.warning')
    .compareDocumentPosition(document.querySelector('form[action="/sca/confirm"]'))`);
  assert.equal(Number(order) & 4, 4, "the warning comes before Confirm");
  const others = await fontSize(page, ".review dd:not(.amount)");
  assert.ok(await fontSize(page, ".review dd.amount") >= 1.5 * others, "the amount stands out");
  const button = page.getByRole("button", { name: cancel });
  assert.equal(await button.getAttribute("class"), "secondary");
}

/** The groups of four of every IBAN on the page that the layout splits over two lines. */
const SPLIT_GROUPS = `[...document.querySelectorAll(".review .iban")].flatMap((span) => {
  const text = span.firstChild;
  return [...text.data.matchAll(/\\S+/g)].filter((match) => {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
  }).map((match) => match[0]);
})`;

test("bob's review says what his Girokonto holds and warns before Confirm: 5,000 EUR is too much",
  async () => {
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
      debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "5000.00" } }));
    const { page, context, problems } = await chromium.context();
    holdTpp(page);
    await toReview(page, scaRedirect, "bob", "en");
    const shown = await rows(page);
    assert.equal(shown.Amount, "€5,000.00");
    assert.equal(shown["Payee IBAN"], "DE89 3704 0044 0532 0130 00");
    assert.equal(shown.Execution, "Today");
    assert.equal(shown.Fees, "None");
    assert.equal(shown["Requested by"], "Demo TPP, registered under PSDDE-BAFIN-123456",
      "the TPP's name and its authorisation number from its certificate");
    assert.equal(shown["From account"], "Girokonto DE51 5001 0000 2000 0000 01");
    assert.match(shown["Available now"] ?? "", /^-?€[\d,]+\.\d\d$/);
    assert.match(await page.locator(".warning").innerText(), /more than the account can pay now/);
    await assertHierarchy(page, "Cancel");
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "payment-review-insufficient-en");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(/\/sca\/done$/);
    assert.equal(await page.locator("h1").innerText(), "Not carried out");
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "payment-result-refused-en");
    assert.equal(await leaveForTpp(page, /^Back to Demo TPP$/, OK_URI),
      "The bank did not make this payment: the account does not hold enough money, overdraft "
      + "included. No money has left your account.", "never 'success' for what the bank refused");
    assert.deepEqual(problems, []);
    await context.close();
  });

test("in German alice's instant 98.765,43 € reads as a German bank writes it; refused in German",
  async () => {
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
      instructedAmount: { currency: "EUR", amount: "98765.43" } }), GERMAN, INSTANT);
    const { page, context, problems } = await chromium.context({ locale: "de-DE" });
    holdTpp(page);
    await toReview(page, scaRedirect, "alice", "de");
    const shown = await rows(page);
    assert.equal(shown.Betrag, "98.765,43 €");
    assert.equal(shown["IBAN des Empfängers"], EXTERNAL_IBAN.replace(/(.{4})(?=.)/g, "$1 "));
    assert.equal(shown.Ausführung, "Sofort, in Sekunden");
    assert.equal(shown.Entgelte, "Keine");
    assert.equal(shown["Angefragt von"], "Demo TPP, zugelassen unter PSDDE-BAFIN-123456");
    assert.equal(shown["Von Konto"], "Girokonto DE96 5001 0000 1000 0000 01");
    assert.match(shown["Jetzt verfügbar"] ?? "", /^-?[\d.]+,\d\d €$/);
    assert.match(await page.locator(".warning").innerText(), /lehnt die Bank die Zahlung ab/);
    assert.equal(await page.locator("main p.hint").innerText(), nextHint("de"));
    await assertHierarchy(page, "Abbrechen");
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole("button", { name: "Bestätigen" }).click();
    await page.waitForURL(/\/sca\/done$/);
    assert.equal(await page.locator("h1").innerText(), "Nicht ausgeführt");
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "payment-result-refused-de");
    assert.equal(await leaveForTpp(page, /^Zurück zu Demo TPP$/, OK_URI),
      "Die Bank hat diese Zahlung nicht ausgeführt: das Konto ist nicht ausreichend gedeckt, "
      + "Dispositionskredit eingerechnet. Es wurde kein Geld von Ihrem Konto abgebucht.");
    await context.close();
    assert.deepEqual(problems, []);
  });

test("in German a payment for a date ahead shows that date, and the result says it is scheduled",
  async () => {
    const inFive = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
      debtorAccount: BOB_MAIN, requestedExecutionDate: inFive }), GERMAN);
    const { page, context, problems } = await chromium.context({ locale: "de-DE" });
    holdTpp(page);
    await toReview(page, scaRedirect, "bob", "de");
    assert.equal((await rows(page)).Ausführung, longDate(inFive, "de"));
    assert.match(longDate(inFive, "de"), /^\d{1,2}\. \p{L}+ \d{4}$/u, "the long date, in German");
    assert.equal(await page.locator("main p.hint").innerText(), nextHint("de"));
    await page.getByRole("button", { name: "Bestätigen" }).click();
    await page.waitForURL(/\/sca\/done$/);
    assert.equal(await page.locator("h1").innerText(), "Erledigt");
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "payment-result-scheduled-de");
    assert.equal(await leaveForTpp(page, /^Zurück zu Demo TPP$/, OK_URI),
      `Die Zahlung ist freigegeben und wird am ${longDate(inFive, "de")} ausgeführt.`);
    await context.close();
    assert.deepEqual(problems, []);
  });

test("on a phone an IBAN wraps between its groups of four, never inside one", async () => {
  const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } }), GERMAN);
  const { page, context } = await chromium.context({
    viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true,
  });
  await toReview(page, scaRedirect, "bob", "de");
  assert.equal((await rows(page)).Ausführung, "Heute");
  assert.equal(await page.locator(".review .iban").count(), 2);
  const broken = await page.evaluate(SPLIT_GROUPS);
  assert.deepEqual(broken, []);
  assert.equal(await page.locator(".warning").count(), 0, "0,01 € is within bob's means");
  const width = await page.evaluate("document.documentElement.scrollWidth") as number;
  assert.ok(width <= 320, `no horizontal scrolling (${width}px)`);
  // Confirm and Cancel in a bar pinned to the bottom of the screen, in reach before scrolling.
  await page.evaluate("window.scrollTo(0, 0)");
  for (const name of ["Bestätigen", "Abbrechen"]) {
    const box = await page.getByRole("button", { name }).boundingBox();
    assert.ok(box && box.y + box.height <= 640, `${name} on screen at the top (${box?.y})`);
  }
  assert.ok(await page.evaluate(
    "document.documentElement.scrollHeight > innerHeight") as boolean, "a review longer than one screen");
  await screenshot(page, "payment-review-phone-de");
  await context.close();
});

for (const [locale, heading, notFound, imprint, never] of [
  ["en-GB", "Your consents and payments", "This page does not exist.", "Imprint", "never asks"],
  ["de-DE", "Ihre Zustimmungen und Zahlungen", "Diese Seite gibt es nicht.", "Impressum",
    "fragt Sie nie"],
] as const) {
  test(`in ${locale} the site root and an unknown path are pages with a way on and a footer`,
    async () => {
      const { page, context, problems } = await chromium.context({ locale });
      const root = await page.goto(new URL("/", bank.authUrl).href);
      assert.equal(root?.status(), 200);
      assert.equal(await page.locator("h1").innerText(), "PSD2 Demo Bank");
      assert.equal(await page.getByRole("link", { name: heading }).getAttribute("href"),
        "/dashboard");
      const footer = page.locator("footer");
      assert.equal(await footer.getByRole("link", { name: imprint }).getAttribute("href"),
        "https://psd2-bank.example/imprint");
      assert.equal(await footer.getByRole("link").count(), 3, "imprint, privacy, help");
      assert.match(await footer.innerText(), new RegExp(`PSD2 Demo Bank ${never}`));
      assert.deepEqual(await axeViolations(page), []);
      const unknown = await page.goto(new URL("/no/such/page", bank.authUrl).href);
      assert.equal(unknown?.status(), 404);
      assert.match(unknown?.headers()["content-type"] ?? "", /^text\/html/);
      assert.match(await page.getByRole("alert").innerText(), new RegExp(notFound));
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(problems, []);
      await context.close();
    });
}

/** Verification of Payee against the demo directory (docs/tpp-guide.md): one payee per outcome. */
const VOP_CASES = [
  ["match", "DE79100500000190000001", "Stadtwerke Musterstadt GmbH", /^✓ The name matches/],
  ["close", "DE79100500000190000001", "Stadtwerke Musterstad GmbH",
    /holds the name “Stadtwerke Musterstadt GmbH” for this account\. Is this the payee you intend\?/],
  ["no-match", "DE79100500000190000001", "Mallory Fraud", /^The name does not match/],
  ["not-possible", "DE42200400000190000003", "Anyone", /^The payee's bank could not check/],
] as const;

test("the review says the payee check's outcome before Confirm, each outcome accessible",
  async () => {
    const { page, context, problems } = await chromium.context();
    for (const [outcome, iban, name, text] of VOP_CASES) {
      const { scaRedirect } = await createPayment(bank.tpp, paymentBody({
        debtorAccount: BOB_MAIN, creditorAccount: { iban }, creditorName: name }));
      await toReview(page, scaRedirect, "bob", "en");
      assert.match((await rows(page))["Name check"] ?? "", text, outcome);
      assert.deepEqual(await axeViolations(page), [], outcome);
      await screenshot(page, `payment-review-vop-${outcome}-en`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

test("no match: Confirm goes nowhere until the PSU ticks that the money may go to someone else",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
      debtorAccount: BOB_MAIN, creditorAccount: { iban: "DE79100500000190000001" },
      creditorName: "Mallory Fraud", instructedAmount: { currency: "EUR", amount: "0.01" } }));
    const { page, context, problems } = await chromium.context({ locale: "de-DE" });
    holdTpp(page);
    await toReview(page, scaRedirect.replace("lang=en", "lang=de"), "bob", "de");
    const confirm = page.getByRole("button", { name: "Bestätigen" });
    await confirm.click();
    assert.match(page.url(), /\/sca\/review/, "the required tick holds the form back");
    const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(status.body.transactionStatus, "RCVD");
    await page.getByLabel(/Mir ist bewusst, dass das Geld an jemand anderen/).check();
    await screenshot(page, "payment-review-vop-no-match-ticked-de");
    await confirm.click();
    assert.equal(await leaveForTpp(page, /^Zurück zu Demo TPP$/, OK_URI),
      "Die Zahlung wurde ausgeführt.");
    const done = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(done.body.transactionStatus, "ACSC");
    assert.deepEqual(problems, []);
    await context.close();
  });

test("an instant payment says so and what happens next; a double click on Confirm ends on Done",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
      debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } }), {},
    INSTANT);
    const { page, context, problems } = await chromium.context();
    holdTpp(page);
    await toReview(page, scaRedirect, "bob", "en");
    assert.equal((await rows(page)).Execution, "Instant, within seconds");
    assert.equal(await page.locator("main p.hint").innerText(), nextHint("en"));
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    // The second click lands once the first's post has left and before its answer: chromium
    // drops a second submission made before the first's request starts.
    const button = page.getByRole("button", { name: "Confirm" });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    assert.ok(box);
    const at = [box.x + box.width / 2, box.y + box.height / 2] as const;
    const sent = page.waitForRequest((request) => request.method() === "POST");
    // Not waitForURL: the second click aborts the first's navigation, which it would report.
    const result = page.waitForResponse((answer) => answer.url().endsWith("/sca/done"));
    await page.mouse.click(...at);
    await sent;
    await page.mouse.click(...at);
    await result;
    await page.waitForURL(/\/sca\/done$/);
    assert.deepEqual(posts, ["/sca/confirm", "/sca/confirm"], "the browser sent both clicks");
    assert.equal(await page.locator("h1").innerText(), "Done", "never 'your session has ended'");
    assert.equal(await leaveForTpp(page, /^Back to Demo TPP$/, OK_URI),
      "The payment has been made.");
    assert.equal(await bookings(bank, paymentId), 1);
    const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(status.body.transactionStatus, "ACSC");
    assert.deepEqual(problems, []);
    await context.close();
  });

const IMPRINT = "https://bank.example/impressum";

/** The footer every page carries: the bank's three links (the imprint configured) and its hint. */
async function assertFooter(page: Page, lang: string, where: string): Promise<void> {
  const t = translator(lang);
  const footer = page.locator("footer");
  const links = await footer.getByRole("link").evaluateAll((all) =>
    all.map((a) => [a.textContent, a.getAttribute("href")]));
  assert.deepEqual(links, [[t("footer_imprint"), IMPRINT],
    [t("footer_privacy"), "https://psd2-bank.example/privacy"],
    [t("footer_help"), "https://psd2-bank.example/help"]], where);
  assert.equal(await footer.locator(".security").innerText(),
    t("footer_security", { bank: "PSD2 Demo Bank" }), where);
}

/**
 * An error page that is no dead end: its message, a way back to the TPP's `uri`, zero axe
 * violations and the footer.
 */
async function assertWayBack(page: Page, lang: string, message: string, uri: string) {
  const t = translator(lang);
  assert.equal(await page.getByRole("alert").innerText(), message);
  const back = page.getByRole("link", { name: t("back_to_tpp", { tpp: t("unknown_tpp") }) });
  assert.equal(await back.getAttribute("href"), uri, message);
  assert.deepEqual(await axeViolations(page), [], message);
  await assertFooter(page, lang, message);
}

for (const [lang, locale] of [["en", "en-GB"], ["de", "de-DE"]] as const) {
  test(`in ${lang}: the footer on every page, the daily limit said, error pages lead back`,
    async (t) => {
      const clock = manualClock(new Date());
      const own = await startOwnBank(t, { clock, env: {
        BANK_IMPRINT_URL: IMPRINT, DAILY_PAYMENT_LIMIT_CENTS: "100" } });
      const tr = translator(lang);
      const body = paymentBody({ debtorAccount: BOB_MAIN,
        instructedAmount: { currency: "EUR", amount: "2.00" } });
      const headers = { "PSU-Accept-Language": locale };
      const over = await createPayment(own.tpp, body, headers);
      const later = await createPayment(own.tpp, body, headers);
      const { page, context, problems } = await chromium.context({ locale });
      holdTpp(page);
      await page.goto(over.scaRedirect);
      await assertFooter(page, lang, "login");
      await toReview(page, over.scaRedirect, "bob", lang, own,
        () => assertFooter(page, lang, "code"));
      await assertFooter(page, lang, "review");
      await page.getByRole("button", { name: tr("button_confirm") }).click();
      await page.waitForURL(/\/sca\/done$/);
      assert.equal(await page.locator("#outcome").innerText(),
        tr("result_rejected", { reason: tr("reason_limit_exceeded") }), "the limit is said");
      assert.deepEqual(await axeViolations(page), []);
      await assertFooter(page, lang, "result");
      await page.goto(over.scaRedirect);
      await assertWayBack(page, lang, tr("error_link_used"), OK_URI);
      // Past the session's 5 idle minutes and the link's 10.
      clock.advance(11 * 60_000);
      await page.goto(new URL("/sca/done", own.authUrl).href);
      // The authorisation succeeded (the bank refused the booking, not the PSU): the OK URI.
      await assertWayBack(page, lang, tr("error_session_expired", { tpp: tr("unknown_tpp") }),
        OK_URI);
      await page.goto(later.scaRedirect);
      await assertWayBack(page, lang, tr("error_link_invalid"), NOK_URI);
      await page.goto(new URL("/dashboard", own.authUrl).href);
      await assertFooter(page, lang, "dashboard login");
      const status = await own.tpp.get(`/psd2/v1/payments/${over.paymentId}/status`);
      assert.equal(status.body.transactionStatus, "RJCT");
      assert.deepEqual(problems, []);
      await context.close();
    });
}
