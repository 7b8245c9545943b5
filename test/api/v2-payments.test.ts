/**
 * /v2: PIS 2.4.1 payment initiation beside NextGenPSD2 1.3 at /v1, over the same payment
 * aggregate, SCA sessions and PSU pages: single, periodic and bulk payments created, authorised
 * on the redirect pages, read, cancelled; the generic authorisation sub-resources; refusals in
 * the file's terms. Every /v2 answer (and accepted request) is checked against the openFinance
 * files by the test client (test/support/openfinance.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import { ALICE_MAIN, confirm, createPayment, EXTERNAL_IBAN, ibanOf, OK_URI, reachReview } from "../support/flows.js";
import { openFinanceViolations } from "../support/openfinance.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";
import { bulkPayment, CLIENT, entry as bodyEntry, periodicPayment, singlePayment } from "../support/v2-bodies.js";

const V2 = "/psd2/v2";
const SCT = `${V2}/payments/sepa-credit-transfers`;
const PERIODIC = `${V2}/periodic-payments/sepa-credit-transfers`;
const BULK = `${V2}/bulk-payments/sepa-credit-transfers`;

const entry = bodyEntry;
const single = singlePayment;
const bulk = bulkPayment;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const tomorrow = () => addDays(dateInZone(new Date(), bank.app.config.timeZone), 1);
const periodic = (over: Record<string, unknown> = {}) => periodicPayment(tomorrow(), over);

const refusal = (res: TppResponse) => res.body.apiClientMessages[0];

function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.apiClientMessages.length, 1, res.text);
  assert.equal(refusal(res).code, code, res.text);
  if (path !== undefined) assert.equal(refusal(res).path, path, res.text);
}

async function created(path: string, body: unknown, headers: Record<string, string> = CLIENT) {
  const res = await bank.tpp.post(path, body, headers);
  assert.equal(res.status, 201, res.text);
  const { paymentId } = res.body;
  assert.equal(res.headers.location, `${path}/${paymentId}`);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(res.headers["x-reference-api-version"], "2.4.1");
  return res;
}

/**
 * The PSU confirms on the bank's pages; its browser returns to Client-Redirect-URI. Bob pays: his
 * SMS codes need no wait for the next TOTP step between authorisations.
 */
async function authorise(scaRedirect: string, login = "bob") {
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, login));
  assert.equal(done.location, OK_URI, done.html);
}

const statusOf = async (path: string) => (await bank.tpp.get(`${path}/status`)).body.transactionStatus;

