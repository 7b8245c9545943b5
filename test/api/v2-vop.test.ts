/**
 * Verification of Party 1.1 at /v2: a payment initiator checks payees before it initiates, one
 * at a time or in bulks answered asynchronously (202, then the bulk's status and results), read
 * back by their TPP only. Every request and answer is checked against the VOP file by the test
 * client (test/support/openfinance.ts); refusals are the file's apiClientMessages.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { ALICE_MAIN, BOB_MAIN, confirm, EXTERNAL_IBAN, OK_URI, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient, TppResponse } from "../support/tpp-client.js";
import { CLIENT, singlePayment } from "../support/v2-bodies.js";

const V2 = "/psd2/v2";
const SINGLE = `${V2}/payee-verifications`;
const BULK = `${V2}/bulk-payee-verifications`;
/** An IBAN of the sandbox directory whose bank answers "not possible". */
const NOT_POSSIBLE = "DE42200400000190000003";

let bank: TestBank;
before(async () => { bank = await startBank({ env: { VOP_BULK_POLL_MS: "100" } }); });
after(async () => { await bank.close(); });

const party = (iban: string, name: string) => ({ partyAccount: { iban }, party: { name } });
const entry = (iban: string, name: string) => ({ uetr: randomUUID(), ...party(iban, name) });

function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.body.apiClientMessages.map((m: { code: string; path?: string }) =>
    [m.code, ...(path === undefined ? [] : [m.path])]), [[code, ...(path === undefined ? [] : [path])]]);
}

