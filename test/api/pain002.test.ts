/**
 * pain.002 status reports: `GET .../status` with `Accept: application/xml` for payments
 * initiated in JSON and from pain.001, in every status they reach, each report validated with
 * xmllint --schema against the official XSD; JSON stays the default, other formats are 406.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { XMLParser } from "fast-xml-parser";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, BOB_MAIN as DEBTOR, cancel, confirm, createdStatus, CREATION_HEADERS, EXTERNAL_IBAN, linkOf,
  OK_URI, NOK_URI, paymentBody, reachReview,
} from "../support/flows.js";
import { rejectionCode } from "../../src/api/xml/pain002.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const xsdOf = (version: string) =>
  new URL(`../../../schemas/iso20022/${version}.xsd`, import.meta.url).pathname;
const XML_SINGLE = "/psd2/v1/payments/pain.001-sepa-credit-transfers";
const XML_BULK = "/psd2/v1/bulk-payments/pain.001-sepa-credit-transfers";
const JSON_SINGLE = "/psd2/v1/payments/sepa-credit-transfers";
const JSON_BULK = "/psd2/v1/bulk-payments/sepa-credit-transfers";
const XML = { Accept: "application/xml" };
// Bob confirms by SMS: no wait for a fresh TOTP window between the payments.
const PSU = "bob";
const today = () => dateInZone(new Date(), bank.app.config.timeZone);

type Tx = [amount: string, iban: string];

function pain001(txs: Tx[], date = today()): string {
  const cents = txs.reduce((sum, [amount]) => sum + Math.round(Number(amount) * 100), 0);
  const sum = (cents / 100).toFixed(2);
  const entries = txs.map(([amount, iban], i) => `
      <CdtTrfTxInf><PmtId><EndToEndId>E2E-${i}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt><Cdtr><Nm>Creditor ${i}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct></CdtTrfTxInf>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn>
  <GrpHdr><MsgId>MSG-2</MsgId><CreDtTm>2026-11-23T10:00:00</CreDtTm><NbOfTxs>${txs.length}</NbOfTxs>
    <CtrlSum>${sum}</CtrlSum><InitgPty><Nm>Bob Meyer</Nm></InitgPty></GrpHdr>
  <PmtInf><PmtInfId>PMT-2</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>false</BtchBookg>
    <NbOfTxs>${txs.length}</NbOfTxs><CtrlSum>${sum}</CtrlSum>
    <ReqdExctnDt><Dt>${date}</Dt></ReqdExctnDt><Dbtr><Nm>Bob Meyer</Nm></Dbtr>
    <DbtrAcct><Id><IBAN>${DEBTOR}</IBAN></Id></DbtrAcct>
    <DbtrAgt><FinInstnId><BICFI>TESTDEFFXXX</BICFI></FinInstnId></DbtrAgt>${entries}
  </PmtInf></CstmrCdtTrfInitn></Document>`;
}

function jsonBody(txs: Tx[], date?: string): unknown {
  const single = (amount: string, iban: string) => ({
    ...paymentBody({ debtorAccount: DEBTOR, instructedAmount: { currency: "EUR", amount } }),
    creditorAccount: { iban }, endToEndIdentification: "E2E-JSON",
  });
  if (txs.length > 1) {
    const entry = (amount: string, iban: string) => {
      const { debtorAccount: _debtor, ...rest } = single(amount, iban) as Record<string, unknown>;
      return rest;
    };
    return { batchBookingPreferred: false, debtorAccount: { iban: DEBTOR },
      payments: txs.map(([amount, iban]) => entry(amount, iban)) };
  }
  const [[amount, iban]] = txs as [Tx];
  return { ...single(amount, iban), ...(date ? { requestedExecutionDate: date } : {}) };
}

type Origin = "json" | "pain.001";

/** Creates a payment of bob's (a bulk for several transactions); returns its self path. */
async function create(origin: Origin, txs: Tx[], date?: string) {
  const bulk = txs.length > 1;
  const path = origin === "json" ? (bulk ? JSON_BULK : JSON_SINGLE) : (bulk ? XML_BULK : XML_SINGLE);
  const res = origin === "json"
    ? await bank.tpp.post(path, jsonBody(txs, date), CREATION_HEADERS)
    : await bank.tpp.call("POST", path, { rawBody: pain001(txs, date),
      headers: { ...CREATION_HEADERS, "Content-Type": "application/xml" } });
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const id = res.body.paymentId as string;
  return { id, self: `${path}/${id}`, scaRedirect: linkOf(bank.tpp, res.body._links.scaRedirect) };
}