async function paymentRows(): Promise<number> {
  const row = await bank.app.store.db.selectFrom("payments")
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

test("the checker takes each payment path for its PIS operation and refuses 1.3's shapes", () => {
  const status = openFinanceViolations({
    method: "GET", path: `${SCT}/p/status`, requestBody: undefined, status: 200,
    headers: { "x-request-id": "r", "x-reference-api-version": "2.4.1" },
    body: { transactionStatus: "NOPE" },
  }).join("\n");
  // The status path is getTransactionStatus, not an {authorisation-category} named "status".
  assert.match(status, /transactionStatus must be equal to one of the allowed values/);
  const details = openFinanceViolations({
    method: "GET", path: `${SCT}/p`, requestBody: undefined, status: 200,
    headers: { "x-request-id": "r" },
    body: { ...single(), remittanceInformationUnstructured: "Order 42", transactionStatus: "RCVD" },
  }).join("\n");
  assert.match(details, /remittanceInformationUnstructured must be array/);
  // A refusal of a product outside the file's enums is still an answer of the operation its path
  // matches, its shape checked there.
  const refused = (code: string) => openFinanceViolations({
    method: "GET", path: `${V2}/bulk-payments/target-3-payments/p`, requestBody: undefined,
    status: 404, headers: { "x-request-id": "r", "x-reference-api-version": "2.4.1" },
    body: { apiClientMessages: [{ category: "ERROR", code }] },
  }).join("\n");
  assert.equal(refused("PRODUCT_UNKNOWN"), "");
  assert.match(refused("NOPE"), /code must match a schema in anyOf/);
});

test("a single payment: created, authorised on the PSU pages, its status and details; executed, it cannot be cancelled",
  async () => {
    const res = await created(SCT, single());
    const path = `${SCT}/${res.body.paymentId}`;
    assert.equal(res.body.transactionStatus, "RCVD");
    const { _links } = res.body;
    assert.deepEqual(Object.keys(_links).sort(), ["scaRedirect", "scaStatus", "self", "status"]);
    assert.equal(_links.self.href, path);
    const before = await bank.tpp.get(path);
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(before.body, { ...single(), transactionStatus: "RCVD" });
    assert.deepEqual((await bank.tpp.get(_links.scaStatus.href)).body, { scaStatus: "received" });
    await authorise(_links.scaRedirect.href);
    assert.equal(await statusOf(path), "ACSC");
    assert.equal((await bank.tpp.get(path)).body.transactionStatus, "ACSC");
    const ids = (await bank.tpp.get(`${path}/authorisations`)).body.authorisationIds;
    assert.deepEqual(ids, [_links.scaStatus.href.split("/").pop()]);
    assert.deepEqual((await bank.tpp.get(`${path}/authorisations/${ids[0]}`)).body,
      { scaStatus: "finalised" });
    assertRefusal(await bank.tpp.call("DELETE", path), 405, "CANCELLATION_INVALID");
    assertRefusal(await bank.tpp.post(`${path}/authorisations`, undefined), 409, "STATUS_INVALID");
    assertRefusal(await bank.tpp.post(`${path}/cancellation-authorisations`, undefined), 409,
      "STATUS_INVALID");
  });

test("a periodic payment: authorised, its cancellation authorised by the PSU through cancellation-authorisations",
  async () => {
    const res = await created(PERIODIC, periodic());
    const path = `${PERIODIC}/${res.body.paymentId}`;
    await authorise(res.body._links.scaRedirect.href);
    assert.equal(await statusOf(path), "ACTC");
    const { startDateTime: _time, ...asked } = periodic() as Record<string, unknown>;
    assert.deepEqual((await bank.tpp.get(path)).body, { ...asked, transactionStatus: "ACTC" });
    const cancelled = await bank.tpp.call("DELETE", path);
    assert.equal(cancelled.status, 202, cancelled.text);
    assert.equal(cancelled.body.transactionStatus, "ACTC");
    const ids = (await bank.tpp.get(`${path}/cancellation-authorisations`)).body.authorisationIds;
    assert.equal(ids.length, 1);
    const scaStatus = `${path}/cancellation-authorisations/${ids[0]}`;
    assert.equal(cancelled.body._links.scaStatus.href, scaStatus);
    assert.deepEqual((await bank.tpp.get(scaStatus)).body, { scaStatus: "received" });
    const browser = bank.browser();
    const review = await reachReview(browser, cancelled.body._links.scaRedirect.href, "bob");
    assert.match(review.html, /asks you to authorise the cancellation of a payment/);
    assert.equal((await confirm(browser, review)).location, OK_URI);
    assert.equal(await statusOf(path), "CANC");
    assert.deepEqual((await bank.tpp.get(scaStatus)).body, { scaStatus: "finalised" });
    assert.equal((await bank.tpp.get(`${path}/authorisations`)).body.authorisationIds.length, 1);
  });

test("a bulk payment: its count, control sum and paymentInformationId; one SCA books it", async () => {
  const res = await created(BULK, bulk());
  const path = `${BULK}/${res.body.paymentId}`;
  const read = await bank.tpp.get(path);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.paymentInformationId, "BULK-2026-11");
  assert.equal(read.body.numberOfTransactions, 2);
  assert.equal(read.body.controlSum, "3.30");
  assert.equal(read.body.batchBooking, true);
  assert.deepEqual(read.body.creditTransfers.map((e: any) => [e.creditor.name, e.instructedAmount.amount]),
    [["Merchant GmbH", "1.10"], ["Alice Schmidt", "2.20"]]);
  await authorise(res.body._links.scaRedirect.href);
  assert.equal(await statusOf(path), "ACSC");
  assert.equal((await bank.tpp.get(path)).body.transactionStatus, "ACSC");
});