/** Polls the bulk's status resource until it is completed: each poll is one request. */
async function completed(client: TppClient, id: string): Promise<void> {
  for (;;) {
    const status = await client.get(`${BULK}/${id}/status`);
    assert.equal(status.status, 200, status.text);
    if (status.body.vopBulkStatus === "completed") return;
    assert.ok(["recieved", "pending"].includes(status.body.vopBulkStatus), status.text);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("one payee: match, close match with the held name, no match, not possible", async () => {
  const answers = [];
  for (const [iban, name] of [[ALICE_MAIN, "Alice Schmidt"], [BOB_MAIN, "Bob Meier"],
    [BOB_MAIN, "Alice Schmidt"], [NOT_POSSIBLE, "Anyone"], [EXTERNAL_IBAN, "Merchant GmbH"]]) {
    const res = await bank.tpp.post(SINGLE, party(iban!, name!));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers["x-reference-api-version"], "1.1");
    answers.push(res.body);
  }
  assert.deepEqual(answers, [{ partyNameMatch: "MTCH" },
    { partyNameMatch: "CMTC", matchedName: "Bob Meyer" }, { partyNameMatch: "NMTC" },
    { partyNameMatch: "NOAP" }, { partyNameMatch: "MTCH" }]);
});

test("the bank checks names by IBAN: an identification or another account reference is refused", async () => {
  assertRefusal(await bank.tpp.post(SINGLE, { partyAccount: { iban: ALICE_MAIN },
    party: { name: "Alice Schmidt", identification: { organisationId: { identification: "X1" } } } }),
  400, "FORMAT_ERROR", "party.identification");
  const agents = { partyAgent: { financialInstitutionId: { bicfi: "PSDBDEFFXXX" } },
    requestingAgent: { financialInstitutionId: { bicfi: "TPPXDEFFXXX" } } };
  const res = await bank.tpp.post(SINGLE, { ...party(ALICE_MAIN, "Alice Schmidt"), ...agents });
  assert.deepEqual([res.status, res.body], [200, { partyNameMatch: "MTCH" }]);
});

test("bad requests are Berlin Group refusals", async () => {
  assertRefusal(await bank.tpp.post(SINGLE, party("DE00123", "Alice")), 400, "FORMAT_ERROR",
    "partyAccount.iban");
  assertRefusal(await bank.tpp.post(SINGLE, { partyAccount: { iban: ALICE_MAIN }, party: { name: " " } }),
    400, "FORMAT_ERROR", "party.name");
  assertRefusal(await bank.tpp.post(SINGLE, { partyAccount: { bban: "1000000001" }, party: { name: "A" } }),
    400, "FORMAT_ERROR");
  assertRefusal(await bank.tpp.post(SINGLE, { party: { name: "A" } }), 400, "FORMAT_ERROR");
  assertRefusal(await bank.tpp.post(BULK, { partyVerificationRequests: [] }), 400, "FORMAT_ERROR");
  assertRefusal(await bank.tpp.post(BULK, { partyVerificationRequests: [entry(ALICE_MAIN, "A"),
    entry("XX", "B")] }), 400, "FORMAT_ERROR", "partyVerificationRequests[1].partyAccount.iban");
  assertRefusal(await bank.tpp.get(`${BULK}/${randomUUID()}`), 404, "RESOURCE_UNKNOWN");
  assertRefusal(await bank.tpp.get(`${BULK}/not-a-uuid/status`), 404, "RESOURCE_UNKNOWN");
});

test("a bulk of 1,000 entries is accepted with 202 and answered asynchronously, each entry", async () => {
  const names: [string, string, string][] = [[ALICE_MAIN, "Alice Schmidt", "MTCH"],
    [BOB_MAIN, "Bob Meier", "CMTC"], [BOB_MAIN, "Carol Weber", "NMTC"], [NOT_POSSIBLE, "X Y", "NOAP"]];
  const requests = Array.from({ length: 1_000 }, (_, i) => entry(names[i % 4]![0], names[i % 4]![1]));
  const accepted = await bank.tpp.post(BULK, { partyVerificationRequests: requests });
  assert.equal(accepted.status, 202, accepted.text);
  const id: string = accepted.body.vopBulkId;
  assert.equal(accepted.body.vopBulkStatus, "recieved");
  assert.equal(accepted.body._links.status.href, `${BULK}/${id}/status`);
  await completed(bank.tpp, id);
  const read = await bank.tpp.get(`${BULK}/${id}`);
  assert.equal(read.status, 200);
  const results: { uetr: string; partyNameMatch: string; matchedName?: string }[] =
    read.body.partyVerificationRequestsAndResults;
  assert.equal(results.length, 1_000);
  results.forEach((r, i) => {
    assert.equal(r.uetr, requests[i]!.uetr);
    assert.equal(r.partyNameMatch, names[i % 4]![2], `entry ${i}`);
  });
  assert.equal(results[1]!.matchedName, "Bob Meyer");
});

test("a TPP sees only its own bulks; a repeated X-Request-ID gets the first answer", async () => {
  const body = { partyVerificationRequests: [entry(ALICE_MAIN, "Alice Schmidt")] };
  const headers = { "X-Request-ID": randomUUID() };
  const first = await bank.tpp.post(BULK, body, headers);
  const again = await bank.tpp.post(BULK, body, headers);
  assert.equal(again.status, 202, again.text);
  assert.equal(again.body.vopBulkId, first.body.vopBulkId);
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777001" });
  for (const path of [`${BULK}/${first.body.vopBulkId}`, `${BULK}/${first.body.vopBulkId}/status`]) {
    assertRefusal(await other.get(path), 404, "RESOURCE_UNKNOWN");
  }
  await completed(bank.tpp, first.body.vopBulkId);
});

test("a bulk accepted by an instance that answers none is answered by the next one", async () => {
  const idle = await startBank({ env: { VOP_BULK_POLL_MS: "3600000" } });
  try {
    const accepted = await idle.tpp.post(BULK, { partyVerificationRequests: [entry(BOB_MAIN, "Bob Meier")] });
    assert.equal(accepted.status, 202, accepted.text);
    const id: string = accepted.body.vopBulkId;
    assert.equal((await idle.tpp.get(`${BULK}/${id}/status`)).body.vopBulkStatus, "recieved");
    const next = await startBank({ sharing: idle, env: { VOP_BULK_POLL_MS: "100" } });
    try {
      await completed(next.tpp, id);
      const read = await next.tpp.get(`${BULK}/${id}`);
      assert.equal(read.body.partyVerificationRequestsAndResults[0].partyNameMatch, "CMTC");
    } finally { await next.close(); }
  } finally { await idle.close(); }
});

// ---- The creditor confirmation of a /v2 payment (PUT .../creditor-confirmation) ----

const SCT = `${V2}/payments/sepa-credit-transfers`;
/** The TPP reads the check's outcome in the status (PIS 2.4.1's Client-VOP-Requested). */
const VOP_REQUESTED = { ...CLIENT, "Client-VOP-Requested": "true" };

/** Bob pays `name` at `iban`, the check's outcome read in the status. */
async function paying(iban: string, name: string) {
  const res = await bank.tpp.post(SCT, singlePayment({ creditorAccount: { iban }, creditor: { name } }),
    VOP_REQUESTED);
  assert.equal(res.status, 201, res.text);
  return { path: `${SCT}/${res.body.paymentId}`, created: res.body };
}

const confirmCreditor = (path: string) => bank.tpp.call("PUT", `${path}/creditor-confirmation`);
const statusOf = async (path: string) => (await bank.tpp.get(`${path}/status`)).body.transactionStatus;

for (const [outcome, iban, name, status] of [["a match", ALICE_MAIN, "Alice Schmidt", "RCVC"],
  ["a check not possible", NOT_POSSIBLE, "Anyone", "RVNC"]] as const) {
  test(`after ${outcome} (${status}) nothing awaits a confirmation: refused, the payment goes on`, async () => {
    const { path, created } = await paying(iban, name);
    assert.equal(created.transactionStatus, status);
    assert.ok(created._links.scaRedirect, "its authorisation started at once");
    assertRefusal(await confirmCreditor(path), 409, "STATUS_INVALID");
    assert.equal(await statusOf(path), status);
    const browser = bank.browser();
    assert.equal((await confirm(browser, await reachReview(browser, created._links.scaRedirect.href, "bob"))).location, OK_URI);
  });
}

for (const [outcome, name, shown] of [["a close match", "A Schmidt", "Alice Schmidt"],
  ["no match", "Carol Weber", "does not match"]] as const) {
  test(`after ${outcome} (RVCM) the payment waits for the TPP's creditor confirmation, then for the PSU`, async () => {
    const { path, created } = await paying(ALICE_MAIN, name);
    assert.equal(created.transactionStatus, "RVCM");
    assert.deepEqual(Object.keys(created._links).sort(), ["creditorNameConfirmation", "self", "status"]);
    assert.equal(created._links.creditorNameConfirmation.href, `${path}/creditor-confirmation`);
    // Not authorised, so not executed, without the confirmation the link asks for.
    assertRefusal(await bank.tpp.post(`${path}/authorisations`, undefined), 409, "STATUS_INVALID");
    assert.equal(await statusOf(path), "RVCM");
    const confirmed = await confirmCreditor(path);
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.transactionStatus, "RCVD");
    assert.equal(confirmed.body._links.startAuthorisation.href, `${path}/authorisations`);
    assert.equal(await statusOf(path), "RCVD");
    assertRefusal(await confirmCreditor(path), 409, "STATUS_INVALID");
    const started = await bank.tpp.post(`${path}/authorisations`, undefined, CLIENT);
    assert.equal(started.status, 201, started.text);
    const browser = bank.browser();
    const review = await reachReview(browser, started.body._links.scaRedirect.href, "bob");
    assert.ok(review.html.includes(shown), review.html);
    assert.ok(review.html.includes("Your provider told us that you saw this name check"), review.html);
    assert.equal((await confirm(browser, review)).location, OK_URI);
    assert.notEqual(await statusOf(path), "RCVD");
  });
}

