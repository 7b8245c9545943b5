/**
 * SCA exemptions (RTS 2018/389 as amended by 2022/2360) through the TPP API and the PSU's pages:
 * each at and just past its limits. The PSU always gives its password; an exemption spares the
 * code and ends the authorisation `exempted`, in the audit log with its article, and
 * `payment show` says why.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { csrfOf, type BrowserClient, type Page } from "../support/browser.js";
import { jsonOf, runOperator } from "../support/cli.js";
import {
  BOB_MAIN, CAROL_MAIN, confirm, consentBody, createConsent, createdStatus, createPayment,
  CREATION_HEADERS,
  enterCode, EXTERNAL_IBAN, ibanOf, linkOf, OK_URI, reachReview,
} from "../support/flows.js";
import { codeFor, lastSmsCode, logInDashboard } from "../support/psu.js";
import {
  afterPassword, asksForCode, euro, isReview, needsCode, payExempted, PAYMENTS, paymentScaStatus,
} from "../support/exemptions.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

/** An operator command on the bank's own database (SQLite or PostgreSQL). */
const operator = (bank: TestBank, ...args: string[]) =>
  jsonOf(runOperator(bank.app.config.dataDir, [...args, "--json"], bank.database.databaseUrl));

const showPayment = (bank: TestBank, id: string) => operator(bank, "payment", "show", id);

test("art. 16 count: 30.00 EUR passes with the password, 30.01 needs the code, so does the "
  + "sixth payment since the last SCA; an SCA starts the count again", async (t) => {
  const bank = await startOwnBank(t, { env: { LOW_VALUE_EXEMPTION: "count" } });
  await needsCode(bank, "bob", BOB_MAIN, "30.01");
  const first = await payExempted(bank, "bob", BOB_MAIN, "30.00");
  assert.match(first.review.html,
    /<div class="info" role="status"><p><strong>A password is enough this time\.<\/strong><\/p>/);
  // Said for people, not as a legal citation (issue 36).
  assert.match(first.review.html,
    /<p>The amount is small and within the limit for payments without a code\.<\/p><\/div>/);
  assert.doesNotMatch(first.review.html, /Delegated Regulation|2018\/389/);
  for (let n = 2; n <= 5; n++) await payExempted(bank, "bob", BOB_MAIN, "30.00");
  const sixth = await needsCode(bank, "bob", BOB_MAIN, "0.01");
  const review = await sixth.browser.follow(
    await enterCode(sixth.browser, sixth.page, (await lastSmsCode(sixth.browser, "bob")).code));
  assert.equal((await confirm(sixth.browser, review)).location, OK_URI);
  assert.equal(await paymentScaStatus(bank.tpp, sixth.paymentId), "finalised");
  await payExempted(bank, "bob", BOB_MAIN, "1.00");

  const shown = showPayment(bank, first.paymentId);
  assert.equal(shown.resource.secondFactor,
    "none: exempted under RTS art. 16 (low-value payment), password only");
  assert.equal(shown.authorisations[0].scaStatus, "exempted");
  assert.ok(shown.history.some((h: { path: string }) =>
    h.path === "/sca/confirm (SCA exempted: RTS art. 16 (low-value payment))"));
  assert.equal(showPayment(bank, sixth.paymentId).resource.secondFactor,
    "given (SCA: password and code)");
});

test("art. 16 amount: up to 100.00 EUR since the last SCA pass with the password, 0.01 more "
  + "needs the code", async (t) => {
  const bank = await startOwnBank(t, { env: { LOW_VALUE_EXEMPTION: "amount" } });
  for (const amount of ["30.00", "30.00", "30.00", "10.00"]) {
    await payExempted(bank, "bob", BOB_MAIN, amount);
  }
  await needsCode(bank, "bob", BOB_MAIN, "0.01");
});

test("art. 16 is off by default, and never applies to a standing order's creation (art. 14: "
  + "its SCA covers the executions after the first)", async (t) => {
  const off = await startOwnBank(t);
  await needsCode(off, "bob", BOB_MAIN, "1.00");
  const on = await startOwnBank(t, { env: { LOW_VALUE_EXEMPTION: "count" } });
  const startDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const created = await on.tpp.post("/psd2/v1/periodic-payments/sepa-credit-transfers",
    euro("1.00", { debtorAccount: BOB_MAIN, startDate, frequency: "Monthly" }),
    CREATION_HEADERS);
  assert.equal(created.status, createdStatus(on.tpp), created.text);
  const page = await afterPassword(on.browser(), linkOf(on.tpp, created.body._links.scaRedirect),
    "bob");
  assert.ok(asksForCode(page), page.html);
});

test("the sandbox's test PSU tester0 is exempted on the pages too, with a notice saying why; "
  + "with every exemption off", async (t) => {
  const bank = await startOwnBank(t);
  const created = await createPayment(bank.tpp, euro("250.00",
    { debtorAccount: ibanOf("8000000001") }));
  const browser = bank.browser();
  const review = await afterPassword(browser, created.scaRedirect, "tester0", "sandbox-test");
  assert.ok(isReview(review), review.html);
  assert.match(review.html, /You are the sandbox.{1,6}s test customer, who never needs a code/);
  assert.equal((await confirm(browser, review)).location, OK_URI);
  assert.equal(await paymentScaStatus(bank.tpp, created.paymentId), "exempted");
  assert.equal(showPayment(bank, created.paymentId).resource.secondFactor, "none: exempted "
    + "under the sandbox's test PSU rule (no RTS article; sandbox mode only), password only");
});