test("Client-Explicit-Authorisation-Preferred: the TPP starts the authorisation; DELETE before it is 204",
  async () => {
    const explicit = { ...CLIENT, "Client-Explicit-Authorisation-Preferred": "true" };
    const { body } = await created(SCT, single(), explicit);
    assert.deepEqual(Object.keys(body._links).sort(), ["self", "startAuthorisation", "status"]);
    const path = body._links.self.href;
    assert.deepEqual((await bank.tpp.get(`${path}/authorisations`)).body, { authorisationIds: [] });
    const started = await bank.tpp.post(body._links.startAuthorisation.href, undefined,
      { "Client-SCA-Approach-Preference": "signature, redirect, decoupled" });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.headers["aspsp-sca-approach"], "REDIRECT");
    assert.equal(started.body.scaStatus, "received");
    await authorise(started.body._links.scaRedirect.href);
    assert.equal(await statusOf(path), "ACSC");

    const other = (await created(SCT, single(), explicit)).body._links.self.href;
    const deleted = await bank.tpp.call("DELETE", other);
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(await statusOf(other), "CANC");
  });

test("two signatures (PSU-Corporate-ID): the TPP starts each user's authorisation; PATC, then ACSC",
  async () => {
    const asNordwind = { ...CLIENT, "PSU-Corporate-ID": "nordwind" };
    const { body } = await created(SCT, single({ debtorAccount: { iban: ibanOf("8500000001") } }),
      asNordwind);
    assert.deepEqual(Object.keys(body._links).sort(), ["self", "startAuthorisation", "status"]);
    const path = body._links.self.href;
    for (const [login, status] of [["karl", "PATC"], ["jana", "ACSC"]] as const) {
      const started = await bank.tpp.post(body._links.startAuthorisation.href, undefined);
      assert.equal(started.status, 201, started.text);
      await authorise(started.body._links.scaRedirect.href, login);
      assert.equal(await statusOf(path), status);
    }
    const ids = (await bank.tpp.get(`${path}/authorisations`)).body.authorisationIds;
    assert.equal(ids.length, 2);
    const unknown = await bank.tpp.post(SCT, single(), { ...CLIENT, "PSU-Corporate-ID": "nobody" });
    assertRefusal(unknown, 401, "CORPORATE_ID_INVALID", "PSU-Corporate-ID");
  });

test("a retry with the same X-Request-ID and body gets the first answer and stores nothing more",
  async () => {
    const headers = { ...CLIENT, "X-Request-ID": crypto.randomUUID() };
    const first = await created(BULK, bulk(), headers);
    const rows = await paymentRows();
    const again = await bank.tpp.post(BULK, bulk(), headers);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    assert.equal(await paymentRows(), rows);
    const changed = await bank.tpp.post(BULK, bulk({ batchBooking: false }), headers);
    assertRefusal(changed, 400, "FORMAT_ERROR", "X-Request-ID");
  });

