/**
 * A TPP that names the PSU (PSU-ID) gets that PSU's authorisation only: the login page offers the
 * named login, and another PSU is refused right after its password, before any code is sent or
 * spent; the named PSU then completes it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorText } from "../support/browser.js";
import {
  ALICE_MAIN, CAROL_MAIN, confirm, consentBody, createConsent, createPayment, enterCode, logIn,
  OK_URI, open, paymentBody, reachReview,
} from "../support/flows.js";
import { codeFor, lastSmsCode } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

const NOT_NAMED = "This authorisation was requested for another customer of the bank. Only the "
  + "customer the provider named can complete it.";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const smsCount = async (login: string) =>
  (await lastSmsCode(bank.browser(), login).catch(() => ({ code: "" }))).code;

test("a payment for alice: bob is refused after his password, no code sent; alice completes it",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp,
      paymentBody({ debtorAccount: ALICE_MAIN }), { "PSU-ID": "alice" });
    const browser = bank.browser();
    const loginPage = await open(browser, scaRedirect);
    assert.match(loginPage.html, /<input id="login" name="login"[^>]* value="alice"/);
    const bobsLastCode = await smsCount("bob");
    const refused = await logIn(browser, loginPage, "bob", "bob-demo");
    assert.equal(refused.status, 401);
    assert.equal(errorText(refused), NOT_NAMED);
    assert.equal(await smsCount("bob"), bobsLastCode, "no code was sent to bob");
    const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(status.body.transactionStatus, "RCVD");
    // Same session: the named PSU logs in after the refusal and completes the payment.
    const codePage = await browser.follow(await logIn(browser, refused, "alice", "alice-demo"));
    assert.match(codePage.html, /name="code"/, codePage.html);
    const review = await browser.follow(
      await enterCode(browser, codePage, await codeFor(browser, "alice")));
    assert.equal((await confirm(browser, review)).location, OK_URI);
    const done = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(done.body.transactionStatus, "ACSC");
  });

test("a consent for carol: alice is refused after her password; carol gives it", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp, consentBody(), { "PSU-ID": "carol" });
  const browser = bank.browser();
  const refused = await logIn(browser, await open(browser, scaRedirect), "alice", "alice-demo");
  assert.equal(errorText(refused), NOT_NAMED);
  const again = await createConsent(bank.tpp, consentBody(), { "PSU-ID": "carol" });
  const carol = bank.browser();
  const done = await confirm(carol, await reachReview(carol, again.scaRedirect, "carol"), [CAROL_MAIN]);
  assert.equal(done.location, OK_URI);
  const first = await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`);
  assert.equal(first.body.consentStatus, "received", "the refused login changed nothing");
});
