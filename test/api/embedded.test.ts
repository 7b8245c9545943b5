/**
 * The embedded SCA approach as a TPP built for an embedded bank drives it: it sends the PSU's
 * password, the chosen method and the code as PUT updates of the authorisation, moving only by
 * the _links of each answer, without a TPP-Redirect-URI. Rerun under berlin-group by its
 * .berlin-group file, where every answer is checked against the Berlin Group file.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, BOB_MAIN, CAROL_MAIN, consentBody, createdStatus, ibanOf, linkOf, optionalLink,
  paymentBody,
} from "../support/flows.js";
import { csrfOf } from "../support/browser.js";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const GINA_MAIN = "DE20500100007000000001";
const [TESTER_0, TESTER_1, TESTER_2] = ["8000000001", "8100000001", "8200000001"].map(ibanOf);
const EMBEDDED = { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-Preferred": "false" };

let bank: TestBank;
before(async () => { bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded" } }); });
after(async () => { await bank.close(); });

/** Creates a resource in the embedded approach; the link to send the PSU's password to. */
async function embeddedStart(path: string, body: object, psuId: string, tpp = bank.tpp) {
  const res = await tpp.post(path, body, { ...EMBEDDED, "PSU-ID": psuId });
  // Funds-confirmation consents (PIIS 2.0) answer 201 in either dialect.
  const funds = path.includes("confirmation-of-funds");
  assert.equal(res.status, funds ? 201 : createdStatus(tpp), res.text);
  assert.equal(optionalLink(tpp, res.body._links.scaRedirect), null);
  return { body: res.body, next: linkOf(tpp, res.body._links.updatePsuAuthentication) };
}

const put = (path: string, body: object, headers: Record<string, string> = {}, tpp = bank.tpp) =>
  tpp.call("PUT", path, { body, headers });

const password = (login: string) => ({ psuData: { password: demoPsu(login).password } });

function totpOf(login: string) {
  const device = demoPsu(login).device;
  assert.equal(device.kind, "totp");
  return nextTotp(device.secret, bank.authUrl);
}

function refusal(res: { status: number; body: any; text: string }, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages[0].code, code);
  return res.body.tppMessages[0].text as string;
}

test("alice, one authenticator: password, then the code; the payment is booked once", async () => {
  const { body, next } = await embeddedStart(SCT, paymentBody(), "alice");
  const authenticated = await put(next, password("alice"));
  assert.equal(authenticated.status, 200, authenticated.text);
  const a = authenticated.body;
  assert.equal(a.scaStatus, "scaMethodSelected");
  assert.equal(a.chosenScaMethod.authenticationType, "APP_OTP");
  assert.deepEqual([a.challengeData.otpMaxLength, a.challengeData.otpFormat], [6, "integer"]);
  const code = await totpOf("alice");
  const done = await put(linkOf(bank.tpp, a._links.authoriseTransaction), {
    scaAuthenticationData: code });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.scaStatus, "finalised");
  const status = await bank.tpp.get(`${SCT}/${body.paymentId}/status`);
  assert.equal(status.body.transactionStatus, "ACSC");
  assert.equal((await bank.tpp.get(linkOf(bank.tpp, done.body._links.scaStatus))).body.scaStatus,
    "finalised");
  // A second update after the end: refused, and nothing is booked again.
  refusal(await put(next, { scaAuthenticationData: code }), 400, "SCA_INVALID");
  assert.equal((await bank.tpp.get(`${SCT}/${body.paymentId}/status`)).body.transactionStatus,
    "ACSC");
});

