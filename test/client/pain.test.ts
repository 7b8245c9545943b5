/**
 * The typed client (client/) sends a pain.001 document and reads the payment's status back as
 * a pain.002 report, against a Berlin Group bank, every exchange checked as the API tests do.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, authorisedConsent, bgConsentBody, CREATION_HEADERS, EXTERNAL_IBAN,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { berlinGroupClient } from "../support/typed-client.js";

const XSD = new URL("../../../schemas/iso20022/pain.002.001.10.xsd", import.meta.url).pathname;
const CAMT_053 = new URL("../../../schemas/iso20022/camt.053.001.08.xsd", import.meta.url).pathname;
const PRODUCT = "pain.001-sepa-credit-transfers";

let bank: TestBank;
before(async () => { bank = await startBank({ env: { API_PROFILE: "berlin-group" } }); });
after(async () => { await bank.close(); });

function pain001(date: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn>
  <GrpHdr><MsgId>CLIENT-1</MsgId><CreDtTm>2026-11-23T10:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>
    <CtrlSum>3.00</CtrlSum><InitgPty><Nm>Alice Schmidt</Nm></InitgPty></GrpHdr>
  <PmtInf><PmtInfId>P-1</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>1</NbOfTxs><CtrlSum>3.00</CtrlSum>
    <ReqdExctnDt><Dt>${date}</Dt></ReqdExctnDt><Dbtr><Nm>Alice Schmidt</Nm></Dbtr>
    <DbtrAcct><Id><IBAN>${ALICE_MAIN}</IBAN></Id></DbtrAcct>
    <DbtrAgt><FinInstnId><BICFI>TESTDEFFXXX</BICFI></FinInstnId></DbtrAgt>
    <CdtTrfTxInf><PmtId><EndToEndId>CLIENT-E2E</EndToEndId></PmtId>
      <Amt><InstdAmt Ccy="EUR">3.00</InstdAmt></Amt><Cdtr><Nm>Supplier AG</Nm></Cdtr>
      <CdtrAcct><Id><IBAN>${EXTERNAL_IBAN}</IBAN></Id></CdtrAcct></CdtTrfTxInf>
  </PmtInf></CstmrCdtTrfInitn></Document>`;
}

test("the client sends a pain.001 and reads the payment's pain.002, valid for xmllint", async () => {
  const client = berlinGroupClient(bank, CREATION_HEADERS);
  try {
    const today = dateInZone(new Date(), bank.app.config.timeZone);
    const created = await client.sendPain001("payments", PRODUCT, pain001(today));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const paymentId = String(created.body?.paymentId);
    const report = await client.readPain002("payments", PRODUCT, paymentId);
    assert.equal(report.status, 200, report.text);
    const lint = spawnSync("/usr/bin/xmllint", ["--noout", "--schema", XSD, "-"], { input: report.text });
    assert.equal(lint.status, 0, lint.stderr.toString());
    // The pain.001's own identifiers come back, so accounting software can match the two.
    assert.match(report.text, /<OrgnlMsgId>CLIENT-1<\/OrgnlMsgId>/);
    assert.match(report.text, /<OrgnlPmtInfId>P-1<\/OrgnlPmtInfId>/);
    assert.match(report.text, /<GrpSts>RCVD<\/GrpSts>/);
    assert.match(report.text, /<OrgnlEndToEndId>CLIENT-E2E<\/OrgnlEndToEndId>/);
  } finally {
    client.close();
  }
});

test("the OpenAPI offers application/xml on the status operations, camt and MT940 on the list", async () => {
  const document = (await bank.tpp.get("/psd2/v1/openapi.json")).body;
  const status = document.paths["/psd2/v1/bulk-payments/{product}/{paymentId}/status"].get;
  assert.deepEqual(Object.keys(status.responses["200"].content), ["application/json", "application/xml"]);
  const list = document.paths["/psd2/v1/accounts/{accountId}/transactions"].get;
  assert.deepEqual(Object.keys(list.responses["200"].content),
    ["application/json", "application/xml", "text/plain"]);
  assert.match(list.responses["200"].content["application/xml"].schema.description, /camt\.053\.001\.08/);
});

test("the client reads last month's camt.053 statement of an account, valid for xmllint", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN],
    bgConsentBody());
  const psu = { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" };
  const accounts = (await bank.tpp.get("/psd2/v1/accounts", psu)).body.accounts;
  const client = berlinGroupClient(bank, {});
  try {
    const today = dateInZone(new Date(), bank.app.config.timeZone);
    const statement = await client.readCamt(accounts[0].resourceId,
      { dateFrom: addDays(today, -31), dateTo: addDays(today, -1), bookingStatus: "booked" }, psu);
    assert.equal(statement.status, 200, statement.text);
    const lint = spawnSync("/usr/bin/xmllint", ["--noout", "--schema", CAMT_053, "-"],
      { input: statement.text });
    assert.equal(lint.status, 0, lint.stderr.toString());
    assert.match(statement.text, new RegExp(`<IBAN>${ALICE_MAIN}</IBAN>`));
    assert.match(statement.text, /<Cd>CLBD<\/Cd>/);
  } finally {
    client.close();
  }
});
