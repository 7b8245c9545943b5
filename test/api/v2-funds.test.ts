/**
 * /v2: openFinance Consent API 2.1 funds-confirmation consents and the PIIS 2.4.1 funds
 * confirmation, over the same consent aggregate and PSU pages as /v1's. Every /v2 answer (and
 * accepted request) is checked against the openFinance files by the test client
 * (test/support/openfinance.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, BOB_MAIN, confirm, EXTERNAL_IBAN, OK_URI, reachReview, REDIRECTS,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";
import { CLIENT, fundsConsent, fundsQuestion } from "../support/v2-bodies.js";

const CONSENTS = "/psd2/v2/consents/funds-confirmations";
const FUNDS = "/psd2/v2/funds-confirmations";
const ACCOUNT_ACCESS = "/psd2/v2/consents/account-access";

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { FUNDS_CONFIRMATION_CONSENT_REQUIRED: "true" } });
});
after(async () => { await bank.close(); });

const refusal = (res: TppResponse) => res.body.apiClientMessages[0];

function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(refusal(res).code, code, res.text);
  if (path !== undefined) assert.equal(refusal(res).path, path, res.text);
}

async function created(body: unknown = fundsConsent(), headers: Record<string, string> = CLIENT) {
  const res = await bank.tpp.post(CONSENTS, body, headers);
  assert.equal(res.status, 201, res.text);
  return res;
}

/** A funds-confirmation consent for `iban` that bob granted on the redirect pages. */
async function granted(iban = BOB_MAIN): Promise<string> {
  const { body } = await created(fundsConsent({
    access: { payments: [{ account: { iban }, rights: ["fundsConfirmations"] }] } }));
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, body._links.scaRedirect.href,
    "bob"), [iban]);
  assert.equal(done.location, OK_URI, done.html);
  return body.consentId;
}

const ask = (consentId: string | null, iban = BOB_MAIN, amount = "1.00") =>
  bank.tpp.post(FUNDS, fundsQuestion(iban, amount),
  consentId === null ? {} : { "Consent-ID": consentId });