async function authorise(scaRedirect: string) {
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, PSU));
  assert.equal(done.location, OK_URI, done.html);
}

/**
 * xmllint, not the bank's own validator, judges every report against the official XSD of the
 * version it declares (pain.002.001.03 or .10).
 */
function assertSchemaValid(xml: string) {
  const version = /xsd:(pain\.002\.001\.\d\d)"/.exec(xml)?.[1] ?? "none";
  const run = spawnSync("/usr/bin/xmllint", ["--noout", "--schema", xsdOf(version), "-"],
    { input: xml });
  assert.equal(run.status, 0, `${run.stderr.toString()}\n${xml}`);
}

const reader = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: false,
  isArray: (name) => name === "TxInfAndSts" });

async function report(self: string, tpp: TppClient = bank.tpp) {
  const res = await tpp.get(`${self}/status`, XML);
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers["content-type"]), /^application\/xml/);
  assertSchemaValid(res.text);
  const document = reader.parse(res.text).Document.CstmrPmtStsRpt;
  const group = document.OrgnlGrpInfAndSts;
  const txs = document.OrgnlPmtInfAndSts.TxInfAndSts as Record<string, any>[];
  return { group, txs, json: (await tpp.get(`${self}/status`)).body.transactionStatus };
}

for (const origin of ["json", "pain.001"] as const) {
  test(`${origin}: RCVD, then ACSC once booked; the ids and the JSON status agree`, async () => {
    const { id, self, scaRedirect } = await create(origin, [["1.25", ALICE_MAIN]]);
    const received = await report(self);
    assert.equal(received.group.GrpSts, "RCVD");
    // A pain.001's own identifiers come back; a JSON payment is named by its paymentId.
    const named = origin === "json" ? [id, "pain.001"] : ["MSG-2", "pain.001.001.09"];
    assert.deepEqual([received.group.OrgnlMsgId, received.group.OrgnlMsgNmId], named);
    assert.equal(received.txs[0]?.TxSts, "RCVD");
    assert.equal(received.txs[0]?.OrgnlEndToEndId, origin === "json" ? "E2E-JSON" : "E2E-0");
    await authorise(scaRedirect);
    const booked = await report(self);
    assert.deepEqual([booked.group.GrpSts, booked.txs[0]?.TxSts, booked.json], ["ACSC", "ACSC", "ACSC"]);
  });

  test(`${origin}: a future-dated payment is ACTC with its date until executed`, async () => {
    const date = addDays(today(), 5);
    const { self, scaRedirect } = await create(origin, [["1.00", EXTERNAL_IBAN]], date);
    await authorise(scaRedirect);
    const { group, txs } = await report(self);
    assert.equal(group.GrpSts, "ACTC");
    assert.equal(txs[0]?.OrgnlTxRef.ReqdExctnDt.Dt, date);
  });

  test(`${origin}: a booking refused for funds is RJCT with reason AM04`, async () => {
    const { self, scaRedirect } = await create(origin, [["900000.00", EXTERNAL_IBAN]]);
    await authorise(scaRedirect);
    const { group, txs } = await report(self);
    assert.equal(group.GrpSts, "RJCT");
    assert.equal(group.StsRsnInf.Rsn.Cd, "AM04");
    assert.equal(txs[0]?.StsRsnInf.Rsn.Cd, "AM04");
  });

  test(`${origin}: a payment the PSU declines is CANC (DS02)`, async () => {
    const { self, scaRedirect } = await create(origin, [["1.00", EXTERNAL_IBAN]]);
    const browser = bank.browser();
    const declined = await cancel(browser, await reachReview(browser, scaRedirect, PSU));
    assert.equal(declined.location, NOK_URI, declined.html);
    const { group } = await report(self);
    assert.deepEqual([group.GrpSts, group.StsRsnInf.Rsn.Cd], ["CANC", "DS02"]);
  });

  test(`${origin}: a bulk with one entry refused is PART, each entry with its own status`, async () => {
    const { self, scaRedirect } = await create(origin, [["1.00", ALICE_MAIN], ["900000.00", EXTERNAL_IBAN]]);
    await authorise(scaRedirect);
    const { group, txs, json } = await report(self);
    assert.deepEqual([group.GrpSts, json, group.OrgnlNbOfTxs, group.OrgnlCtrlSum],
      ["PART", "PART", "2", "900001.00"]);
    assert.deepEqual(txs.map((t) => t.TxSts), ["ACSC", "RJCT"]);
    assert.equal(txs[1]?.StsRsnInf.Rsn.Cd, "AM04");
  });
}

