/**
 * /v2 account reads (AIS 2.4.1) with a /v2 consent: the same accounts, balances and pages of
 * transactions as /v1, in the openFinance files' shapes (checked by the test client) and with
 * the 2.x query parameters; a /v1 consent is refused there, and a /v2 one on /v1.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ALICE_MAIN, authorisedConsent, confirm, OK_URI, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import { transactionsResponse } from "../../src/api/schemas.js";
import { v2Presenters } from "../../src/api/v2/present.js";
import { CLIENT } from "../support/v2-bodies.js";


let bank: TestBank;
let consentId: string;
let accountId: string;

before(async () => {
  bank = await startBank();
  const res = await bank.tpp.post("/psd2/v2/consents/account-access", {
    access: { payments: [{ account: { iban: ALICE_MAIN }, rights: ["ais"] }] },
    consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
  }, CLIENT);
  assert.equal(res.status, 201, res.text);
  consentId = res.body.consentId;
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, res.body._links.scaRedirect.href, "alice"), [ALICE_MAIN]);
  assert.equal(done.location, OK_URI);
});
after(async () => { await bank.close(); });

const read = (path: string, id = consentId) =>
  bank.tpp.get(`/psd2/v2${path}`, { "Consent-ID": id, "PSU-IP-Address": "192.0.2.1" });

test("the account list, an account and its balances", async () => {
  const list = await read("/accounts?withBalance=true");
  assert.equal(list.status, 200, list.text);
  assert.equal(list.headers["x-reference-api-version"], "2.4.1");
  assert.deepEqual(list.body.accounts.map((a: { iban: string }) => a.iban), [ALICE_MAIN]);
  accountId = list.body.accounts[0].resourceId;
  assert.ok(list.body.accounts[0].balances.length > 0);
  const one = await read(`/accounts/${accountId}`);
  assert.equal(one.status, 200, one.text);
  assert.equal(one.body.account.iban, ALICE_MAIN);
  const balances = await read(`/accounts/${accountId}/balances`);
  assert.equal(balances.status, 200, balances.text);
  assert.equal(balances.body.account.iban, ALICE_MAIN);
});

const monthAgo = () => new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

test("transactions with the 2.x query parameters, a page at a time", async () => {
  const query = `dateFrom=${monthAgo()}&bookingStatus=both&itemsPerPage=1`;
  const first = await read(`/accounts/${accountId}/transactions?${query}`);
  assert.equal(first.status, 200, first.text);
  const serialize = SerializerSelector()({}, {})(
    { schema: v2Presenters.schema(transactionsResponse) } as never) as (value: unknown) => string;
  assert.equal(first.text, serialize(first.body), "the joined page is what the 2.x schema writes");
  assert.equal(first.body.account.iban, ALICE_MAIN);
  const [booked] = first.body.transactions.booked;
  assert.equal(first.body.transactions.booked.length, 1);
  // 2.x lists the unstructured remittance as lines (1.3: one string).
  assert.ok(Array.isArray(booked.remittanceInformationUnstructured), JSON.stringify(booked));
  const { next } = first.body.transactions._links;
  assert.match(next.href, /^\/psd2\/v2\/accounts\/[^/]+\/transactions\?.*pageIndex=1/);
  const second = await bank.tpp.get(next.href, { "Consent-ID": consentId,
    "PSU-IP-Address": "192.0.2.1" });
  assert.equal(second.status, 200, second.text);
  assert.notEqual(second.body.transactions.booked[0].transactionId, booked.transactionId);
  const detail = await read(`/accounts/${accountId}/transactions/${booked.transactionId}`);
  assert.equal(detail.status, 200, detail.text);
  assert.equal(detail.body.transactionDetails.transactionId, booked.transactionId);
  const missing = await read(`/accounts/${accountId}/transactions?dateFrom=${monthAgo()}`);
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.body.apiClientMessages[0].path, "bookingStatus");
});

test("each interface reads only its own consents", async () => {
  const v1 = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
  const refused = await read("/accounts", v1);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.apiClientMessages[0].code, "CONSENT_UNKNOWN");
  assert.match(refused.body.apiClientMessages[0].text, /created through \/v1/);
  const throughV1 = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId });
  assert.equal(throughV1.status, 400, throughV1.text);
  assert.match(throughV1.body.tppMessages[0].text, /created through \/v2/);
  const unknown = await read(`/accounts/${crypto.randomUUID()}/balances`);
  assert.ok([401, 403, 404].includes(unknown.status), unknown.text);
  assert.ok(unknown.body.apiClientMessages[0].code);
});
