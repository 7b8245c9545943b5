/**
 * /v2: the embedded and decoupled SCA approaches of openFinance 2.x beside /v1's, on the same SCA
 * session machine: Client-SCA-Approach-Preference picks the approach at creation, at the start of
 * an authorisation and at a cancellation; the TPP moves by the answers' _links with updatePSUData
 * (PUT) for the password, the method and the code; the PSU's app approves a decoupled request.
 * Every /v2 answer (and accepted request) is checked against the openFinance files by the test
 * client (test/support/openfinance.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  BOB_MAIN, CAROL_MAIN, EXTERNAL_IBAN, linkOf, OK_URI, paymentBody,
} from "../support/flows.js";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const V2 = "/psd2/v2";
const SCT = `${V2}/payments/sepa-credit-transfers`;
const PERIODIC = `${V2}/periodic-payments/sepa-credit-transfers`;
const CONSENTS = `${V2}/consents/account-access`;
const GINA_MAIN = "DE20500100007000000001";
const PRESENT = { "PSU-IP-Address": "192.0.2.1" };
const prefer = (approaches: string, psuId?: string) => ({
  ...PRESENT, "Client-SCA-Approach-Preference": approaches, ...(psuId && { "PSU-ID": psuId }),
});

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
});
after(async () => { await bank.close(); });

const single = (debtor: string) => ({
  instructedAmount: { currency: "EUR", amount: "12.50" },
  debtorAccount: { iban: debtor }, creditorAccount: { iban: EXTERNAL_IBAN },
  creditor: { name: "Merchant GmbH" }, remittanceInformationUnstructured: ["Order 42"],
});
const consent = (iban: string) => ({
  access: { payments: [{ account: { iban }, rights: ["accountDetails", "balances"] }] },
  consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
});

const put = (path: string, body?: object, headers: Record<string, string> = {}) =>
  bank.tpp.call("PUT", path, { body, headers });
const password = (login: string) => ({ psuData: { password: demoPsu(login).password } });
const href = (res: TppResponse, link: string): string => {
  const found = res.body._links?.[link]?.href;
  assert.equal(typeof found, "string", `no ${link} link: ${res.text}`);
  return found;
};
const statusOf = async (path: string) => (await bank.tpp.get(`${path}/status`)).body;

function refused(res: TppResponse, status: number, code: string): string {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.apiClientMessages[0].code, code, res.text);
  return res.body.apiClientMessages[0].text;
}

async function created(path: string, body: object, headers: Record<string, string>,
  approach: string) {
  const res = await bank.tpp.post(path, body, headers);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-sca-approach"], approach);
  assert.equal(res.body._links.scaRedirect, undefined);
  return res;
}

function totp(login: string) {
  const { device } = demoPsu(login);
  assert.equal(device.kind, "totp");
  return nextTotp(device.secret, bank.authUrl);
}

test("an embedded consent: gina starts with her password, chooses SMS of two methods, sends the code",
  async () => {
    const res = await created(CONSENTS, consent(GINA_MAIN),
      { ...prefer("embedded", "gina"), "Client-Explicit-Authorisation-Preferred": "true" },
      "EMBEDDED");
    const path = `${CONSENTS}/${res.body.consentId}`;
    const start = href(res, "startAuthorisationWithPsuAuthentication");
    assert.equal(start, `${path}/authorisations`);
    const started = await bank.tpp.post(start, password("gina"), prefer("embedded", "gina"));
    assert.equal(started.status, 201, started.text);
    assert.equal(started.headers["aspsp-sca-approach"], "EMBEDDED");
    assert.equal(started.body.scaStatus, "psuAuthenticated");
    const methods = started.body.scaMethods as { authenticationType: string;
      authenticationMethodId: string }[];
    // The authenticator app is 2.x's PUSH_OTP (the files list no APP_OTP).
    assert.deepEqual(methods.map((m) => m.authenticationType).sort(), ["PUSH_OTP", "SMS_OTP"]);
    const sms = methods.find((m) => m.authenticationType === "SMS_OTP")!;
    const selected = await put(href(started, "selectAuthenticationMethod"),
      { authenticationMethodId: sms.authenticationMethodId });
    assert.equal(selected.status, 200, selected.text);
    assert.equal(selected.body.scaStatus, "scaMethodSelected");
    assert.equal(selected.body.chosenScaMethod.authenticationType, "SMS_OTP");
    assert.equal(selected.headers["x-reference-api-version"], "2.1");
    const { code, text } = await lastSmsCode(bank.browser(), "gina");
    assert.match(text, /access to the data of .+ DE\d\d \*{4} \d{4} until/, "names her account");
    const done = await put(href(selected, "authoriseTransaction"), { scaAuthenticationData: code });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    assert.equal((await bank.tpp.get(href(done, "scaStatus"))).body.scaStatus, "finalised");
    assert.equal((await statusOf(path)).consentStatus, "valid");
    const accounts = await bank.tpp.get(`${V2}/accounts`,
      { "Consent-ID": res.body.consentId, ...PRESENT });
    assert.equal(accounts.status, 200, accounts.text);
  });

test("an embedded payment: gina's password by PUT, then her app of two methods, then its code; booked",
  async () => {
    // Redirect first takes the redirect, which needs the Client-Redirect-URI.
    refused(await bank.tpp.post(SCT, single(GINA_MAIN), prefer("redirect, embedded", "gina")),
      400, "FORMAT_ERROR");
    const embedded = await created(SCT, single(GINA_MAIN), prefer("signature, embedded", "gina"),
      "EMBEDDED");
    const path = `${SCT}/${embedded.body.paymentId}`;
    const authenticated = await put(href(embedded, "updatePsuAuthentication"), password("gina"));
    assert.equal(authenticated.status, 200, authenticated.text);
    assert.equal(authenticated.headers["x-reference-api-version"], "2.4.1");
    assert.equal(authenticated.body.scaStatus, "psuAuthenticated");
    const app = (authenticated.body.scaMethods as { authenticationType: string;
      authenticationMethodId: string }[]).find((m) => m.authenticationType === "PUSH_OTP")!;
    const selected = await put(href(authenticated, "selectAuthenticationMethod"),
      { authenticationMethodId: app.authenticationMethodId });
    assert.equal(selected.body.chosenScaMethod.authenticationType, "PUSH_OTP", selected.text);
    assert.equal(selected.body.challengeData.otpMaxLength, 6);
    const done = await put(href(selected, "authoriseTransaction"),
      { scaAuthenticationData: await totp("gina") });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    assert.equal((await statusOf(path)).transactionStatus, "ACSC");
    // After the end, a further update is refused and books nothing again.
    refused(await put(href(selected, "authoriseTransaction"), { scaAuthenticationData: "1" }),
      400, "SCA_INVALID");
  });

test("a decoupled payment: bob approves it in his app; received, then finalised, then booked",
  async () => {
    const res = await created(SCT, single(BOB_MAIN), prefer("decoupled, redirect", "bob"),
      "DECOUPLED");
    assert.match(res.body.psuMessage, /app/);
    const scaStatus = href(res, "scaStatus");
    assert.equal((await bank.tpp.get(scaStatus)).body.scaStatus, "received");
    const acted = await bank.browser().post("/sandbox/app/bob/approve", {});
    assert.equal(acted.status, 200, acted.html);
    assert.equal(JSON.parse(acted.html).resourceId, res.body.paymentId);
    assert.equal((await bank.tpp.get(scaStatus)).body.scaStatus, "finalised");
    assert.equal((await statusOf(`${SCT}/${res.body.paymentId}`)).transactionStatus, "ACSC");
  });

test("decoupled without PSU-ID: the TPP names bob by an empty PUT, then his app sees it",
  async () => {
    const res = await created(SCT, single(BOB_MAIN), prefer("decoupled"), "DECOUPLED");
    const identify = href(res, "updatePsuIdentification");
    refused(await put(identify), 400, "FORMAT_ERROR");
    const named = await put(identify, undefined, { "PSU-ID": "bob" });
    assert.equal(named.status, 200, named.text);
    assert.match(named.body.psuMessage, /app/);
    const acted = await bank.browser().post("/sandbox/app/bob/reject", {});
    assert.equal(JSON.parse(acted.html).scaStatus, "failed");
    assert.equal((await statusOf(`${SCT}/${res.body.paymentId}`)).transactionStatus, "RJCT");
  });

test("an embedded cancellation of a periodic payment: DELETE asks for it, carol's code ends it",
  async () => {
    const tomorrow = addDays(dateInZone(new Date(), bank.app.config.timeZone), 1);
    const body = { ...single(CAROL_MAIN), startDate: tomorrow, frequency: "Monthly",
      dayOfExecution: "1", executionRule: "following" };
    const res = await created(PERIODIC, body, prefer("embedded", "carol"), "EMBEDDED");
    const path = `${PERIODIC}/${res.body.paymentId}`;
    const authenticated = await put(href(res, "updatePsuAuthentication"), password("carol"));
    await put(href(authenticated, "authoriseTransaction"),
      { scaAuthenticationData: await totp("carol") });
    assert.equal((await statusOf(path)).transactionStatus, "ACTC");
    const cancelled = await bank.tpp.call("DELETE", path,
      { headers: { "Client-SCA-Approach-Preference": "embedded", "PSU-ID": "carol" } });
    assert.equal(cancelled.status, 202, cancelled.text);
    const update = href(cancelled, "updatePsuAuthentication");
    assert.match(update, new RegExp(`^${path}/cancellation-authorisations/`));
    const again = await put(update, password("carol"));
    assert.equal(again.body.scaStatus, "scaMethodSelected", again.text);
    const done = await put(href(again, "authoriseTransaction"),
      { scaAuthenticationData: await totp("carol") });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    assert.equal((await statusOf(path)).transactionStatus, "CANC");
  });

test("a wrong password and a wrong code are PSU_CREDENTIALS_INVALID and count, as on /v1",
  async () => {
    const first = await created(SCT, single(CAROL_MAIN), prefer("embedded", "carol"), "EMBEDDED");
    const update = href(first, "updatePsuAuthentication");
    assert.match(refused(await put(update, { psuData: { password: "not-carols" } }), 401,
      "PSU_CREDENTIALS_INVALID"), /4 more/);
    assert.equal((await bank.tpp.get(href(first, "scaStatus"))).body.scaStatus, "psuIdentified");
    // The same PSU through /v1: the failure counted there too.
    const v1 = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers",
      paymentBody({ debtorAccount: CAROL_MAIN }),
      { ...PRESENT, "TPP-Redirect-Preferred": "false", "PSU-ID": "carol" });
    const v1Next = linkOf(bank.tpp, v1.body._links.updatePsuAuthentication);
    const wrongAgain = await bank.tpp.call("PUT", v1Next,
      { body: { psuData: { password: "still-not" } } });
    assert.equal(wrongAgain.status, 401, wrongAgain.text);
    assert.match(JSON.stringify(wrongAgain.body), /3 more/);
    const authenticated = await put(update, password("carol"));
    assert.equal(authenticated.body.scaStatus, "scaMethodSelected", authenticated.text);
    assert.match(refused(await put(href(authenticated, "authoriseTransaction"),
      { scaAuthenticationData: "000000" }), 401, "PSU_CREDENTIALS_INVALID"), /2 more/);
    const done = await put(href(authenticated, "authoriseTransaction"),
      { scaAuthenticationData: await totp("carol") });
    assert.equal(done.body.scaStatus, "finalised", done.text);
  });

test("refusals: a malformed preference, bodies with none or two updates, an unknown method, a redirect authorisation",
  async () => {
    refused(await bank.tpp.post(SCT, single(BOB_MAIN), prefer("embedded; decoupled")), 400,
      "FORMAT_ERROR");
    const res = await created(SCT, single(GINA_MAIN), prefer("embedded", "gina"), "EMBEDDED");
    const update = href(res, "updatePsuAuthentication");
    refused(await put(update, {}), 400, "FORMAT_ERROR");
    refused(await put(update, { scaAuthenticationData: "1", authenticationMethodId: "x" }), 400,
      "FORMAT_ERROR");
    refused(await put(update, { scaAuthenticationData: "123456" }), 400, "SCA_INVALID");
    const authenticated = await put(update, password("gina"));
    refused(await put(href(authenticated, "selectAuthenticationMethod"),
      { authenticationMethodId: "nosuchmethod" }), 400, "SCA_METHOD_UNKNOWN");
    const redirect = await bank.tpp.post(SCT, single(BOB_MAIN),
      { ...prefer("redirect"), "Client-Redirect-URI": OK_URI });
    assert.equal(redirect.headers["aspsp-sca-approach"], "REDIRECT", redirect.text);
    refused(await put(href(redirect, "scaStatus"), password("bob"), { "PSU-ID": "bob" }), 405,
      "SERVICE_INVALID");
    const unknown = `${SCT}/${res.body.paymentId}/authorisations/no-such-authorisation`;
    refused(await put(unknown, password("gina")), 404, "RESOURCE_UNKNOWN");
  });

test("a bank offering the redirect alone: preferences get the redirect, and PUT is 405",
  async (t) => {
    const own = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect",
      SCA_DEFAULT_APPROACH: "redirect" } });
    const res = await own.tpp.post(SCT, single(BOB_MAIN),
      { ...prefer("embedded, decoupled", "bob"), "Client-Redirect-URI": OK_URI });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
    const answer = await own.tpp.call("PUT", res.body._links.scaStatus.href,
      { body: password("bob"), headers: { "PSU-ID": "bob" } });
    assert.equal(answer.status, 405, answer.text);
    assert.equal(answer.body.apiClientMessages[0].code, "SERVICE_INVALID");
  });