test("a creditor confirmation of another TPP's payment, or of none, is RESOURCE_UNKNOWN and changes nothing", async () => {
  const { path } = await paying(ALICE_MAIN, "Carol Weber");
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777002" });
  assertRefusal(await other.call("PUT", `${path}/creditor-confirmation`), 404, "RESOURCE_UNKNOWN");
  assertRefusal(await confirmCreditor(`${SCT}/no-such-payment`), 404, "RESOURCE_UNKNOWN");
  assert.equal(await statusOf(path), "RVCM");
});

test("the /v2 document publishes the VOP file's operations under the paths served", async () => {
  const { paths } = (await bank.tpp.get(`${V2}/openapi.json`)).body;
  const ids = [[SINGLE, "post"], [BULK, "post"], [`${BULK}/{vopBulkId}`, "get"],
    [`${BULK}/{vopBulkId}/status`, "get"], [`${V2}/payments/{payment-product}/{paymentId}/creditor-confirmation`, "put"]]
    .map(([path, method]) => paths[path!]?.[method!]?.operationId);
  assert.deepEqual(ids, ["verificationOfPartyPayeeVerifications",
    "bulkVerificationOfPartyBulkPayeeVerifications", "getBulkVerificationOfPartyBulkPayeeVerifications",
    "getBulkVerificationOfPartyStatusBulkPayeeVerifications", "creditorConfirmationPayments"]);
});