test("JSON stays the default; an Accept allowing neither JSON nor XML is 406 in Berlin Group form", async () => {
  const { self } = await create("json", [["1.00", EXTERNAL_IBAN]]);
  for (const accept of [null, "*/*", "application/json", "application/xml;q=0.5, application/json"]) {
    const res = await bank.tpp.get(`${self}/status`, { Accept: accept });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transactionStatus, "RCVD", `${accept}: ${res.text}`);
  }
  const xml = await bank.tpp.get(`${self}/status`, { Accept: "text/plain;q=0.2, application/*;q=0.1, application/xml" });
  assert.match(xml.text, /<CstmrPmtStsRpt>/);
  const refused = await bank.tpp.get(`${self}/status`, { Accept: "text/plain" });
  assert.equal(refused.status, 406, refused.text);
  assert.deepEqual(refused.body.tppMessages[0],
    { category: "ERROR", code: "REQUESTED_FORMATS_INVALID", path: "Accept",
      text: "Accept must allow one of: application/json, application/xml." });
});

test("another TPP's payment is 404 with Accept: application/xml, as in JSON", async () => {
  const { self } = await create("pain.001", [["1.00", EXTERNAL_IBAN]]);
  const other = await bank.tppWith({});
  const res = await other.get(`${self}/status`, XML);
  assert.equal(res.status, 404, res.text);
  assert.equal(res.body.tppMessages[0].code, "RESOURCE_UNKNOWN");
});

test("the published OpenAPI offers application/xml on the status operations' 200, and their 406", async () => {
  const document = (await bank.tpp.get("/psd2/v1/openapi.json")).body;
  for (const service of ["payments", "periodic-payments", "bulk-payments"]) {
    const responses = document.paths[`/psd2/v1/${service}/{product}/{paymentId}/status`].get.responses;
    assert.deepEqual(Object.keys(responses["200"].content), ["application/json", "application/xml"]);
    assert.ok(responses["406"], service);
  }
  const details = document.paths["/psd2/v1/payments/{product}/{paymentId}"].get.responses;
  assert.deepEqual(Object.keys(details["200"].content), ["application/json"]);
});

test("a periodic payment reads as pain.002 too: ACTC with its start date once authorised", async () => {
  const startDate = addDays(today(), 3);
  const body = { ...(jsonBody([["2.00", EXTERNAL_IBAN]]) as object), startDate, frequency: "Monthly" };
  const res = await bank.tpp.post("/psd2/v1/periodic-payments/sepa-credit-transfers", body, CREATION_HEADERS);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const self = `/psd2/v1/periodic-payments/sepa-credit-transfers/${res.body.paymentId}`;
  assert.equal((await report(self)).group.GrpSts, "RCVD");
  await authorise(linkOf(bank.tpp, res.body._links.scaRedirect));
  const { group, txs } = await report(self);
  // A start on a weekend or holiday executes on the next business day, as stored.
  const stored = await bank.app.store.payments.find(bank.app.store.db, res.body.paymentId);
  assert.ok((stored?.requestedExecutionDate ?? "") >= startDate);
  assert.deepEqual([group.GrpSts, txs[0]?.OrgnlTxRef.ReqdExctnDt.Dt],
    ["ACTC", stored?.requestedExecutionDate]);
});

