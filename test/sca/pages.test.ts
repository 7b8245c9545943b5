/**
 * The PSU's pages as a PSU sees them: labels and buttons in English and German, both kinds of
 * authorization device, cancel at every step, the review of the stored payment, and retries
 * after a wrong password or code.
 */
import assert from "node:assert/strict";
import { groupedIban } from "../../src/sca/format.js";
import { after, before, test } from "node:test";
import { totpAt } from "../../src/lib/totp.js";
import { csrfOf, type BrowserClient, type Page } from "../support/browser.js";
import {
  ALICE_MAIN, BOB_MAIN, bookings, cancel, confirm, consentBody, createConsent, createPayment,
  CREATION_HEADERS, enterCode, EXTERNAL_IBAN, forwardOf, linkOf, logIn, NOK_URI, OK_URI, open, paymentBody,
  reachReview, renewedWithoutCode, settled,
} from "../support/flows.js";
import { longDate } from "../../src/sca/format.js";
import { codeFor, demoPsu, lastSmsCode, WRONG_CODE, WRONG_LOGIN } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const STEPS = ["login", "code", "review"] as const;
type Step = (typeof STEPS)[number];

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The label text of the input named `name`, found through the label's `for`. */
function labelOf(html: string, name: string): string | undefined {
  const input = new RegExp(`<input [^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  const id = input && /\bid="([^"]+)"/.exec(input)?.[1];
  const label = id && new RegExp(`<label for="${id}">([\\s\\S]*?)</label>`).exec(html)?.[1];
  return label ? decode(label.replace(/<[^>]+>/g, "")) : undefined;
}

const buttons = (html: string) =>
  [...html.matchAll(/<button [^>]*>([^<]*)<\/button>/g)].map((m) => decode(m[1] ?? ""));

const errorText = (page: Page) =>
  decode(/<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(page.html)?.[1] ?? "");

/** The review's <dt>/<dd> pairs, as text. */
const reviewRows = (html: string) => Object.fromEntries([...html.matchAll(
  /<dt>([^<]*)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map((m) => [decode(m[1] ?? ""),
  decode((m[2] ?? "").replace(/<br>/g, " ").replace(/<[^>]+>/g, ""))]));

const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, "$1 ");

function withLang(scaRedirect: string, lang: string): string {
  const url = new URL(scaRedirect);
  url.searchParams.set("lang", lang);
  return url.toString();
}

const bobPayment = (tpp: TppClient) => createPayment(tpp, paymentBody({ debtorAccount: BOB_MAIN }));

/** Enters the PSU's current code on the code page and follows on to the next page. */
async function passCode(browser: BrowserClient, codePage: Page, login: string) {
  return browser.follow(await enterCode(browser, codePage, await codeFor(browser, login)));
}

/** Opens the link and walks the PSU to `step`; returns that step's page. */
async function pageAt(browser: BrowserClient, scaRedirect: string, login: string, step: Step) {
  const loginPage = await open(browser, scaRedirect);
  if (step === "login") return loginPage;
  const codePage = await browser.follow(await logIn(browser, loginPage, login, `${login}-demo`));
  if (step === "review" && renewedWithoutCode(codePage)) return codePage;
  assert.match(codePage.html, /name="code"/, codePage.html);
  if (step === "code") return codePage;
  const review = await passCode(browser, codePage, login);
  assert.match(review.html, /action="\/sca\/confirm"/, review.html);
  return review;
}

const paymentStatus = async (tpp: TppClient, paymentId: string) =>
  (await tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body?.transactionStatus as unknown;

const consentStatus = async (tpp: TppClient, consentId: string) =>
  (await tpp.get(`/psd2/v1/consents/${consentId}/status`)).body?.consentStatus as unknown;

const LABELS = {
  en: {
    login: "Login name", password: "Password", code: "Authorization code", logIn: "Log in",
    continue: "Continue", confirm: "Confirm", cancel: "Cancel",
  },
  de: {
    login: "Anmeldename", password: "Passwort", code: "Autorisierungscode", logIn: "Anmelden",
    continue: "Weiter", confirm: "Bestätigen", cancel: "Abbrechen",
  },
} as const;

for (const lang of ["en", "de"] as const) {
  test(`with lang=${lang} every page shows its labels and buttons in that language`, async () => {
    const l = LABELS[lang];
    const { scaRedirect } = await bobPayment(bank.tpp);
    const browser = bank.browser();
    const link = withLang(scaRedirect, lang);
    const login = await pageAt(browser, link, "bob", "login");
    assert.match(login.html, new RegExp(`<html lang="${lang}">`));
    assert.equal(labelOf(login.html, "login"), l.login);
    assert.equal(labelOf(login.html, "password"), l.password);
    assert.match(login.html, /<input [^>]*name="password" type="password"/);
    assert.deepEqual(buttons(login.html), [l.logIn, l.cancel]);

    const code = await browser.follow(await logIn(browser, login, "bob", "bob-demo"));
    assert.equal(labelOf(code.html, "code"), l.code);
    assert.equal(buttons(code.html)[0], l.continue);
    assert.equal(buttons(code.html).at(-1), l.cancel);

    const review = await passCode(browser, code, "bob");
    assert.deepEqual(buttons(review.html), [l.confirm, l.cancel]);
    assert.match(review.html, new RegExp(`<html lang="${lang}">`));
  });
}

test("the app's code page names the app once, in the page's language", async () => {
  const { scaRedirect } = await createPayment(bank.tpp);
  const browser = bank.browser();
  const code = await pageAt(browser, withLang(scaRedirect, "de"), "alice", "code");
  const hint = decode(/<p class="hint" id="code-hint">([^<]*)<\/p>/.exec(code.html)?.[1] ?? "");
  assert.equal(hint, "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.");
  assert.doesNotMatch(code.html, /Authenticator app/, "no English device name on a German page");
});

test("the consent review labels each account checkbox with its name and IBAN, in German too",
  async () => {
  const { scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const review = await pageAt(browser, withLang(scaRedirect, "de"), "bob", "review");
  assert.equal(labelOf(review.html, "account"), `Girokonto ${groupedIban(BOB_MAIN)}`);
  assert.match(review.html, new RegExp(`name="account" value="${BOB_MAIN}"`));
  assert.deepEqual(buttons(review.html), [LABELS.de.confirm, LABELS.de.cancel]);
});

test("alice authorises a payment with her authenticator app and it is executed", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp);
  const browser = bank.browser();
  const code = await pageAt(browser, scaRedirect, "alice", "code");
  assert.match(code.html, /authenticator app/);
  assert.doesNotMatch(code.html, /action="\/sca\/code\/resend"/);
  const review = await passCode(browser, code, "alice");
  const done = await confirm(browser, review);
  assert.equal(done.location, OK_URI);
  assert.equal(await paymentStatus(bank.tpp, paymentId), "ACSC");
});

test("bob gets an SMS naming the amount, payee and IBAN, and its code opens the review",
  async () => {
    const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
    const browser = bank.browser();
    const code = await pageAt(browser, scaRedirect, "bob", "code");
    assert.match(code.html, /SMS to \+49151/);
    const sms = await lastSmsCode(browser, "bob");
    assert.match(sms.text, /\b12\.50\b/);
    assert.ok(sms.text.includes("Merchant GmbH"), sms.text);
    assert.ok(sms.text.includes(groupedIban(EXTERNAL_IBAN)), sms.text);
    const review = await browser.follow(await enterCode(browser, code, sms.code));
    assert.match(review.html, /action="\/sca\/confirm"/, review.html);
    assert.equal(reviewRows(review.html).Amount, "€12.50");
    assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
  });

for (const step of STEPS) {
  test(`cancelling a payment on the ${step} page reads CANC and goes to the Nok URI`, async () => {
    const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
    const browser = bank.browser();
    const done = await cancel(browser, await pageAt(browser, scaRedirect, "bob", step));
    assert.equal(done.status, 200, done.html);
    assert.equal(done.outcome, "You cancelled. Nothing will be paid.");
    assert.equal(done.location, NOK_URI);
    assert.equal(await paymentStatus(bank.tpp, paymentId), "CANC");
    assert.equal(browser.hasSession(), true);
    const after = await browser.get("/sca/login");
    assert.equal(after.location, "/sca/done", "the session's steps end with the decision");
    assert.match((await browser.follow(after)).html,
      /<a class="button" href="https:\/\/tpp\.example\/nok">Back to Demo TPP/,
      "a way back to the TPP, to its Nok URI");
  });

  test(`cancelling a consent on the ${step} page reads rejected and returns to the Nok URI`,
    async () => {
      const { consentId, scaRedirect } = await createConsent(bank.tpp);
      const browser = bank.browser();
      const done = await cancel(browser, await pageAt(browser, scaRedirect, "bob", step));
      assert.equal(done.status, 200, done.html);
      assert.equal(done.outcome, "No access was given.");
      assert.equal(done.location, NOK_URI);
      assert.equal(await consentStatus(bank.tpp, consentId), "rejected");
    });
}

test("the review shows the payment as stored, whatever the confirm form sends back", async () => {
  const body = paymentBody({
    creditorName: "O'Brien (Shop)", instructedAmount: { currency: "EUR", amount: 42.5 },
    remittanceInformationUnstructured: "Invoice 2024/17",
  });
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
  const browser = bank.browser();
  const review = await pageAt(browser, scaRedirect, "alice", "review");
  const { "Available now": available, ...rows } = reviewRows(review.html);
  assert.deepEqual(rows, {
    Amount: "€42.50", Payee: "O'Brien (Shop)", "Payee IBAN": grouped(EXTERNAL_IBAN),
    Purpose: "Invoice 2024/17", Execution: "Today", Fees: "None",
    "Name check": "The name does not match the account holder at the payee's bank. The money may "
      + "go to someone other than you intend.",
    "From account": `Girokonto ${grouped(ALICE_MAIN)}`,
    "Requested by": "Demo TPP, registered under PSDDE-BAFIN-123456",
  });
  assert.match(available ?? "", /^€[\d,]+\.\d\d$/);
  assert.match(review.html, /O&#39;Brien/, "text is HTML-escaped");
  const done = await settled(browser, await browser.post("/sca/confirm", {
    _csrf: csrfOf(review.html), amount: "1.00", creditorName: "Someone Else",
    creditorAccount: ALICE_MAIN, vop_acknowledged: "yes",
  }));
  assert.equal(done.location, OK_URI);
  assert.equal(done.outcome, "The payment has been made.");
  assert.match(done.html, /€42\.50/);
  const details = (await bank.tpp.get(`/psd2/v1/payments/${paymentId}`)).body;
  assert.equal(details.instructedAmount.amount, "42.50");
  assert.equal(details.creditorName, "O'Brien (Shop)");
  assert.equal(details.creditorAccount.iban, EXTERNAL_IBAN);
  assert.equal(details.transactionStatus, "ACSC");
});

test("a second Confirm (a double click) leads to the first one's outcome, booked once", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } }));
  const browser = bank.browser();
  const review = await pageAt(browser, scaRedirect, "bob", "review");
  const first = await confirm(browser, review);
  const second = await confirm(browser, review);
  assert.equal(first.location, OK_URI);
  assert.equal(second.status, 200, second.html);
  assert.equal(second.outcome, "The payment has been made.", "not 'your session has ended'");
  assert.equal(second.location, OK_URI);
  const again = await browser.follow(await browser.get("/sca/review"));
  assert.match(again.html, /href="https:\/\/tpp\.example\/ok"/, "back means its OK URI now");
  assert.equal(await paymentStatus(bank.tpp, paymentId), "ACSC");
});

test("two Confirms at the same moment: both lead to the payment made, booked once", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } }));
  const browser = bank.browser();
  const review = await pageAt(browser, scaRedirect, "bob", "review");
  const both = await Promise.all([confirm(browser, review), confirm(browser, review)]);
  for (const [i, done] of both.entries()) {
    assert.equal(done.status, 200, `click ${i + 1}: ${done.html}`);
    assert.equal(done.outcome, "The payment has been made.", `click ${i + 1}`);
    assert.equal(done.location, OK_URI, `click ${i + 1}`);
  }
  assert.equal(await bookings(bank, paymentId), 1);
  assert.equal(await paymentStatus(bank.tpp, paymentId), "ACSC");
});

test("a used link leads back to the TPP: its Nok URI while pending, its OK URI once authorised",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
      debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } }));
    const browser = bank.browser();
    const codePage = await browser.follow(
      await logIn(browser, await open(browser, scaRedirect), "bob", "bob-demo"));
    const backLink = async () => {
      const again = await bank.browser().get(scaRedirect);
      assert.equal(again.status, 400);
      assert.match(errorText(again), /already been used/);
      return /<a class="button" href="([^"]+)">Back to the provider/.exec(again.html)?.[1];
    };
    assert.equal(await backLink(), NOK_URI);
    await confirm(browser, await passCode(browser, codePage, "bob"));
    assert.equal(await backLink(), OK_URI, "never the Nok URI for what succeeded");
    assert.equal(await paymentStatus(bank.tpp, paymentId), "ACSC");
  });

test("the result page says what became of it: a date ahead, a standing order, access until",
  async () => {
    const inFive = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const browser = bank.browser();
    const later = await createPayment(bank.tpp,
      paymentBody({ debtorAccount: BOB_MAIN, requestedExecutionDate: inFive }));
    const scheduled = await confirm(browser, await reachReview(browser, later.scaRedirect, "bob"));
    assert.equal(scheduled.outcome,
      `The payment is authorised and will be made on ${longDate(inFive, "en")}.`);
    assert.equal(scheduled.location, OK_URI);
    const order = await bank.tpp.post("/psd2/v1/periodic-payments/sepa-credit-transfers",
      { ...paymentBody({ debtorAccount: BOB_MAIN }), startDate: inFive, frequency: "Monthly" },
      CREATION_HEADERS);
    const orderLink = linkOf(bank.tpp, order.body._links.scaRedirect);
    const standing = await confirm(browser, await reachReview(browser, orderLink, "bob"));
    // A weekend or holiday start moves the first execution to the next business day.
    const stored = await bank.app.store.payments.find(bank.app.store.db, order.body.paymentId);
    assert.equal(standing.outcome, "The standing order is set up. The next payment is due on "
      + `${longDate(stored?.requestedExecutionDate ?? "", "en")}.`);
    const { scaRedirect } = await createConsent(bank.tpp);
    const given = await confirm(browser, await reachReview(browser, scaRedirect, "bob"), [BOB_MAIN]);
    assert.match(given.outcome ?? "",
      /^Demo TPP may now access the accounts you chose until \w+ \d{1,2}, \d{4}\.$/);
    assert.match(given.html, /<h1>Done<\/h1>/);
  });

test("with an overdraft the bank allows, a payment beyond the balance gets no warning",
  async (t) => {
    const own = await startOwnBank(t, { env: { OVERDRAFT_LIMIT_CENTS: "1000000" } });
    const body = paymentBody({
      debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "5000.00" } });
    const overdrawn = await reachReview(own.browser(), (await createPayment(own.tpp, body))
      .scaRedirect, "bob");
    assert.doesNotMatch(overdrawn.html, /class="warning"/);
    const tooMuch = paymentBody({
      debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "50000.00" } });
    const refused = await reachReview(own.browser(), (await createPayment(own.tpp, tooMuch))
      .scaRedirect, "bob");
    assert.match(refused.html, /class="warning" role="alert">This amount is more than/);
  });

test("a wrong password shows the generic error on the login form and a retry works", async () => {
  const { scaRedirect } = await bobPayment(bank.tpp);
  const browser = bank.browser();
  const login = await pageAt(browser, scaRedirect, "bob", "login");
  const wrong = await logIn(browser, login, "bob", "nope");
  assert.equal(wrong.status, 401);
  assert.match(errorText(wrong), WRONG_LOGIN);
  assert.equal(labelOf(wrong.html, "login"), "Login name");
  assert.equal(labelOf(wrong.html, "password"), "Password");
  assert.match(wrong.html, /<input id="login" name="login"[^>]* value="bob"/, "the login is kept");
  assert.doesNotMatch(wrong.html, /name="password"[^>]* value=/, "the password is not");
  const unknown = await logIn(browser, wrong, "nobody", "bob-demo");
  assert.equal(unknown.status, 401);
  assert.match(errorText(unknown), WRONG_LOGIN, "an unknown login reads the same");
  const right = await logIn(browser, unknown, "bob", "bob-demo");
  assert.equal(right.status, 303, right.html);
  assert.equal(right.location, "/sca/code");
});

/** A six-digit code that is not a TOTP code of the PSU's app anywhere near now. */
function wrongTotp(login: string): string {
  const { device } = demoPsu(login);
  assert.equal(device.kind, "totp");
  const secret = device.kind === "totp" ? device.secret : "";
  const near = [-2, -1, 0, 1, 2].map((d) => totpAt(secret, Date.now() + d * 30_000));
  return ["000000", "111111", "222222"].find((c) => !near.includes(c)) ?? "333333";
}

test("a wrong code shows the same generic error and a retry with the right code works",
  async () => {
    const { scaRedirect } = await createPayment(bank.tpp);
    const browser = bank.browser();
    const code = await pageAt(browser, scaRedirect, "alice", "code");
    const wrong = await enterCode(browser, code, wrongTotp("alice"));
    assert.equal(wrong.status, 401);
    assert.match(errorText(wrong), WRONG_CODE);
    assert.equal(labelOf(wrong.html, "code"), "Authorization code");
    const right = await enterCode(browser, wrong, await codeFor(browser, "alice"));
    assert.equal(right.status, 303, right.html);
    assert.equal(right.location, "/sca/review");
  });

test("without a TPP-Nok-Redirect-URI cancel returns to the TPP-Redirect-URI", async () => {
  const noNok = { "TPP-Nok-Redirect-URI": null };
  const payment = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }), noNok);
  assert.equal(new URL(payment.scaRedirect).searchParams.get("failureUrl"), OK_URI);
  const browser = bank.browser();
  const loginPage = await pageAt(browser, payment.scaRedirect, "bob", "login");
  const cancelled = await cancel(browser, loginPage);
  assert.equal(cancelled.location, OK_URI);
  assert.equal(await paymentStatus(bank.tpp, payment.paymentId), "CANC");

  const consent = await createConsent(bank.tpp, consentBody(), noNok);
  const other = bank.browser();
  const refused = await cancel(other, await pageAt(other, consent.scaRedirect, "bob", "review"));
  assert.equal(refused.location, OK_URI);
  assert.equal(await consentStatus(bank.tpp, consent.consentId), "rejected");
});

test("a TPP-Redirect-URI with & and ' in its query comes back exactly, escaped in the page",
  async () => {
    const uri = "https://tpp.example/ok?order=1&note=o'clock&x=%20";
    const { scaRedirect } = await createPayment(bank.tpp, paymentBody(),
      { "TPP-Redirect-URI": uri });
    const browser = bank.browser();
    const posted = await browser.post("/sca/confirm",
      { _csrf: csrfOf((await reachReview(browser, scaRedirect, "alice")).html) });
    const result = await browser.follow(posted);
    assert.match(result.html, /content="2;url=https:\/\/tpp\.example\/ok\?order=1&#38;note=o&#39;clock&#38;x=%20">/);
    assert.equal(forwardOf(result)?.url, uri);
  });