test("a funds-confirmation consent: created, authorised on the PSU pages, used, deleted", async () => {
  const res = await created();
  const { consentId, _links } = res.body;
  assert.equal(res.headers.location, `${CONSENTS}/${consentId}`);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(res.headers["x-reference-api-version"], "2.1");
  assert.equal(res.body.consentStatus, "received");
  assert.deepEqual((await bank.tpp.get(`${CONSENTS}/${consentId}/status`)).body,
    { consentStatus: "received" });
  assertRefusal(await ask(consentId), 401, "CONSENT_INVALID", "Consent-ID");
  const browser = bank.browser();
  const review = await reachReview(browser, _links.scaRedirect.href, "bob");
  assert.match(review.html, /asks to check whether your account holds the funds/);
  const done = await confirm(browser, review, [BOB_MAIN]);
  assert.equal(done.location, OK_URI, done.html);
  const read = await bank.tpp.get(`${CONSENTS}/${consentId}`);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.access,
    { payments: [{ account: { iban: BOB_MAIN }, rights: ["fundsConfirmations"] }] });
  assert.equal(read.body.consentType, "detailed");
  assert.equal(read.body.consentStatus, "valid");
  // 9999-12-31 asks for the bank's maximum (CONSENT_VALIDITY_DAYS_MAX days from today).
  assert.match(read.body.validTo, /^20\d\d-\d\d-\d\d$/);
  const authorisations = await bank.tpp.get(`${CONSENTS}/${consentId}/authorisations`);
  assert.equal(authorisations.body.authorisationIds.length, 1);
  const sca = await bank.tpp.get(
    `${CONSENTS}/${consentId}/authorisations/${authorisations.body.authorisationIds[0]}`);
  assert.deepEqual(sca.body, { scaStatus: "finalised" });
  const yes = await ask(consentId);
  assert.equal(yes.status, 200, yes.text);
  assert.deepEqual(yes.body, { fundsAvailable: true });
  assert.equal(yes.headers["x-reference-api-version"], "2.4.1");
  assert.deepEqual((await ask(consentId, BOB_MAIN, "999999999.99")).body,
    { fundsAvailable: false });
  const deleted = await bank.tpp.call("DELETE", `${CONSENTS}/${consentId}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.deepEqual((await bank.tpp.get(`${CONSENTS}/${consentId}/status`)).body,
    { consentStatus: "terminatedByTpp" });
  assertRefusal(await ask(consentId), 401, "CONSENT_EXPIRED", "Consent-ID");
});

test("validTo: a date within the bank's maximum is kept, one beyond it adjusted down", async () => {
  const settings = bank.app.config;
  const today = dateInZone(new Date(), settings.timeZone);
  const soon = addDays(today, 10);
  const kept = (await created(fundsConsent({ validTo: soon }))).body.consentId;
  assert.equal((await bank.tpp.get(`${CONSENTS}/${kept}`)).body.validTo, soon);
  const far = (await created(fundsConsent({ validTo: "2999-01-01" }))).body.consentId;
  assert.equal((await bank.tpp.get(`${CONSENTS}/${far}`)).body.validTo,
    addDays(today, settings.consentValidityDaysMax));
});

test("Client-Explicit-Authorisation-Preferred: the TPP starts the redirect authorisation", async () => {
  const { body } = await created(fundsConsent(),
    { ...CLIENT, "Client-Explicit-Authorisation-Preferred": "true" });
  assert.deepEqual(Object.keys(body._links).sort(), ["self", "startAuthorisation", "status"]);
  const started = await bank.tpp.post(body._links.startAuthorisation.href, undefined);
  assert.equal(started.status, 201, started.text);
  assert.equal(started.headers["aspsp-sca-approach"], "REDIRECT");
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, started.body._links.scaRedirect.href, "bob"), [BOB_MAIN]);
  assert.equal(done.location, OK_URI);
  assert.deepEqual((await ask(body.consentId)).body, { fundsAvailable: true });
  assertRefusal(await bank.tpp.post(body._links.startAuthorisation.href, undefined), 409,
    "STATUS_INVALID");
});

test("a funds-confirmation consent lives in its interface and its kind: others refuse it", async () => {
  const v2Funds = await granted();
  const v1Funds = (await bank.tpp.post("/psd2/v1/consents/confirmation-of-funds",
    { account: { iban: BOB_MAIN } }, REDIRECTS)).body.consentId;
  const v2Access = (await bank.tpp.post(ACCOUNT_ACCESS, {
    access: { payments: [{ account: { iban: ALICE_MAIN }, rights: ["balances"] }] },
    consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
  }, CLIENT)).body.consentId;
  const v1Access = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
  const elsewhere: [TppResponse, number, RegExp][] = [
    [await bank.tpp.get(`/psd2/v1/consents/confirmation-of-funds/${v2Funds}`), 403,
      /created through \/v2/],
    [await bank.tpp.post("/psd2/v1/funds-confirmations", { account: { iban: BOB_MAIN },
      instructedAmount: { currency: "EUR", amount: "1" } }, { "Consent-ID": v2Funds }), 400,
      /created through \/v2/],
  ];
  for (const [res, status, text] of elsewhere) {
    assert.equal(res.status, status, res.text);
    assert.equal(res.body.tppMessages[0].code, "CONSENT_UNKNOWN");
    assert.match(res.body.tppMessages[0].text, text);
  }
  const refused: [TppResponse, number, RegExp][] = [
    [await bank.tpp.get(`${CONSENTS}/${v1Funds}`), 403, /created through \/v1/],
    [await bank.tpp.get(`${CONSENTS}/${v1Funds}/status`), 403, /created through \/v1/],
    [await ask(v1Funds), 400, /created through \/v1/],
    [await ask(v1Access), 400, /created through \/v1/],
    [await bank.tpp.get(`${CONSENTS}/${v2Access}`), 403, /gives access to account information/],
    [await bank.tpp.call("DELETE", `${CONSENTS}/${v2Access}`), 403, /access to account/],
    [await bank.tpp.post(`${CONSENTS}/${v2Access}/authorisations`, undefined), 403,
      /access to account/],
    [await ask(v2Access), 400, /gives access to account information/],
    [await bank.tpp.get(`${ACCOUNT_ACCESS}/${v2Funds}`), 403, /gives funds confirmations/],
    [await bank.tpp.get(`${ACCOUNT_ACCESS}/${v2Funds}/authorisations`), 403,
      /gives funds confirmations/],
    [await bank.tpp.get("/psd2/v2/accounts", { "Consent-ID": v2Funds }), 400,
      /gives funds confirmations/],
  ];
  for (const [res, status, text] of refused) {
    assertRefusal(res, status, "CONSENT_UNKNOWN");
    assert.match(refusal(res).text, text);
  }
  assert.deepEqual((await bank.tpp.get(`${ACCOUNT_ACCESS}/${v2Access}/status`)).body,
    { consentStatus: "received" }, "a refused deletion changes nothing");
});

test("refusals of a funds-confirmation consent in the file's terms, each storing nothing", async () => {
  const one = (iban: string, rights = ["fundsConfirmations"]) => ({ account: { iban }, rights });
  const cases: [Record<string, unknown>, Record<string, string>, number, string, string][] = [
    [fundsConsent({ consentType: "aspspManaged" }), CLIENT, 400, "CONSENT_TYPE_NOT_SUPPORTED",
      "consentType"],
    [fundsConsent({ consentType: "global" }), CLIENT, 400, "CONSENT_TYPE_NOT_SUPPORTED",
      "consentType"],
    [fundsConsent({ access: { payments: [one(ALICE_MAIN, ["balances"])] } }), CLIENT, 400,
      "PARAMETER_NOT_SUPPORTED", "access.payments[0].rights"],
    [fundsConsent({ access: { payments: [one(ALICE_MAIN), one(ALICE_SAVINGS)] } }), CLIENT, 400,
      "PARAMETER_NOT_SUPPORTED", "access.payments"],
    [fundsConsent({ access: { cards: [{ rights: ["fundsConfirmations"] }] } }), CLIENT, 400,
      "PARAMETER_NOT_SUPPORTED", "access.cards"],
    [fundsConsent({ recurringIndicator: false }), CLIENT, 400, "PARAMETER_NOT_SUPPORTED",
      "recurringIndicator"],
    [fundsConsent({ access: { payments: [{ rights: ["fundsConfirmations"] }] } }), CLIENT, 400,
      "FORMAT_ERROR", "access.payments[0].account"],
    [fundsConsent({ access: { payments: [one(EXTERNAL_IBAN)] } }), CLIENT, 400, "FORMAT_ERROR",
      "access.payments[0].account"],
    [fundsConsent({ validTo: "2001-01-01" }), CLIENT, 400, "FORMAT_ERROR", "validTo"],
    [fundsConsent({ validTo: undefined }), CLIENT, 400, "FORMAT_ERROR", "validTo"],
    [fundsConsent({ frequencyPerDay: 4 }), CLIENT, 400, "FORMAT_ERROR", "frequencyPerDay"],
    [fundsConsent(), { "PSU-IP-Address": "192.0.2.1" }, 400, "FORMAT_ERROR",
      "Client-Redirect-URI"],
    [fundsConsent(), { ...CLIENT, "Client-Redirect-URI": "http://tpp.example/ok" }, 400,
      "FORMAT_ERROR", "Client-Redirect-URI"],
    [fundsConsent(), { ...CLIENT, "Client-SCA-Approach-Preference": "carrier-pigeon" }, 400,
      "FORMAT_ERROR", "Client-SCA-Approach-Preference"],
  ];
  const consents = () => bank.app.store.consents.search(bank.app.store.db, { limit: 1000 });
  const before = (await consents()).length;
  for (const [body, headers, status, code, path] of cases) {
    assertRefusal(await bank.tpp.post(CONSENTS, body, headers), status, code, path);
  }
  assert.equal((await consents()).length, before, "no refused consent is stored");
  assertRefusal(await bank.tpp.get(`${CONSENTS}/${crypto.randomUUID()}`), 403, "CONSENT_UNKNOWN");
  const { consentId } = (await created()).body;
  assertRefusal(await bank.tpp.get(`${CONSENTS}/${consentId}/authorisations/${crypto.randomUUID()}`),
    404, "RESOURCE_UNKNOWN");
});

test("refusals of a funds confirmation under the consent rule: status, code, path", async () => {
  const consentId = await granted();
  const rows: [TppResponse, number, string, string][] = [
    [await ask(null), 400, "FORMAT_ERROR", "Consent-ID"],
    [await ask(crypto.randomUUID()), 400, "CONSENT_UNKNOWN", "Consent-ID"],
    [await ask(consentId, ALICE_MAIN), 401, "CONSENT_INVALID", "account"],
    [await ask(consentId, "DE00"), 400, "FORMAT_ERROR", "account.iban"],
    [await ask(consentId, BOB_MAIN, "0"), 400, "FORMAT_ERROR", "instructedAmount.amount"],
    [await bank.tpp.post(FUNDS, { account: { iban: BOB_MAIN } }, { "Consent-ID": consentId }),
      400, "FORMAT_ERROR", "instructedAmount"],
  ];
  for (const [res, status, code, path] of rows) assertRefusal(res, status, code, path);
});

test("a TPP without the PSP_IC role is refused with ROLE_INVALID, 401 as the files have it",
  async () => {
    const client = await bank.tppWith({
      organizationIdentifier: "PSDDE-BAFIN-777777", roles: ["PSP_AI", "PSP_PI"],
    });
    const rows = [
      await client.post(CONSENTS, fundsConsent(), CLIENT),
      await client.post(FUNDS, { account: { iban: BOB_MAIN },
        instructedAmount: { currency: "EUR", amount: "1" } }),
    ];
    for (const res of rows) assertRefusal(res, 401, "ROLE_INVALID");
  });

test("without FUNDS_CONFIRMATION_CONSENT_REQUIRED the bank confirms funds without a consent",
  async (t) => {
    const own = await startOwnBank(t);
    const ask = (amount: string, iban = BOB_MAIN) => own.tpp.post(FUNDS,
      { account: { iban }, instructedAmount: { currency: "EUR", amount } });
    assert.deepEqual((await ask("1.00")).body, { fundsAvailable: true });
    assert.deepEqual((await ask("999999999.99")).body, { fundsAvailable: false });
    assertRefusal(await ask("1.00", EXTERNAL_IBAN), 400, "RESOURCE_UNKNOWN", "account");
  });