test("art. 16 in the embedded approach: the password alone answers exempted and books",
  async (t) => {
    const bank = await startOwnBank(t, { env: { LOW_VALUE_EXEMPTION: "count" } });
    const created = await bank.tpp.post(PAYMENTS, euro("30.00", { debtorAccount: BOB_MAIN }), {
      ...CREATION_HEADERS, "TPP-Redirect-Preferred": "false", "PSU-ID": "bob",
    });
    assert.equal(created.headers["aspsp-sca-approach"], "EMBEDDED", created.text);
    const paymentId = created.body.paymentId as string;
    const answer = await bank.tpp.call("PUT",
      linkOf(bank.tpp, created.body._links.updatePsuAuthentication),
      { body: { psuData: { password: "bob-demo" } } });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.scaStatus, "exempted");
    const status = await bank.tpp.get(`${PAYMENTS}/${paymentId}/status`);
    assert.equal(status.body.transactionStatus, "ACSC");
  });

/** Asks for a change of bob's trusted payees on the dashboard: the code page for it. */
async function askChange(browser: BrowserClient, page: Page, fields: Record<string, string>) {
  const asked = await browser.post("/dashboard/trusted", { _csrf: csrfOf(page.html), ...fields });
  assert.equal(asked.status, 200, asked.html);
  assert.match(asked.html, /action="\/dashboard\/trusted\/confirm"/);
  return asked;
}

const trustedListed = (page: Page) => /<h3>Hans Extern<\/h3>/.test(page.html);

test("art. 13: a trusted payee is added and removed on the dashboard only with a code bound to "
  + "the change; payments to it need the password only", async (t) => {
  const bank = await startOwnBank(t);
  const browser = bank.browser();
  const dashboard = await logInDashboard(browser, "bob");
  assert.match(dashboard.html, /You have no trusted payees\./);
  const add = { action: "add", iban: EXTERNAL_IBAN, name: "Hans Extern" };
  const asked = await askChange(browser, dashboard, add);
  const sms = await lastSmsCode(browser, "bob");
  assert.match(sms.text, /makes Hans Extern \(DE89 3704 0044 0532 0130 00\) a trusted payee/);
  // Asked, not confirmed: nothing changed; a code for another change does not confirm this one.
  assert.equal(trustedListed(await browser.get("/dashboard")), false);
  const forged = await browser.post("/dashboard/trusted/confirm",
    { _csrf: csrfOf(asked.html), ...add, name: "Someone Else", code: sms.code });
  assert.equal(forged.status, 401, forged.html);
  assert.equal(trustedListed(await browser.get("/dashboard")), false);
  const again = await askChange(browser, dashboard, add);
  const wrong = await browser.post("/dashboard/trusted/confirm",
    { _csrf: csrfOf(again.html), ...add, code: "000000" });
  assert.equal(wrong.status, 401);
  assert.equal(trustedListed(await browser.get("/dashboard")), false);
  const done = await browser.post("/dashboard/trusted/confirm",
    { _csrf: csrfOf(again.html), ...add, code: (await lastSmsCode(browser, "bob")).code });
  assert.equal(done.status, 303, done.html);
  const listed = await browser.follow(done);
  assert.ok(trustedListed(listed), listed.html);
  assert.match(listed.html, /The payee is now trusted\./);

  const paid = await payExempted(bank, "bob", BOB_MAIN, "120.00");
  assert.match(paid.review.html, /<p>The payee is on your list of trusted payees\.<\/p>/);
  assert.equal(showPayment(bank, paid.paymentId).resource.secondFactor,
    "none: exempted under RTS art. 13 (trusted beneficiary), password only");
  await needsCode(bank, "bob", BOB_MAIN, "5.00", bank.browser(),
    { creditorAccount: { iban: CAROL_MAIN }, creditorName: "Carol Weber" });

  const remove = { action: "remove", iban: EXTERNAL_IBAN, name: "Hans Extern" };
  const removing = await askChange(browser, listed, remove);
  const removed = await browser.post("/dashboard/trusted/confirm",
    { _csrf: csrfOf(removing.html), ...remove, code: (await lastSmsCode(browser, "bob")).code });
  assert.equal(removed.status, 303, removed.html);
  assert.equal(trustedListed(await browser.follow(removed)), false);
  await needsCode(bank, "bob", BOB_MAIN, "120.00");
});

test("art. 13 off: no list on the dashboard and no exemption", async (t) => {
  const bank = await startOwnBank(t, { env: { TRUSTED_PAYEE_EXEMPTION: "false" } });
  const browser = bank.browser();
  const dashboard = await logInDashboard(browser, "bob");
  assert.doesNotMatch(dashboard.html, /Trusted payees/);
});