test("gina, two devices: chooses SMS; the text names amount and payee; then finalised",
  async () => {
    const { next } = await embeddedStart(SCT, paymentBody({ debtorAccount: GINA_MAIN }), "gina");
    const res = await put(next, password("gina"));
    const authenticated = res.body;
    assert.equal(authenticated.scaStatus, "psuAuthenticated", res.text);
    const methods = authenticated.scaMethods as { authenticationType: string;
      authenticationMethodId: string }[];
    assert.deepEqual(methods.map((m) => m.authenticationType).sort(), ["APP_OTP", "SMS_OTP"]);
    const sms = methods.find((m) => m.authenticationType === "SMS_OTP");
    const select = linkOf(bank.tpp, authenticated._links.selectAuthenticationMethod);
    refusal(await put(select, { authenticationMethodId: "nosuchmethod" }), 400,
      "SCA_METHOD_UNKNOWN");
    const selected = await put(select, { authenticationMethodId: sms?.authenticationMethodId });
    assert.equal(selected.body.scaStatus, "scaMethodSelected", selected.text);
    assert.equal(selected.body.chosenScaMethod.authenticationType, "SMS_OTP");
    const { code, text } = await lastSmsCode(bank.browser(), "gina");
    assert.match(text, /€12\.50 to Merchant GmbH \(DE89 3704 0044 0532 0130 00\)/);
    assert.match(selected.body.challengeData.additionalInformation,
      /^Enter the code sent by SMS to [^;]+; it names the amount and the payee/);
    const done = await put(linkOf(bank.tpp, selected.body._links.authoriseTransaction),
      { scaAuthenticationData: code });
    assert.equal(done.body.scaStatus, "finalised", done.text);
  });

