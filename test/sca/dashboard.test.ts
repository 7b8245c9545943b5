/**
 * The PSU's own consent dashboard over HTTP: login with both factors under the authorisation's
 * rules (CSRF, failure counting, blocking, idle limit), only the PSU's own consents and payments,
 * revoke with its effect on the TPP's next call, logout.
 */
import assert from "node:assert/strict";
import { get } from "node:https";
import { after, before, test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { csrfOf, errorText, type Page } from "../support/browser.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, BOB_MAIN, CAROL_MAIN, confirm, createPayment, logIn, open,
  paymentBody,
  reachReview,
} from "../support/flows.js";
import { cookieOf, lastSmsCode, logInDashboard, wrongLogin } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const COOKIE = "__Host-psd2-dashboard";
const MINUTE = 60_000;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const ownBank = startOwnBank;
const noticeText = (page: Page) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.html)?.[1] ?? "";
/** The consent ids the page offers to revoke. */
const revocable = (page: Page) => [...page.html.matchAll(/name="consent" value="([^"]+)"/g)].map((m) => m[1]).sort();

const consentStatus = async (tpp: TppClient, id: string) =>
  (await tpp.get(`/psd2/v1/consents/${id}/status`)).body?.consentStatus as unknown;

const readAccounts = (tpp: TppClient, consentId: string) =>
  tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });

/** GET with only the given dashboard cookie (a stolen or old one). */
function pageWithCookie(path: string, cookie: string): Promise<{ status: number; html: string }> {
  return new Promise((resolve, reject) => {
    get(new URL(path, bank.authUrl), { ca: bank.ca, headers: { Cookie: `${COOKIE}=${cookie}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, html: Buffer.concat(chunks).toString("utf8") }));
    }).on("error", reject);
  });
}

test("the dashboard logs in with password and SMS code: strict headers, cookie renewed after each factor", async () => {
  const browser = bank.browser();
  const start = await browser.get("/dashboard");
  assert.equal(start.status, 200);
  assert.match(start.html, /action="\/dashboard\/login"/);
  const csp = String(start.headers["content-security-policy"]);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /form-action 'self'; /);
  assert.equal(start.headers["cache-control"], "no-store");
  const first = cookieOf(start) ?? "";
  assert.match(first, /; Secure; HttpOnly; SameSite=Strict/);

  const forged = await browser.post("/dashboard/login", { _csrf: "forged", login: "bob", password: "bob-demo" });
  assert.equal(forged.status, 403);
  const password = await browser.post("/dashboard/login", { _csrf: csrfOf(start.html), login: "bob", password: "bob-demo" });
  assert.equal(password.status, 303);
  assert.notEqual(cookieOf(password), undefined);
  assert.notEqual(cookieOf(password), first, "a new session id after the password");
  const code = await browser.follow(password);
  assert.match(code.html, /We sent a 6-digit code by SMS to \+49151••••••02/);
  const sms = await lastSmsCode(browser, "bob");
  assert.match(sms.text, /opens your consent overview/);
  const wrong = await browser.post("/dashboard/code", { _csrf: csrfOf(code.html), code: "000000" });
  assert.equal(wrong.status, 401);
  assert.match(wrong.html, /aria-describedby="code-hint form-error" aria-invalid="true"/);
  const done = await browser.post("/dashboard/code", { _csrf: csrfOf(wrong.html), code: sms.code });
  assert.equal(done.status, 303);
  assert.notEqual(cookieOf(done), cookieOf(password), "a new session id after the code");
  const page = await browser.follow(done);
  assert.match(page.html, /Logged in as Bob Meyer\./);
  // The old cookie of the password step opens nothing.
  const old = /^[^=]+=([^;]*)/.exec(cookieOf(password) ?? "")?.[1] ?? "";
  assert.doesNotMatch((await pageWithCookie("/dashboard", old)).html, /Bob Meyer/);
});

test("the dashboard lists every consent and TPP payment of this PSU, never another PSU's", async () => {
  const other = await bank.tppWith({ name: "Budget App GmbH", organizationIdentifier: "PSDDE-BAFIN-424242" });
  const browser = bank.browser();
  const demoConsent = await authorisedConsent(bank.tpp, browser, "bob", [BOB_MAIN]);
  const otherConsent = await authorisedConsent(other, browser, "bob", [BOB_MAIN]);
  const carolConsent = await authorisedConsent(bank.tpp, browser, "carol", [CAROL_MAIN]);
  const carolPayment = await createPayment(bank.tpp, paymentBody({ debtorAccount: CAROL_MAIN, creditorName: "Carols Shop" }));
  // First, so that bob's own payment is covered whatever his demo history left him today.
  const toBob = await createPayment(bank.tpp, paymentBody({
    debtorAccount: CAROL_MAIN, creditorAccount: BOB_MAIN, creditorName: "Carol to Bob" }));
  assert.equal((await confirm(browser, await reachReview(browser, toBob.scaRedirect, "carol"))).status, 200);
  const payment = await createPayment(bank.tpp, paymentBody({
    debtorAccount: BOB_MAIN, creditorName: "Stadtbibliothek", instructedAmount: { currency: "EUR", amount: 7.25 } }));
  assert.equal((await confirm(browser, await reachReview(browser, payment.scaRedirect, "bob"))).status, 200);
  // Not yet authorised, but from bob's account: his bank shows it to him.
  await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN, creditorName: "Open Invoice" }));

  const page = await logInDashboard(bank.browser(), "bob");
  assert.deepEqual(revocable(page), [demoConsent, otherConsent].sort());
  assert.match(page.html, /Access for Budget App GmbH/);
  assert.match(page.html, /Revoke access for Budget App GmbH/);
  assert.match(page.html, new RegExp(`${BOB_MAIN.replace(/(.{4})(?=.)/g, "$1 ")}</span> · shares: account details, balances, transactions`));
  assert.match(page.html, /<dt>Valid until<\/dt><dd>[A-Z][a-z]+ \d{1,2}, \d{4}<\/dd>/);
  assert.match(page.html, /<dt>Last used<\/dt><dd>/);
  assert.match(page.html, /<dt>Status<\/dt><dd>active<\/dd>/);
  assert.match(page.html, /€7\.25 to Stadtbibliothek/);
  assert.match(page.html, /<dt>Status<\/dt><dd>executed<\/dd>|<dt>Status<\/dt><dd>accepted, in progress<\/dd>/);
  assert.match(page.html, /€12\.50 to Open Invoice<\/h3>[\s\S]*?<dd>awaiting authorisation<\/dd>/);
  for (const foreign of [carolConsent, CAROL_MAIN, "Carols Shop", "Carol to Bob", carolPayment.paymentId, ALICE_MAIN]) {
    assert.ok(!page.html.includes(foreign), `bob's dashboard shows ${foreign}`);
  }
});

test("revoke: CSRF required, another PSU's consent refused, the own one is revokedByPsu at once", async () => {
  const browser = bank.browser();
  const bobConsent = await authorisedConsent(bank.tpp, browser, "bob", [BOB_MAIN]);
  const carolConsent = await authorisedConsent(bank.tpp, browser, "carol", [CAROL_MAIN]);
  assert.equal((await readAccounts(bank.tpp, bobConsent)).status, 200);
  const psu = bank.browser();
  const page = await logInDashboard(psu, "bob");

  const forged = await psu.post("/dashboard/revoke", { _csrf: "forged", consent: bobConsent });
  assert.equal(forged.status, 403);
  const foreign = await psu.post("/dashboard/revoke", { _csrf: csrfOf(page.html), consent: carolConsent });
  assert.equal(foreign.status, 400);
  assert.equal(errorText(foreign), "This access cannot be revoked: it has already ended.");
  assert.equal(await consentStatus(bank.tpp, carolConsent), "valid");
  assert.equal(await consentStatus(bank.tpp, bobConsent), "valid");

  const revoked = await psu.post("/dashboard/revoke", { _csrf: csrfOf(page.html), consent: bobConsent });
  assert.equal(revoked.status, 303);
  const after = await psu.follow(revoked);
  assert.equal(noticeText(after), "The access has been revoked. The provider can no longer read your accounts with it.");
  assert.ok(!revocable(after).includes(bobConsent));
  assert.match(after.html, /<dd>revoked by you<\/dd>/);
  assert.equal(await consentStatus(bank.tpp, bobConsent), "revokedByPsu");
  const read = await readAccounts(bank.tpp, bobConsent);
  assert.equal(read.status, 401);
  assert.equal(read.body?.tppMessages?.[0]?.code, "CONSENT_INVALID");
  assert.equal((await readAccounts(bank.tpp, carolConsent)).status, 200, "carol's consent still works");

  const again = await psu.post("/dashboard/revoke", { _csrf: csrfOf(after.html), consent: bobConsent });
  assert.equal(again.status, 400);
});

test("a revoke without a logged-in session changes nothing", async () => {
  const consent = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  const stranger = bank.browser();
  const start = await stranger.get("/dashboard");
  const refused = await stranger.post("/dashboard/revoke", { _csrf: csrfOf(start.html), consent });
  assert.equal(refused.status, 303);
  assert.equal(refused.location, "/dashboard");
  const none = await bank.browser().post("/dashboard/revoke", { _csrf: "x", consent });
  assert.equal(none.location, "/dashboard?done=expired");
  assert.equal(await consentStatus(bank.tpp, consent), "valid");
});

test("logout ends the session: its cookie opens the login page, not the dashboard", async () => {
  const browser = bank.browser();
  const page = await logInDashboard(browser, "bob");
  assert.match((await pageWithCookie("/dashboard", page.secret)).html, /Logged in as Bob Meyer/);
  assert.equal(cookieOf(await browser.get("/dashboard")), undefined, "no new cookie while logged in");
  const out = await browser.post("/dashboard/logout", { _csrf: csrfOf(page.html) });
  assert.equal(out.status, 303);
  assert.match(cookieOf(out) ?? "", /Max-Age=0/);
  const after = await browser.follow(out);
  assert.equal(noticeText(after), "You have been logged out.");
  assert.match(after.html, /action="\/dashboard\/login"/);
  const replay = await pageWithCookie("/dashboard", page.secret);
  assert.doesNotMatch(replay.html, /Bob Meyer/, "the logged-out session is gone on the server");
  assert.match(replay.html, /action="\/dashboard\/login"/);
});

test("failed dashboard logins count with the authorisation's: the limit blocks the PSU", async (t) => {
  const own = await ownBank(t, { env: { LOGIN_FAILURES_MAX: "3" } });
  const browser = own.browser();
  let page = await browser.get("/dashboard");
  for (let i = 0; i < 2; i++) {
    page = await browser.post("/dashboard/login", { _csrf: csrfOf(page.html), login: "bob", password: "wrong" });
    assert.equal(page.status, 401);
    assert.equal(errorText(page), wrongLogin(2 - i));
    assert.match(page.html, /aria-describedby="form-error" aria-invalid="true"/);
  }
  // The third failure, in the authorisation flow, blocks the dashboard too.
  const { scaRedirect } = await createPayment(own.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
  const flow = own.browser();
  assert.equal((await logIn(flow, await open(flow, scaRedirect), "bob", "nope")).status, 401);
  page = await browser.post("/dashboard/login", { _csrf: csrfOf(page.html), login: "bob", password: "bob-demo" });
  assert.equal(page.status, 401);
  assert.equal(errorText(page), "Too many failed attempts: access is blocked for up to 15 minutes. Try again later.");
});

test("an idle dashboard session ends after SCA_SESSION_IDLE_SECONDS", async (t) => {
  const clock = manualClock(new Date());
  const own = await ownBank(t, { clock, env: { SCA_SESSION_IDLE_SECONDS: "120" } });
  const browser = own.browser();
  // bob's SMS code, not a TOTP code: the manual clock must not wait for a fresh time step.
  const page = await logInDashboard(browser, "bob");
  clock.advance(MINUTE);
  assert.match((await browser.get("/dashboard")).html, /Logged in as Bob Meyer/);
  clock.advance(2 * MINUTE + 1000);
  const revoke = await browser.post("/dashboard/revoke", { _csrf: csrfOf(page.html), consent: "x" });
  assert.equal(revoke.location, "/dashboard?done=expired");
  const expired = await browser.follow(revoke);
  assert.equal(noticeText(expired), "Your session has ended. Please log in again.");
  assert.match(expired.html, /action="\/dashboard\/login"/);
});

test("the dashboard speaks the switcher's language and names every status in it", async () => {
  const browser = bank.browser();
  await logInDashboard(browser, "bob");
  const german = await browser.get("/dashboard?lang=de");
  assert.match(german.html, /<html lang="de">/);
  assert.match(german.html, /Ihre Einwilligungen und Zahlungen/);
  assert.match(german.html, /href="\/dashboard\?lang=fr"/);
  assert.doesNotMatch(german.html, /Cancel|Abbrechen/, "no authorisation to cancel here");
});

test("gina chooses her device on the dashboard too; only her own devices are accepted", async () => {
  const browser = bank.browser();
  const start = await browser.get("/dashboard");
  const choice = await browser.follow(await browser.post("/dashboard/login", {
    _csrf: csrfOf(start.html), login: "gina", password: "gina-demo" }));
  assert.match(choice.html, /action="\/dashboard\/device"/);
  const ids = [...choice.html.matchAll(/name="device" value="([^"]+)"[^>]*>\n<label[^>]*>SMS/g)].map((m) => m[1]);
  assert.equal(ids.length, 1, choice.html);
  const wrong = await browser.post("/dashboard/device", { _csrf: csrfOf(choice.html), device: "someone-else" });
  assert.equal(wrong.status, 400);
  const code = await browser.follow(await browser.post("/dashboard/device", { _csrf: csrfOf(choice.html), device: ids[0] ?? "" }));
  assert.match(code.html, /SMS to \+49151••••••07/);
  const done = await browser.post("/dashboard/code", { _csrf: csrfOf(code.html), code: (await lastSmsCode(browser, "gina")).code });
  assert.match((await browser.follow(done)).html, /Logged in as Gina Zweigeraet/);
});

test("dashboard logins share the authorisation's per-address throttle: 429 with Retry-After", async (t) => {
  const own = await ownBank(t, { env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: "2" } });
  const { scaRedirect } = await createPayment(own.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
  const flow = own.browser();
  await logIn(flow, await open(flow, scaRedirect), "bob", "nope");
  const browser = own.browser();
  const start = await browser.get("/dashboard");
  const second = await browser.post("/dashboard/login", { _csrf: csrfOf(start.html), login: "bob", password: "nope" });
  assert.equal(second.status, 401);
  const third = await browser.post("/dashboard/login", { _csrf: csrfOf(second.html), login: "bob", password: "bob-demo" });
  assert.equal(third.status, 429);
  assert.ok(Number(third.headers["retry-after"]) > 0);
});

test("the dashboard as online banking (issue 36): a payment between the PSU's own accounts never "
  + "warns of its name, each payment's receipt is one click away and only the PSU's, a consent "
  + "a newer one replaced says so", async (t) => {
  const own = await ownBank(t);
  const browser = own.browser();
  const first = await authorisedConsent(own.tpp, browser, "alice", [ALICE_MAIN]);
  await authorisedConsent(own.tpp, browser, "alice", [ALICE_MAIN]);
  assert.equal(await consentStatus(own.tpp, first), "terminatedByTpp");
  const { paymentId, scaRedirect } = await createPayment(own.tpp, paymentBody({
    creditorAccount: { iban: ALICE_SAVINGS }, creditorName: "Mallory", endToEndIdentification: "E2E-36",
  }));
  const review = await reachReview(browser, scaRedirect, "alice");
  await confirm(browser, review);

  const page = await logInDashboard(browser, "alice");
  assert.match(page.html, /<dd>replaced by your newer consent<\/dd>/);
  assert.doesNotMatch(page.html, /ended by the provider/);
  assert.match(page.html, /<dt>Name check<\/dt><dd><span class="vop-match">✓ Your own account/);
  assert.doesNotMatch(page.html, /does not match/);
  assert.match(page.html, /<dt>Reference<\/dt><dd>E2E-36<\/dd>/);
  const link = `/dashboard/receipt?payment=${paymentId}`;
  assert.ok(page.html.includes(`href="${link}"`), "the receipt linked from the payment");
  const receipt = await browser.get(link);
  assert.equal(receipt.status, 200);
  assert.match(receipt.html, /<h2 id="receipt-heading">Receipt<\/h2>/);
  assert.match(receipt.html, /<span class="reference">E2E-36<\/span>/);
  assert.match(receipt.html, /<dt>From account<\/dt><dd>Girokonto<br><span class="iban">DE\d\d \d{4}/,
    "the account debited named as the overview names it");
  const bob = own.browser();
  await logInDashboard(bob, "bob");
  const foreign = await bob.get(link);
  assert.equal(foreign.status, 303, "another PSU's receipt is not shown");
});
