/**
 * /v2: the openFinance Consent API 2.1 for account access beside NextGenPSD2 1.3 at /v1, over the
 * same consent aggregate and PSU pages. Every /v2 answer (and accepted request) is checked against
 * the openFinance files by the test client (test/support/openfinance.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig, SETTINGS } from "../../src/config.js";
import { openFinanceViolations } from "../support/openfinance.js";
import { ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, confirm, OK_URI, reachReview } from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import { CLIENT } from "../support/v2-bodies.js";

const V2 = "/psd2/v2/consents/account-access";
const ALICE_CARD = "525412******3241";

const detailed = (over: Record<string, unknown> = {}) => ({
  access: { payments: [{ account: { iban: ALICE_MAIN }, rights: ["accountDetails", "balances"] }] },
  consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
  ...over,
});

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const refusal = (body: any) => body.apiClientMessages[0];

async function created(body: unknown = detailed(), headers: Record<string, string> = CLIENT) {
  const res = await bank.tpp.post(V2, body, headers);
  assert.equal(res.status, 201, res.text);
  return res;
}

test("API_VERSIONS: v1,v2 in sandbox, v1 in production, an unknown value refused at start", () => {
  assert.deepEqual(loadConfig({}).apiVersions, ["v1", "v2"]);
  const earlier = { mode: "production", apiPort: 8443, authPort: 8444 } as const;
  assert.deepEqual(SETTINGS.apiVersions.read(undefined, earlier).value, ["v1"]);
  assert.throws(() => loadConfig({ API_VERSIONS: "v1,v3" }),
    (e: unknown) => e instanceof ConfigError && /API_VERSIONS must name v1, v2, got "v1,v3"/.test(e.message));
  assert.throws(() => loadConfig({ API_VERSIONS: "v2" }), /API_VERSIONS must include v1/);
  assert.throws(() => loadConfig({ SCA_APPROACHES: "embedded", SCA_DEFAULT_APPROACH: "embedded" }),
    /API_VERSIONS with v2 needs redirect/);
  assert.throws(() => loadConfig({ AUTHORISATION_CONFIRMATION: "true" }),
    /API_VERSIONS with v2 needs AUTHORISATION_CONFIRMATION false: .*\(API_VERSIONS=v1 serves/);
  assert.equal(loadConfig({ AUTHORISATION_CONFIRMATION: "true", API_VERSIONS: "v1" })
    .authorisationConfirmation, true);
});

test("the checker itself refuses a 1.3 answer on /v2", () => {
  const violations = openFinanceViolations({
    method: "POST", path: V2, requestBody: detailed(), status: 201,
    headers: { "x-request-id": "r", location: "l", "aspsp-sca-approach": "REDIRECT" },
    body: { consentStatus: "received", consentId: "c", _links: { scaRedirect: "https://x" } },
  }).join("\n");
  assert.match(violations, /scaRedirect must be object/);
  const refused = openFinanceViolations({
    method: "GET", path: `${V2}/x`, requestBody: undefined, status: 403, headers: {},
    body: { apiClientMessages: [{ category: "ERROR", code: "NO_SUCH_CODE" }] },
  }).join("\n");
  assert.match(refused, /code/);
});

test("a detailed consent: created, authorised on the PSU pages, read, its status, deleted", async () => {
  const res = await created();
  const { consentId, _links } = res.body;
  assert.equal(res.headers.location, `${V2}/${consentId}`);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(res.body.consentStatus, "received");
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, _links.scaRedirect.href, "alice"),
    [ALICE_MAIN], { balances: [ALICE_MAIN], transactions: [] });
  assert.equal(done.location, OK_URI);
  const status = await bank.tpp.get(`${V2}/${consentId}/status`);
  assert.deepEqual(status.body, { consentStatus: "valid" });
  const read = await bank.tpp.get(`${V2}/${consentId}`);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.access, { payments: [
    { account: { iban: ALICE_MAIN }, rights: ["accountDetails", "balances"] }] });
  assert.equal(read.body.consentType, "detailed");
  // 9999-12-31 asks for the bank's maximum (CONSENT_VALIDITY_DAYS_MAX days from today).
  assert.match(read.body.validTo, /^20\d\d-\d\d-\d\d$/);
  const authorisations = await bank.tpp.get(`${V2}/${consentId}/authorisations`);
  assert.equal(authorisations.body.authorisationIds.length, 1);
  const sca = await bank.tpp.get(
    `${V2}/${consentId}/authorisations/${authorisations.body.authorisationIds[0]}`);
  assert.deepEqual(sca.body, { scaStatus: "finalised" });
  const deleted = await bank.tpp.call("DELETE", `${V2}/${consentId}`);
  assert.equal(deleted.status, 204, deleted.text);
  const after = await bank.tpp.get(`${V2}/${consentId}/status`);
  assert.equal(after.body.consentStatus, "terminatedByTpp");
});

test("an aspspManaged consent: the PSU picks the accounts on the bank's pages", async () => {
  const body = detailed({ consentType: "aspspManaged",
    access: { payments: [{ rights: ["ais"] }] } });
  const { body: made } = await created(body);
  const before = await bank.tpp.get(`${V2}/${made.consentId}`);
  assert.deepEqual(before.body.access, {});
  const browser = bank.browser();
  const review = await reachReview(browser, made._links.scaRedirect.href, "alice");
  const done = await confirm(browser, review, [ALICE_SAVINGS, ALICE_CARD],
    { balances: [ALICE_SAVINGS, ALICE_CARD], transactions: [ALICE_SAVINGS] });
  assert.equal(done.location, OK_URI);
  const read = await bank.tpp.get(`${V2}/${made.consentId}`);
  assert.equal(read.body.consentType, "aspspManaged");
  assert.deepEqual(read.body.access, {
    payments: [{ account: { iban: ALICE_SAVINGS },
      rights: ["accountDetails", "balances", "transactions"] }],
    // A card the PSU picked is under cards, by its masked PAN.
    cards: [{ account: { maskedPan: ALICE_CARD }, rights: ["accountDetails", "balances"] }],
  });
});

test("Client-Explicit-Authorisation-Preferred: the TPP starts the redirect authorisation", async () => {
  const { body } = await created(detailed(),
    { ...CLIENT, "Client-Explicit-Authorisation-Preferred": "true" });
  assert.deepEqual(Object.keys(body._links).sort(), ["self", "startAuthorisation", "status"]);
  const started = await bank.tpp.post(body._links.startAuthorisation.href, undefined,
    { "Client-SCA-Approach-Preference": "signature, redirect, decoupled" });
  assert.equal(started.status, 201, started.text);
  assert.equal(started.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(started.body.scaStatus, "received");
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, started.body._links.scaRedirect.href, "alice"), [ALICE_MAIN]);
  assert.equal(done.location, OK_URI);
  const again = await bank.tpp.post(body._links.startAuthorisation.href, undefined);
  assert.equal(again.status, 409, again.text);
  assert.equal(refusal(again.body).code, "STATUS_INVALID");
});

test("a consent lives in the interface that created it: the other one refuses it", async () => {
  const v2 = (await created()).body.consentId;
  const throughV1 = await bank.tpp.get(`/psd2/v1/consents/${v2}`);
  assert.equal(throughV1.status, 403, throughV1.text);
  assert.equal(throughV1.body.tppMessages[0].code, "CONSENT_UNKNOWN");
  assert.match(throughV1.body.tppMessages[0].text, /created through \/v2/);
  const v1 = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
  for (const path of [`${V2}/${v1}`, `${V2}/${v1}/status`, `${V2}/${v1}/authorisations`]) {
    const res = await bank.tpp.get(path);
    assert.equal(res.status, 403, res.text);
    assert.equal(refusal(res.body).code, "CONSENT_UNKNOWN");
    assert.match(refusal(res.body).text, /created through \/v1/);
  }
  const deleted = await bank.tpp.call("DELETE", `${V2}/${v1}`);
  assert.equal(deleted.status, 403);
  const started = await bank.tpp.post(`${V2}/${v1}/authorisations`, undefined);
  assert.equal(started.status, 403, started.text);
  const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": v2 });
  assert.equal(accounts.status, 400, accounts.text);
  assert.match(accounts.body.tppMessages[0].text, /created through \/v2/);
  const basket = await bank.tpp.post("/psd2/v1/signing-baskets", { consentIds: [v2] },
    { "TPP-Redirect-URI": OK_URI, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(basket.status, 400, basket.text);
  assert.equal(basket.body.tppMessages[0].path, "consentIds[0]");
  assert.match(basket.body.tppMessages[0].text, /created through \/v2/);
  const stillValid = await bank.tpp.get(`/psd2/v1/consents/${v1}/status`);
  assert.equal(stillValid.body.consentStatus, "valid");
});

test("refusals in the file's terms, each changing nothing", async () => {
  const cases: [Record<string, unknown>, Record<string, string>, number, string, string][] = [
    [detailed({ consentType: "global" }), CLIENT, 400, "CONSENT_TYPE_NOT_SUPPORTED", "consentType"],
    [detailed({ consentType: "accountList" }), CLIENT, 400, "CONSENT_TYPE_NOT_SUPPORTED",
      "consentType"],
    [detailed(), { "PSU-IP-Address": "192.0.2.1" }, 400, "FORMAT_ERROR", "Client-Redirect-URI"],
    [detailed(), { ...CLIENT, "Client-Redirect-URI": "http://tpp.example/ok" }, 400,
      "FORMAT_ERROR", "Client-Redirect-URI"],
    [detailed(), { ...CLIENT, "Client-SCA-Approach-Preference": "carrier-pigeon" }, 400,
      "FORMAT_ERROR", "Client-SCA-Approach-Preference"],
    [detailed({ validTo: "2001-01-01" }), CLIENT, 400, "FORMAT_ERROR", "validTo"],
    [detailed({ validTo: undefined }), CLIENT, 400, "FORMAT_ERROR", "validTo"],
    [detailed({ access: { payments: [{ rights: ["balances"] }] } }), CLIENT, 400, "FORMAT_ERROR",
      "access.payments[0].account"],
    [detailed({ consentType: "aspspManaged" }), CLIENT, 400, "FORMAT_ERROR",
      "access.payments[0].account"],
    [detailed({ access: { payments: [{ account: { iban: ALICE_MAIN }, rights: ["orders"] }] } }),
      CLIENT, 400, "PARAMETER_NOT_SUPPORTED", "access.payments[0].rights"],
    [detailed({ access: { loans: [{ rights: ["ais"] }] } }), CLIENT, 400,
      "PARAMETER_NOT_SUPPORTED", "access.loans"],
  ];
  const consents = () => bank.app.store.consents.search(bank.app.store.db, { limit: 1000 });
  const before = (await consents()).length;
  for (const [body, headers, status, code, path] of cases) {
    const res = await bank.tpp.post(V2, body, headers);
    assert.equal(res.status, status, `${path}: ${res.text}`);
    assert.equal(refusal(res.body).code, code, res.text);
    assert.equal(refusal(res.body).path, path, res.text);
  }
  assert.equal((await consents()).length, before, "no refused consent is stored");
  const unknown = await bank.tpp.get(`${V2}/${crypto.randomUUID()}`);
  assert.equal(unknown.status, 403);
  assert.equal(refusal(unknown.body).code, "CONSENT_UNKNOWN");
  const { consentId } = (await created()).body;
  const noSuch = await bank.tpp.get(`${V2}/${consentId}/authorisations/${crypto.randomUUID()}`);
  assert.equal(noSuch.status, 404);
  assert.equal(refusal(noSuch.body).code, "RESOURCE_UNKNOWN");
});

test("API_VERSIONS=v1 serves no /v2 path", async (t) => {
  const own = await startOwnBank(t, { env: { API_VERSIONS: "v1" } });
  // A bank without /v2 has no openFinance contract there: its unknown paths are /v1's.
  own.tpp.check = undefined;
  const res = await own.tpp.post(V2, detailed(), CLIENT);
  assert.equal(res.status, 404, res.text);
});