test("a payment lives in the interface that created it: the other one refuses it", async () => {
  const v2 = (await created(SCT, single())).body.paymentId;
  for (const path of [`/psd2/v1/payments/${v2}`, `/psd2/v1/payments/sepa-credit-transfers/${v2}/status`]) {
    const res = await bank.tpp.get(path);
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.tppMessages[0].code, "RESOURCE_UNKNOWN");
    assert.match(res.body.tppMessages[0].text, /created through \/v2/);
  }
  const basket = await bank.tpp.post("/psd2/v1/signing-baskets", { paymentIds: [v2] },
    { "TPP-Redirect-URI": OK_URI, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(basket.status, 400, basket.text);
  assert.equal(basket.body.tppMessages[0].path, "paymentIds[0]");
  assert.match(basket.body.tppMessages[0].text, /created through \/v2/);

  const v1 = (await createPayment(bank.tpp)).paymentId;
  const path = `${SCT}/${v1}`;
  for (const read of [path, `${path}/status`, `${path}/authorisations`]) {
    const res = await bank.tpp.get(read);
    assertRefusal(res, 404, "RESOURCE_UNKNOWN");
    assert.match(refusal(res).text, /created through \/v1/);
  }
  assertRefusal(await bank.tpp.call("DELETE", path), 404, "RESOURCE_UNKNOWN");
  assertRefusal(await bank.tpp.post(`${path}/authorisations`, undefined), 404, "RESOURCE_UNKNOWN");
  const still = await bank.tpp.get(`/psd2/v1/payments/${v1}/status`);
  assert.equal(still.body.transactionStatus, "RCVD");
});

test("refusals in the file's terms, each storing nothing", async () => {
  const twoLines = entry({ remittanceInformationUnstructured: ["a", "b"] });
  const cases: [string, unknown, Record<string, string>, number, string, string][] = [
    [SCT, single(), { "PSU-IP-Address": "192.0.2.1" }, 400, "FORMAT_ERROR", "Client-Redirect-URI"],
    [SCT, single(), { ...CLIENT, "Client-Redirect-URI": "http://tpp.example/ok" }, 400,
      "FORMAT_ERROR", "Client-Redirect-URI"],
    [SCT, single(), { ...CLIENT, "Client-SCA-Approach-Preference": "carrier-pigeon" }, 400,
      "FORMAT_ERROR", "Client-SCA-Approach-Preference"],
    [SCT, single({ creditor: {} }), CLIENT, 400, "FORMAT_ERROR", "creditor.name"],
    [SCT, single({ creditorAccount: { iban: "DE00123" } }), CLIENT, 400, "FORMAT_ERROR",
      "creditorAccount.iban"],
    [SCT, single({ creditorAgent: { financialInstitutionId: { bicfi: "NOTABIC" } } }), CLIENT, 400,
      "FORMAT_ERROR", "creditorAgent.financialInstitutionId.bicfi"],
    [SCT, single({ debtorAccount: { iban: EXTERNAL_IBAN }, creditorAccount: { iban: ALICE_MAIN } }),
      CLIENT, 400, "FORMAT_ERROR", "debtorAccount"],
    [SCT, { ...single(), ...twoLines }, CLIENT, 400, "FORMAT_ERROR",
      "remittanceInformationUnstructured"],
    [`${V2}/payments/target-2-payments`, single(), CLIENT, 404, "PRODUCT_UNKNOWN", ""],
    [`${V2}/payments/pain.001-sepa-credit-transfers`, single(), CLIENT, 404, "PRODUCT_UNKNOWN", ""],
    [PERIODIC, periodic({ frequency: "MonthlyVariable" }), CLIENT, 400, "FORMAT_ERROR", "frequency"],
    [PERIODIC, periodic({ startDateTime: "2001-01-01T09:00:00Z" }), CLIENT, 400, "FORMAT_ERROR",
      "startDateTime"],
    [BULK, bulk({ controlSum: "3.31" }), CLIENT, 400, "FORMAT_ERROR", "controlSum"],
    [BULK, bulk({ numberOfTransactions: 3 }), CLIENT, 400, "FORMAT_ERROR", "numberOfTransactions"],
    [BULK, bulk({ creditTransfers: [entry({ creditor: { name: "Alice" },
      creditorAccount: { iban: "DE00" } }), entry()], controlSum: "25.00" }), CLIENT, 400,
      "FORMAT_ERROR", "creditTransfers[0].creditorAccount.iban"],
  ];
  const rows = await paymentRows();
  for (const [path, body, headers, status, code, field] of cases) {
    const res = await bank.tpp.post(path, body, headers);
    assertRefusal(res, status, code, field === "" ? undefined : field);
  }
  assert.equal(await paymentRows(), rows, "no refused payment is stored");
  const unknown = `${SCT}/${crypto.randomUUID()}`;
  for (const res of [await bank.tpp.get(unknown), await bank.tpp.get(`${unknown}/status`),
    await bank.tpp.call("DELETE", unknown), await bank.tpp.get(`${unknown}/authorisations`)]) {
    assertRefusal(res, 404, "RESOURCE_UNKNOWN");
  }
  const { paymentId } = (await created(SCT, single())).body;
  assertRefusal(await bank.tpp.get(`${V2}/payments/instant-sepa-credit-transfers/${paymentId}`),
    404, "RESOURCE_UNKNOWN");
  assertRefusal(await bank.tpp.get(`${SCT}/${paymentId}/authorisations/${crypto.randomUUID()}`),
    404, "RESOURCE_UNKNOWN");
  assertRefusal(await bank.tpp.get(`${V2}/payments/pain.001-target-2-payments/${paymentId}`), 404,
    "PRODUCT_UNKNOWN");
  const xml = await bank.tpp.call("POST", SCT, { rawBody: "<Document/>",
    headers: { ...CLIENT, "Content-Type": "application/xml" } });
  // The file's 415 has no body.
  assert.deepEqual([xml.status, xml.text], [415, ""]);
});