/** Bob's single payment as pain.001.001.03 (SEPA's generation), dated for execution `date`. */
function pain001v03(amount: string, date = today()): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn>
  <GrpHdr><MsgId>MSG-V03</MsgId><CreDtTm>2026-11-26T10:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>
    <CtrlSum>${amount}</CtrlSum><InitgPty><Nm>Bob Meyer</Nm></InitgPty></GrpHdr>
  <PmtInf><PmtInfId>PMT-V03</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>1</NbOfTxs>
    <CtrlSum>${amount}</CtrlSum><ReqdExctnDt>${date}</ReqdExctnDt><Dbtr><Nm>Bob Meyer</Nm></Dbtr>
    <DbtrAcct><Id><IBAN>${DEBTOR}</IBAN></Id></DbtrAcct>
    <DbtrAgt><FinInstnId><BIC>TESTDEFFXXX</BIC></FinInstnId></DbtrAgt>
    <CdtTrfTxInf><PmtId><EndToEndId>E2E-V03</EndToEndId></PmtId>
      <Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt><Cdtr><Nm>Creditor</Nm></Cdtr>
      <CdtrAcct><Id><IBAN>${EXTERNAL_IBAN}</IBAN></Id></CdtrAcct></CdtTrfTxInf>
  </PmtInf></CstmrCdtTrfInitn></Document>`;
}

async function createV03(amount: string, date?: string) {
  const res = await bank.tpp.call("POST", XML_SINGLE, { rawBody: pain001v03(amount, date),
    headers: { ...CREATION_HEADERS, "Content-Type": "application/xml" } });
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const id = res.body.paymentId as string;
  return { self: `${XML_SINGLE}/${id}`, scaRedirect: linkOf(bank.tpp, res.body._links.scaRedirect) };
}

test("a pain.001.001.03 payment reads as pain.002.001.03: its ids, PDNG, ACSC, RJCT", async () => {
  const booked = await createV03("1.50");
  const received = await report(booked.self);
  assert.deepEqual([received.group.OrgnlMsgId, received.group.OrgnlMsgNmId],
    ["MSG-V03", "pain.001.001.03"]);
  // .03 has no RCVD for a transaction: pending until authorised.
  assert.deepEqual([received.group.GrpSts, received.txs[0]?.TxSts], ["RCVD", "PDNG"]);
  await authorise(booked.scaRedirect);
  const done = await report(booked.self);
  assert.deepEqual([done.group.GrpSts, done.txs[0]?.TxSts, done.json], ["ACSC", "ACSC", "ACSC"]);
  const refused = await createV03("900000.00");
  await authorise(refused.scaRedirect);
  const rejected = await report(refused.self);
  assert.deepEqual([rejected.group.GrpSts, rejected.txs[0]?.StsRsnInf.Rsn.Cd], ["RJCT", "AM04"]);
});

test("pain.002.001.03: a cancelled payment is RJCT with DS02; a date reads flat", async () => {
  const date = addDays(today(), 5);
  const future = await createV03("1.00", date);
  const cancelled = await bank.tpp.call("DELETE", future.self);
  assert.equal(cancelled.status, 204, cancelled.text);
  const { group, txs, json } = await report(future.self);
  assert.deepEqual([group.GrpSts, group.StsRsnInf.Rsn.Cd, json], ["RJCT", "DS02", "CANC"]);
  assert.equal(txs[0]?.OrgnlTxRef.ReqdExctnDt, date);
  assert.equal(txs[0]?.OrgnlTxRef.Cdtr.Nm, "Creditor");
});

test("each rejection reason reads as the ISO 20022 code that names it", () => {
  // ExternalStatusReason1Code: what each code means, as the bank's reasons need it.
  assert.deepEqual({
    account_unknown: rejectionCode("account_unknown"), account_blocked: rejectionCode("account_blocked"),
    currency_mismatch: rejectionCode("currency_mismatch"), same_account: rejectionCode("same_account"),
    insufficient_funds: rejectionCode("insufficient_funds"),
    limit_exceeded: rejectionCode("limit_exceeded"), sca_expired: rejectionCode("sca_expired"),
    psu: rejectionCode(null),
  }, {
    account_unknown: "AC01", // IncorrectAccountNumber
    account_blocked: "AC06", // BlockedAccount
    currency_mismatch: "AM03", // NotAllowedCurrency
    same_account: "AG01", // TransactionForbidden (was AM03, a currency's refusal)
    insufficient_funds: "AM04", // InsufficientFunds
    limit_exceeded: "AM02", // NotAllowedAmount
    sca_expired: "AB05", // a timeout: the SCA was not completed in time (left as it was)
    psu: "MS02", // NotSpecifiedReasonCustomerGenerated
  });
});