test("bob authorises a consent for his account by SMS: valid, and it reads", async () => {
  const access = { accounts: [BOB_MAIN], balances: [BOB_MAIN], transactions: [] };
  const { body, next } = await embeddedStart("/psd2/v1/consents", consentBody({ access }), "bob");
  const a = (await put(next, password("bob"))).body;
  assert.equal(a.chosenScaMethod.authenticationType, "SMS_OTP");
  // A consent's code names no amount nor payee, and the SMS is said once.
  assert.equal(a.challengeData.additionalInformation, "Enter the code sent by SMS to +49151…02; "
    + "it names who gets access to the account data, and until when.");
  const read = (await bank.tpp.get(linkOf(bank.tpp, a._links.scaStatus))).body;
  assert.deepEqual([read.scaStatus, read.chosenScaMethod.authenticationType],
    ["scaMethodSelected", "SMS_OTP"]);
  const { code } = await lastSmsCode(bank.browser(), "bob");
  const done = await put(linkOf(bank.tpp, a._links.authoriseTransaction),
    { scaAuthenticationData: code });
  assert.equal(done.body.scaStatus, "finalised", done.text);
  const status = await bank.tpp.get(`/psd2/v1/consents/${body.consentId}/status`);
  assert.equal(status.body.consentStatus, "valid");
  const accounts = await bank.tpp.get("/psd2/v1/accounts", {
    "Consent-ID": body.consentId, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(accounts.status, 200, accounts.text);
});

test("wrong password and wrong code are PSU_CREDENTIALS_INVALID and count on every channel",
  async () => {
    const { next } = await embeddedStart(SCT, paymentBody({ debtorAccount: ALICE_MAIN }), "carol");
    const wrong = { psuData: { password: "not-carols" } };
    assert.match(refusal(await put(next, wrong), 401, "PSU_CREDENTIALS_INVALID"), /4 more/);
    assert.equal((await bank.tpp.get(next)).body.scaStatus, "psuIdentified");
    const second = await embeddedStart(SCT, paymentBody({ debtorAccount: CAROL_MAIN }),
      "carol");
    const a = (await put(second.next, password("carol"))).body;
    const authorise = linkOf(bank.tpp, a._links.authoriseTransaction);
    assert.match(refusal(await put(authorise, { scaAuthenticationData: "000000" }), 401,
      "PSU_CREDENTIALS_INVALID"), /3 more/);
    for (const left of [2, 1]) {
      assert.match(refusal(await put(next, wrong), 401, "PSU_CREDENTIALS_INVALID"),
        new RegExp(`${left} more`));
    }
    // The fifth failure, on the bank's own login page, blocks carol everywhere.
    const browser = bank.browser();
    const start = await browser.get("/dashboard");
    await browser.post("/dashboard/login",
      { _csrf: csrfOf(start.html), login: "carol", password: "x" });
    const blocked = refusal(await put(authorise, { scaAuthenticationData: await totpOf("carol") }),
      401, "PSU_CREDENTIALS_INVALID");
    assert.match(blocked, /blocked/);
  });

test("the same authenticator code twice: the second time it is said to be just used",
  async () => {
    const first = await embeddedStart(SCT, paymentBody(), "alice");
    const second = await embeddedStart(SCT, paymentBody(), "alice");
    const a1 = (await put(first.next, password("alice"))).body;
    const a2 = (await put(second.next, password("alice"))).body;
    const code = await totpOf("alice");
    const done = await put(linkOf(bank.tpp, a1._links.authoriseTransaction),
      { scaAuthenticationData: code });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    const again = await put(linkOf(bank.tpp, a2._links.authoriseTransaction),
      { scaAuthenticationData: code });
    assert.match(refusal(again, 400, "SCA_INVALID"), /just used/);
    assert.equal((await bank.tpp.get(second.next)).body.scaStatus, "scaMethodSelected");
  });

test("steps out of order, bodies with none or two updates, and other PSUs are refused",
  async () => {
    const { next } = await embeddedStart(SCT, paymentBody(), "alice");
    refusal(await put(next, { scaAuthenticationData: "123456" }), 400, "SCA_INVALID");
    refusal(await put(next, {}), 400, "FORMAT_ERROR");
    refusal(await put(next, { scaAuthenticationData: "1", authenticationMethodId: "x" }), 400,
      "FORMAT_ERROR");
    // PSU-ID named alice: bob's right password is still no way in.
    const other = await put(next, password("bob"), { "PSU-ID": "bob" });
    assert.match(refusal(other, 401, "PSU_CREDENTIALS_INVALID"), /PSU-ID/);
    // bob named, but the payment is from alice's account: refused after the password.
    const foreign = await embeddedStart(SCT, paymentBody(), "bob");
    assert.match(refusal(await put(foreign.next, password("bob")), 401,
      "PSU_CREDENTIALS_INVALID"), /debtor account/);
    assert.equal((await bank.tpp.get(next)).body.scaStatus, "psuIdentified");
  });

test("a PSU without a device, and one blocked by the bank, get their own errors", async () => {
  const finn = await embeddedStart("/psd2/v1/consents", consentBody(), "finn");
  refusal(await put(finn.next, password("finn")), 400, "SCA_METHOD_UNKNOWN");
  const erik = await embeddedStart("/psd2/v1/consents", consentBody(), "erik");
  assert.match(refusal(await put(erik.next, password("erik")), 401, "PSU_CREDENTIALS_INVALID"),
    /contact the bank/);
});

test("another TPP's authorisation is unknown; a redirect one takes no PUT", async () => {
  const { body, next } = await embeddedStart(SCT, paymentBody(), "alice");
  const other: TppClient = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-999999" });
  const path = `${SCT}/${body.paymentId}/authorisations/${next.split("/").pop()}`;
  refusal(await put(path, password("alice"), {}, other), 404, "RESOURCE_UNKNOWN");
  const redirect = await bank.tpp.post(SCT, paymentBody(),
    { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-URI": "https://tpp.example/ok" });
  const self = `${SCT}/${redirect.body.paymentId}/authorisations`;
  const [id] = (await bank.tpp.get(self)).body.authorisationIds;
  refusal(await put(`${self}/${id}`, password("alice"), { "PSU-ID": "alice" }), 405,
    "SERVICE_INVALID");
});

test("without PSU-ID at creation the TPP names the PSU with its password", async () => {
  const res = await bank.tpp.post(SCT, paymentBody(), EMBEDDED);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const identify = linkOf(bank.tpp, res.body._links.updatePsuIdentification);
  refusal(await put(identify, password("alice")), 400, "FORMAT_ERROR");
  const a = await put(identify, password("alice"), { "PSU-ID": "alice" });
  assert.equal(a.body.scaStatus, "scaMethodSelected", a.text);
});

test("the PSU named at the start is psuIdentified; the standard's update of the PSU's "
  + "identification (PSU-ID, empty body or none) is taken where the bank offers it", async () => {
    const named = await bank.tpp.post(SCT, paymentBody(), { ...EMBEDDED, "PSU-ID": "alice",
      "TPP-Explicit-Authorisation-Preferred": "true" });
    const start = linkOf(bank.tpp, named.body._links.startAuthorisationWithPsuAuthentication);
    const started = await bank.tpp.post(start, undefined, { ...EMBEDDED, "PSU-ID": "alice" });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.scaStatus, "psuIdentified");
    const next = linkOf(bank.tpp, started.body._links.updatePsuAuthentication);
    assert.equal((await bank.tpp.get(next)).body.scaStatus, "psuIdentified");
    assert.equal((await put(next, password("alice"))).body.scaStatus, "scaMethodSelected");

    for (const body of [{}, undefined]) {
      const res = await bank.tpp.post(SCT, paymentBody(), EMBEDDED);
      const identify = linkOf(bank.tpp, res.body._links.updatePsuIdentification);
      const identified = await bank.tpp.call("PUT", identify, { body, headers: { "PSU-ID": "alice" } });
      assert.equal(identified.status, 200, identified.text);
      assert.equal(identified.body.scaStatus, "psuIdentified");
      const again = await bank.tpp.call("PUT", identify, { body, headers: { "PSU-ID": "bob" } });
      assert.equal(refusal(again, 400, "SCA_INVALID").length > 0, true, "one PSU per authorisation");
      const authenticate = linkOf(bank.tpp, identified.body._links.updatePsuAuthentication);
      const a = await put(authenticate, password("alice"));
      assert.equal(a.body.scaStatus, "scaMethodSelected", a.text);
    }
  });

test("a bank-offered consent needs the bank's pages: refused in embedded", async () => {
  const offered = consentBody({ access: { accounts: [], balances: [], transactions: [] } });
  const res = await bank.tpp.post("/psd2/v1/consents", offered, { ...EMBEDDED, "PSU-ID": "bob" });
  assert.equal(refusal(res, 400, "SERVICE_INVALID").includes("bank-offered"), true);
});

test("explicit start with the password in its body, then the code: the consent is valid",
  async () => {
    const headers = { ...EMBEDDED, "PSU-ID": "bob",
      "TPP-Explicit-Authorisation-Preferred": "true" };
    const access = { accounts: [BOB_MAIN], balances: [], transactions: [] };
    // A TPP bob never passed SCA for: with the demo TPP, RTS art. 10a would spare the code.
    const tpp = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-999214" });
    const res = await tpp.post("/psd2/v1/consents", consentBody({ access }), headers);
    assert.equal(res.status, createdStatus(tpp), res.text);
    const start = linkOf(tpp, res.body._links.startAuthorisationWithPsuAuthentication);
    const started = await tpp.post(start, password("bob"), { "PSU-ID": "bob",
      "TPP-Redirect-Preferred": "false" });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.scaStatus, "scaMethodSelected");
    assert.ok(started.body.authorisationId);
    const done = await put(linkOf(tpp, started.body._links.authoriseTransaction),
      { scaAuthenticationData: (await lastSmsCode(bank.browser(), "bob")).code }, {}, tpp);
    assert.equal(done.body.scaStatus, "finalised", done.text);
    const status = await tpp.get(`/psd2/v1/consents/${res.body.consentId}/status`);
    assert.equal(status.body.consentStatus, "valid");
  });

test("a future-dated payment authorised and then cancelled, both in embedded", async () => {
  const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const { body, next } = await embeddedStart(SCT,
    paymentBody({ debtorAccount: BOB_MAIN, requestedExecutionDate: later }), "bob");
  const smsCode = async () => ({
    scaAuthenticationData: (await lastSmsCode(bank.browser(), "bob")).code });
  await put(next, password("bob"));
  const authorised = await put(next, await smsCode());
  assert.equal(authorised.body.scaStatus, "finalised", authorised.text);
  const self = `${SCT}/${body.paymentId}`;
  assert.equal((await bank.tpp.get(`${self}/status`)).body.transactionStatus, "ACTC");
  const cancel = await bank.tpp.call("DELETE", self,
    { headers: { "PSU-ID": "bob", "TPP-Redirect-Preferred": "false" } });
  assert.equal(cancel.status, 202, cancel.text);
  const update = linkOf(bank.tpp, cancel.body._links.updatePsuAuthentication);
  const a = (await put(update, password("bob"))).body;
  assert.equal(a.scaStatus, "scaMethodSelected");
  assert.match((await lastSmsCode(bank.browser(), "bob")).text,
    /^PSD2 Demo Bank: your code \d{6} cancels the payment of €[\d.,]+ to Merchant GmbH /);
  assert.match(a.challengeData.additionalInformation, /; it names the payment it cancels\.$/);
  const done = await put(linkOf(bank.tpp, a._links.authoriseTransaction), await smsCode());
  assert.equal(done.body.scaStatus, "finalised", done.text);
  assert.equal((await bank.tpp.get(`${self}/status`)).body.transactionStatus, "CANC");
});

test("a funds-confirmation consent in embedded: bob's password and SMS code make it valid",
  async () => {
    const path = "/psd2/v1/consents/confirmation-of-funds";
    const { body, next } = await embeddedStart(path, { account: { iban: BOB_MAIN } }, "bob");
    const a = (await put(next, password("bob"))).body;
    assert.equal(a.scaStatus, "scaMethodSelected");
    const { code } = await lastSmsCode(bank.browser(), "bob");
    const done = await put(linkOf(bank.tpp, a._links.authoriseTransaction),
      { scaAuthenticationData: code });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    assert.equal((await bank.tpp.get(`${path}/${body.consentId}/status`)).body.consentStatus,
      "valid");
    const ids = (await bank.tpp.get(`${path}/${body.consentId}/authorisations`)).body;
    assert.deepEqual(ids.authorisationIds, [next.split("/").pop()]);
  });

test("the TPP test PSUs: code always 123456; exempted, one method, a choice of two",
  async () => {
    const secret = { psuData: { password: "sandbox-test" } };
    const fixed = { scaAuthenticationData: "123456" };
    const exempted = await embeddedStart(SCT, paymentBody({ debtorAccount: TESTER_0 }), "tester0");
    const password0 = await put(exempted.next, secret);
    assert.equal(password0.body.scaStatus, "exempted", password0.text);
    assert.equal((await bank.tpp.get(`${SCT}/${exempted.body.paymentId}/status`)).body
      .transactionStatus, "ACSC");
    const one = await embeddedStart(SCT, paymentBody({ debtorAccount: TESTER_1 }), "tester1");
    const a = (await put(one.next, secret)).body;
    assert.equal(a.scaStatus, "scaMethodSelected");
    refusal(await put(one.next, { scaAuthenticationData: "654321" }), 401,
      "PSU_CREDENTIALS_INVALID");
    assert.equal((await put(one.next, fixed)).body.scaStatus, "finalised");
    assert.equal((await bank.tpp.get(`${SCT}/${one.body.paymentId}/status`)).body
      .transactionStatus, "ACSC");
    const two = await embeddedStart(SCT, paymentBody({ debtorAccount: TESTER_2 }), "tester2");
    const methods = (await put(two.next, secret)).body.scaMethods as { authenticationMethodId:
      string; authenticationType: string }[];
    assert.deepEqual(methods.map((m) => m.authenticationType).sort(), ["APP_OTP", "SMS_OTP"]);
    const app = methods.find((m) => m.authenticationType === "APP_OTP");
    await put(two.next, { authenticationMethodId: app?.authenticationMethodId });
    assert.equal((await put(two.next, fixed)).body.scaStatus, "finalised");
  });

test("the TPP test PSUs' consents: the same steps on every run, no RTS art. 10a renewal",
  async () => {
    const secret = { psuData: { password: "sandbox-test" } };
    const consentOf = (iban: unknown) => consentBody({
      access: { accounts: [iban], balances: [iban], transactions: [] } });
    for (let run = 0; run < 2; run += 1) {
      const exempted = await embeddedStart("/psd2/v1/consents", consentOf(TESTER_0), "tester0");
      assert.equal((await put(exempted.next, secret)).body.scaStatus, "exempted");
      assert.equal((await bank.tpp.get(`/psd2/v1/consents/${exempted.body.consentId}/status`))
        .body.consentStatus, "valid");
      const one = await embeddedStart("/psd2/v1/consents", consentOf(TESTER_1), "tester1");
      assert.equal((await put(one.next, secret)).body.scaStatus, "scaMethodSelected",
        `run ${run}: the code is asked for again`);
      const done = await put(one.next, { scaAuthenticationData: "123456" });
      assert.equal(done.body.scaStatus, "finalised", done.text);
    }
  });

test("periodic and bulk payments in embedded: one password and code each", async () => {
  const start = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const periodic = await embeddedStart("/psd2/v1/periodic-payments/sepa-credit-transfers",
    paymentBody({ debtorAccount: TESTER_1, startDate: start, frequency: "Monthly" }), "tester1");
  const bulk = await embeddedStart("/psd2/v1/bulk-payments/sepa-credit-transfers", {
    debtorAccount: TESTER_1, payments: [
      { creditorAccount: BOB_MAIN, creditorName: "Bob Meyer",
        instructedAmount: { currency: "EUR", amount: 1 } },
      { creditorAccount: ALICE_MAIN, creditorName: "Alice Schmidt",
        instructedAmount: { currency: "EUR", amount: 2 } },
    ],
  }, "tester1");
  for (const { next } of [periodic, bulk]) {
    await put(next, { psuData: { password: "sandbox-test" } });
    const done = await put(next, { scaAuthenticationData: "123456" });
    assert.equal(done.body.scaStatus, "finalised", done.text);
  }
  const status = (path: string) => bank.tpp.get(path);
  assert.equal((await status(`/psd2/v1/periodic-payments/sepa-credit-transfers/${
    periodic.body.paymentId}/status`)).body.transactionStatus, "ACTC");
  assert.equal((await status(`/psd2/v1/bulk-payments/sepa-credit-transfers/${
    bulk.body.paymentId}/status`)).body.transactionStatus, "ACSC");
});

test("a start refused for its password leaves no authorisation behind; the failure counts",
  async () => {
    const headers = { ...EMBEDDED, "PSU-ID": "tester2",
      "TPP-Explicit-Authorisation-Preferred": "true" };
    const res = await bank.tpp.post(SCT, paymentBody({ debtorAccount: TESTER_2 }), headers);
    const start = linkOf(bank.tpp, res.body._links.startAuthorisationWithPsuAuthentication);
    const started = (body: object) => bank.tpp.post(start, body,
      { "PSU-ID": "tester2", "TPP-Redirect-Preferred": "false" });
    assert.match(refusal(await started({ psuData: { password: "wrong" } }), 401,
      "PSU_CREDENTIALS_INVALID"), /4 more/);
    refusal(await started({ psuData: {} }), 400, "FORMAT_ERROR");
    const list = (await bank.tpp.get(start)).body.authorisationIds as string[];
    assert.deepEqual(list, []);
    const ok = await started({ psuData: { password: "sandbox-test" } });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await bank.tpp.get(start)).body.authorisationIds.length, 1);
  });
