/**
 * The sandbox scenario PSUs: each one takes a TPP down the same unhappy path every time.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { csrfOf } from "../support/browser.js";
import {
  confirm, createPayment, enterCode, ibanOf, logIn, open, paymentBody, reachReview, REDIRECTS,
} from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const errorOf = (html: string) => /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];

async function loginAs(login: string, debtorAccount: string) {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({ debtorAccount }));
  const browser = bank.browser();
  const page = await open(browser, scaRedirect);
  return { paymentId, browser, page: await browser.follow(await logIn(browser, page, login, `${login}-demo`)) };
}

test("dora's account is always empty: even a cent is rejected for insufficient funds", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({
    debtorAccount: ibanOf("4000000001"), instructedAmount: { currency: "EUR", amount: "0.01" } }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "dora");
  await confirm(browser, review);
  const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
  assert.equal(status.body?.transactionStatus, "RJCT");
});

test("erik is blocked by the bank: the right password tells him to contact the bank", async () => {
  const { page } = await loginAs("erik", ibanOf("5000000001"));
  assert.equal(page.status, 401);
  assert.equal(errorOf(page.html), "Your access has been blocked by the bank. Please contact the bank.");
});

test("finn has no authorization device: he is told to contact his bank", async () => {
  const { page } = await loginAs("finn", ibanOf("6000000001"));
  assert.equal(page.status, 401);
  assert.equal(errorOf(page.html), "No authorization device is registered for you. Please contact your bank.");
});

/** gina's payment up to the device page; the TPP's authorisation id. */
async function ginaAtDevicePage() {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({ debtorAccount: ibanOf("7000000001") }));
  const browser = bank.browser();
  const page = await browser.follow(await logIn(browser, await open(browser, scaRedirect), "gina", "gina-demo"));
  const ids = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${paymentId}/authorisations`);
  return { paymentId, browser, page, authorisation: `/psd2/v1/payments/sepa-credit-transfers/${paymentId}/authorisations/${ids.body?.authorisationIds?.[0]}` };
}

const deviceOptions = (html: string) => [...html.matchAll(/name="device" value="([^"]+)"[^>]*>\n<label for="[^"]+">([^<]+)</g)]
  .map((m) => ({ id: m[1] ?? "", name: m[2] ?? "" }));

test("gina has two devices: the page asks which, the SMS goes to the chosen phone, the TPP sees chosenScaMethod", async () => {
  const { paymentId, browser, page, authorisation } = await ginaAtDevicePage();
  assert.equal(page.status, 200);
  assert.match(page.html, /<legend>Where should we send your authorization code\?<\/legend>/);
  const options = deviceOptions(page.html);
  assert.deepEqual(options.map((o) => o.name).sort(), ["Authenticator app", "SMS to +49151••••••07"]);
  const before = await bank.tpp.get(authorisation);
  assert.deepEqual(before.body, { scaStatus: "psuIdentified" }, "nothing chosen yet");
  const sms = options.find((o) => o.name.startsWith("SMS"))?.id ?? "";
  const code = await browser.follow(await browser.post("/sca/device", { _csrf: csrfOf(page.html), device: sms }));
  assert.match(code.html, /We sent a 6-digit code by SMS to \+49151••••••07/);
  const chosen = await bank.tpp.get(authorisation);
  assert.equal(chosen.body?.chosenScaMethod?.authenticationType, "SMS_OTP");
  assert.equal(chosen.body?.chosenScaMethod?.name, "SMS to +49151…07");
  assert.match(chosen.body?.chosenScaMethod?.authenticationMethodId ?? "", /^[0-9a-f]{32}$/);
  const review = await browser.follow(await enterCode(browser, code, (await lastSmsCode(browser, "gina")).code));
  assert.equal((await confirm(browser, review)).status, 200);
  const done = await bank.tpp.get(authorisation);
  assert.equal(done.body?.scaStatus, "finalised");
  assert.equal(done.body?.chosenScaMethod?.authenticationType, "SMS_OTP", "kept after the decision");
  assert.notEqual((await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body?.transactionStatus, "RCVD");
});

test("gina's authenticator app as the choice asks for the app's code and shows APP_OTP", async () => {
  const { browser, page, authorisation } = await ginaAtDevicePage();
  const app = deviceOptions(page.html).find((o) => o.name === "Authenticator app")?.id ?? "";
  const code = await browser.follow(await browser.post("/sca/device", { _csrf: csrfOf(page.html), device: app }));
  assert.match(code.html, /authenticator app/);
  assert.equal((await bank.tpp.get(authorisation)).body?.chosenScaMethod?.authenticationType, "APP_OTP");
});

test("a device that is not gina's, or no CSRF token, is refused on the device page", async () => {
  const { browser, page, authorisation } = await ginaAtDevicePage();
  const bob = await loginAs("bob", ibanOf("2000000001"));
  const { store } = bank.app;
  const bobsDevice = (await store.psus.devices(store.db, (await store.psus.findByLogin(store.db, "bob"))?.id ?? ""))[0];
  const refused = await browser.post("/sca/device", { _csrf: csrfOf(page.html), device: bobsDevice?.id ?? "" });
  assert.equal(refused.status, 400);
  assert.equal(errorOf(refused.html), "Please complete the steps in order.");
  assert.match(refused.html, /name="device"/, "the choice is offered again");
  const forged = await browser.post("/sca/device", { _csrf: "forged", device: deviceOptions(page.html)[0]?.id ?? "" });
  assert.equal(forged.status, 403);
  assert.equal((await bank.tpp.get(authorisation)).body?.chosenScaMethod, undefined);
  assert.match(bob.page.html, /name="code"/, "a PSU with one device goes straight to the code");
  const bobs = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${bob.paymentId}/authorisations`);
  const bobAuthorisation = await bank.tpp.get(
    `/psd2/v1/payments/sepa-credit-transfers/${bob.paymentId}/authorisations/${bobs.body?.authorisationIds?.[0]}`);
  assert.equal(bobAuthorisation.body?.chosenScaMethod?.authenticationType, "SMS_OTP", "his only device");
});

test("the payment's create answer keeps chosenScaMethod null even for a PSU with several devices", async () => {
  const res = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers",
    paymentBody({ debtorAccount: ibanOf("7000000001") }), REDIRECTS);
  assert.equal(res.body?.chosenScaMethod, null);
});