test("art. 10a: a new consent of the same TPP within 180 days of the PSU's last SCA for it "
  + "needs the password only; another TPP's, or one after 180 days, needs the code",
async (t) => {
  const clock = manualClock(new Date());
  const bank = await startOwnBank(t, { clock });
  const validUntil = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
  const body = () => consentBody({ validUntil });
  const first = await createConsent(bank.tpp, body());
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, first.scaRedirect, "bob"), [BOB_MAIN]);

  clock.advance(179 * 86_400_000);
  const renewal = await createConsent(bank.tpp, body());
  const renewing = bank.browser();
  const review = await afterPassword(renewing, renewal.scaRedirect, "bob");
  assert.ok(isReview(review), review.html);
  assert.match(review.html, /<p>You confirmed this provider.{1,6}s access with a code within the last 180 days\.<\/p>/);
  const given = await confirm(renewing, review, [BOB_MAIN]);
  assert.equal(given.location, OK_URI, given.html);
  const path = `/psd2/v1/consents/${renewal.consentId}/authorisations`;
  const [id] = (await bank.tpp.get(path)).body.authorisationIds as string[];
  assert.equal((await bank.tpp.get(`${path}/${id}`)).body.scaStatus, "exempted");
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${renewal.consentId}/status`))
    .body.consentStatus, "valid");
  // Without SCA, no hour of history older than 90 days, as after the first consent's SCA.
  const headers = { "Consent-ID": renewal.consentId, "PSU-IP-Address": "192.0.2.1" };
  const accounts = await bank.tpp.get("/psd2/v1/accounts", headers);
  const old = new Date(clock.now().getTime() - 120 * 86_400_000).toISOString().slice(0, 10);
  const history = await bank.tpp.get(`/psd2/v1/accounts/${
    accounts.body.accounts[0].resourceId as string}/transactions?dateFrom=${old}&bookingStatus=booked`,
  headers);
  assert.equal(history.status, 400, history.text);
  assert.equal(history.body.tppMessages[0].code, "PERIOD_INVALID");

  const other = await bank.tppWith({ organizationIdentifier: "PSDFR-ACPR-778" });
  const foreign = await createConsent(other, body());
  assert.ok(asksForCode(await afterPassword(bank.browser(), foreign.scaRedirect, "bob")));
  // The exempted renewal did not extend the 180 days from the SCA.
  clock.advance(2 * 86_400_000);
  const late = await createConsent(bank.tpp, body());
  assert.ok(asksForCode(await afterPassword(bank.browser(), late.scaRedirect, "bob")));
});

test("art. 18: with TRA on, from a browser the PSU passed SCA in, up to 500.00 EUR while no "
  + "fraud was reported; 500.01 and another browser need the code; reported fraud lowers the "
  + "band", async (t) => {
  const bank = await startOwnBank(t, { env: { TRA_EXEMPTION: "true" } });
  const known = bank.browser();
  const first = await needsCode(bank, "carol", CAROL_MAIN, "400.00", known);
  const review = await known.follow(
    await enterCode(known, first.page, await codeFor(known, "carol")));
  assert.equal((await confirm(known, review)).location, OK_URI);

  const paid = await payExempted(bank, "carol", CAROL_MAIN, "500.00", {}, known);
  assert.match(paid.review.html, /<p>Our fraud check found nothing unusual/);
  await needsCode(bank, "carol", CAROL_MAIN, "500.01", known);
  await needsCode(bank, "carol", CAROL_MAIN, "5.00", bank.browser());

  // 900.00 executed, 400.00 of them fraud: far above every reference rate, no TRA at all.
  const report = operator(bank, "payment", "report-fraud", first.paymentId);
  assert.equal(report.traLimit, "0.00 EUR");
  await needsCode(bank, "carol", CAROL_MAIN, "1.00", known);
});

test("art. 18 is off by default: a known browser still gives the code", async (t) => {
  const bank = await startOwnBank(t);
  const known = bank.browser();
  const first = await needsCode(bank, "carol", CAROL_MAIN, "10.00", known);
  await known.follow(await enterCode(known, first.page, await codeFor(known, "carol")));
  await needsCode(bank, "carol", CAROL_MAIN, "10.00", known);
});

test("no exemption spares a signature of a company payment that needs two (multi-level SCA)",
  async (t) => {
    const bank = await startOwnBank(t, { env: { LOW_VALUE_EXEMPTION: "count" } });
    const created = await bank.tpp.post(PAYMENTS, euro("1.00", { debtorAccount: ibanOf("8500000001") }),
      { ...CREATION_HEADERS, "PSU-Corporate-ID": "nordwind" });
    assert.equal(created.status, createdStatus(bank.tpp), created.text);
    const started = await bank.tpp.post(linkOf(bank.tpp, created.body._links.startAuthorisation), {},
      CREATION_HEADERS);
    assert.equal(started.status, 201, started.text);
    const page = await afterPassword(bank.browser(),
      linkOf(bank.tpp, started.body._links.scaRedirect), "karl");
    assert.ok(asksForCode(page), page.html);
  });
