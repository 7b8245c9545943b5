/**
 * An account's transactions as files: camt.053 (past days) and camt.052 (a range reaching
 * today), and MT940 (past days) and MT942 (reaching today), for alice's Girokonto with its 13
 * months of demo history. Every camt document is valid against the official XSD by xmllint, every
 * MT940 parses with mt940js and every MT942 with @centrapay/swift-parser, both keeping to the SWIFT
 * character set and line length; each file's entries are those of the JSON list for the same
 * range and its balances the ledger's, over random ranges (a property test).
 * Also the refusals of a file's query, and the download link of a file too large to answer.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import swiftParser from "@centrapay/swift-parser";
import fc from "fast-check";
import { XMLParser } from "fast-xml-parser";
import { Parser as Mt940Parser } from "mt940js";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, authorisedConsent, bgConsentBody, consentBody, linkOf, optionalLink,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let consentId = "";
let accountId = "";
before(async () => {
  bank = await startBank();
  // Authorised just now: the whole history is readable for an hour (RTS art. 10a).
  consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
  const list = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, ...PSU });
  accountId = list.body.accounts[0].resourceId;
});
after(async () => { await bank.close(); });

// The PSU is present: reads are not counted against frequencyPerDay.
const PSU = { "PSU-IP-Address": "192.0.2.1" };
const XML = { Accept: "application/xml" };
const today = () => dateInZone(new Date(), bank.app.config.timeZone);
const schema = (message: string) =>
  new URL(`../../../schemas/iso20022/${message}.xsd`, import.meta.url).pathname;

/** xmllint, not the bank's own code, judges each document against its official XSD. */
function assertSchemaValid(xml: string, message: string) {
  const run = spawnSync("/usr/bin/xmllint", ["--noout", "--schema", schema(message), "-"],
    { input: xml });
  assert.equal(run.status, 0, `${run.stderr.toString()}\n${xml.slice(0, 2000)}`);
}

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: false,
  isArray: (name) => name === "Ntry" || name === "Bal" });

const transactionsPath = (query: string) => `/psd2/v1/accounts/${accountId}/transactions?${query}`;

async function camt(query: string, message: string) {
  const res = await bank.tpp.get(transactionsPath(query), { "Consent-ID": consentId, ...PSU, ...XML });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers["content-type"]), /^application\/xml/);
  assertSchemaValid(res.text, message);
  const root = parser.parse(res.text).Document;
  return (message.startsWith("camt.053") ? root.BkToCstmrStmt.Stmt : root.BkToCstmrAcctRpt.Rpt);
}

/** Every booked transaction of the JSON list for the range, following its pages. */
async function jsonBooked(dateFrom: string, dateTo: string) {
  const booked: any[] = [];
  let next: string | null =
    transactionsPath(`dateFrom=${dateFrom}&dateTo=${dateTo}&bookingStatus=booked&itemsPerPage=500`);
  for (let pages = 0; next && pages < 100; pages++) {
    const res = await bank.tpp.get(next, { "Consent-ID": consentId, ...PSU });
    assert.equal(res.status, 200, res.text);
    booked.push(...(res.body.transactions.booked ?? []));
    next = optionalLink(bank.tpp, res.body.transactions._links?.next);
  }
  return booked;
}

const cents = (amount: string) => BigInt(amount.replace(".", ""));
const signed = (e: any) => (e.CdtDbtInd === "DBIT" ? -1n : 1n) * cents(e.Amt["#text"]);
const balanceOf = (stmt: any, code: string) => {
  const bal = stmt.Bal.find((b: any) => b.Tp.CdOrPrtry.Cd === code);
  assert.ok(bal, `no ${code} balance`);
  return signed(bal);
};

/** An MT94x text: SWIFT's character set, 65-character lines, CRLF; its lines. */
async function swiftText(query: string) {
  const res = await bank.tpp.get(transactionsPath(query),
    { "Consent-ID": consentId, ...PSU, Accept: "text/plain" });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers["content-type"]), /^text\/plain/);
  const lines = res.text.split("\r\n");
  assert.equal(lines.pop(), "", "every line ends with CRLF");
  for (const line of lines) {
    assert.ok(line.length <= 65, `over 65 characters: ${line}`);
    assert.match(line, /^[A-Za-z0-9/\-?:().,'+ ]*$/, `outside the SWIFT X character set: ${line}`);
  }
  return { text: res.text, lines };
}

/** An MT940 statement, parsed by mt940js. */
async function mt940(query: string) {
  const statements = new Mt940Parser().parse((await swiftText(query)).text);
  assert.equal(statements.length, 1);
  return statements[0]!;
}

/** "1234,5" as 123450: SWIFT writes a decimal comma and may leave out the cents. */
function swiftCents(text: string): bigint {
  const [units, decimals = ""] = text.split(",");
  return BigInt(`${units}${decimals.padEnd(2, "0")}`);
}

/**
 * An MT942 report: parsed by @centrapay/swift-parser; the mandatory tags in SWIFT's order, and
 * :90D:/:90C: the number and sum of its debit and credit entries.
 */
async function mt942(query: string) {
  const { text, lines } = await swiftText(query);
  const statements = swiftParser.parse({ type: "mt942", data: text });
  assert.equal(statements.length, 1);
  const tags = lines.map((line) => /^:(\w+):/.exec(line)?.[1]).filter((tag) => tag);
  assert.deepEqual(tags.slice(0, 5), ["20", "25", "28C", "34F", "13D"], text);
  assert.ok(!tags.includes("60F") && !tags.includes("62F"), "MT942 carries no balances");
  const amounts = statements[0]!.transactions
    .map((t) => BigInt(t.amount.toFixed(2).replace(".", "")));
  for (const [tag, debit] of [["90D", true], ["90C", false]] as const) {
    const total = /^(\d{1,5})EUR([\d,]+)$/.exec(lines.find((l) => l.startsWith(`:${tag}:`))
      ?.slice(5) ?? "");
    assert.ok(total, `${tag} in ${text}`);
    const side = amounts.filter((a) => (a < 0n) === debit);
    assert.deepEqual([Number(total[1]), swiftCents(total[2]!)],
      [side.length, side.reduce((sum, a) => sum + (a < 0n ? -a : a), 0n)], text);
  }
  return { statement: statements[0]!, amounts, text };
}

const fromFloat = (amount: number) => BigInt(Math.round(amount * 100));

/** The documents' entries and balances equal the JSON list and the ledger's running balance. */
async function assertSameStory(dateFrom: string, dateTo: string) {
  const current = dateTo >= today();
  const message = current ? "camt.052.001.08" : "camt.053.001.08";
  const stmt = await camt(`dateFrom=${dateFrom}&dateTo=${dateTo}&bookingStatus=booked`, message);
  const entries = stmt.Ntry ?? [];
  const json = await jsonBooked(dateFrom, dateTo);
  assert.deepEqual(entries.map((e: any) => [e.NtryRef, e.AcctSvcrRef, signed(e), e.BookgDt.Dt]),
    json.map((t) => [t.entryReference, t.transactionId.replace(/-/g, ""),
      cents(t.transactionAmount.amount), t.bookingDate]));
  const opening = balanceOf(stmt, "OPBD");
  const closing = balanceOf(stmt, current ? "ITBD" : "CLBD");
  assert.equal(opening + entries.reduce((sum: bigint, e: any) => sum + signed(e), 0n), closing);
  const last = json.at(-1);
  if (last) assert.equal(closing, cents(last.balanceAfterTransaction.balanceAmount.amount));
  const swiftQuery = `dateFrom=${dateFrom}&dateTo=${dateTo}&bookingStatus=booked`;
  if (current) {
    const report = await mt942(swiftQuery);
    assert.equal(report.statement.accountIdentification, ALICE_MAIN);
    const { transactions } = report.statement;
    assert.deepEqual(transactions.map((t, i) => [t.bankReference, report.amounts[i]]),
      json.map((t) => [t.entryReference, cents(t.transactionAmount.amount)]));
    return { stmt, entries };
  }
  const swift = await mt940(swiftQuery);
  assert.equal(swift.accountIdentification, ALICE_MAIN);
  assert.deepEqual([fromFloat(swift.openingBalance), fromFloat(swift.closingBalance)],
    [opening, closing]);
  assert.deepEqual(swift.transactions.map((t) => [t.bankReference, fromFloat(t.amount)]),
    json.map((t) => [t.entryReference, cents(t.transactionAmount.amount)]));
  return { stmt, entries };
}

test("camt.053 for the 13 past months: valid, every JSON entry, and closingBooked as in JSON",
  async () => {
    const yesterday = addDays(today(), -1);
    const { stmt, entries } = await assertSameStory(addDays(today(), -395), yesterday);
    assert.ok(entries.length > 100, `13 months of history: ${entries.length} entries`);
    assert.equal(stmt.Acct.Id.IBAN, ALICE_MAIN);
    const balances = await bank.tpp.get(`/psd2/v1/accounts/${accountId}/balances`,
      { "Consent-ID": consentId, ...PSU });
    const closingBooked = balances.body.balances
      .find((b: { balanceType: string }) => b.balanceType === "closingBooked");
    assert.equal(closingBooked.referenceDate, yesterday);
    assert.equal(balanceOf(stmt, "CLBD"), cents(closingBooked.balanceAmount.amount));
  });

test("a range reaching today is a camt.052 and an MT942 report: booked so far and the pending",
  async () => {
    const dateFrom = addDays(today(), -30);
    await assertSameStory(dateFrom, today());
    const report = await camt(`dateFrom=${dateFrom}&bookingStatus=both`, "camt.052.001.08");
    const res = await bank.tpp.get(transactionsPath(`dateFrom=${dateFrom}&bookingStatus=pending`),
      { "Consent-ID": consentId, ...PSU });
    const pending = res.body.transactions.pending ?? [];
    assert.ok(pending.length > 0, "alice has pending card payments");
    const statuses = (report.Ntry ?? []).map((e: any) => e.Sts.Cd);
    assert.equal(statuses.filter((s: string) => s === "PDNG").length, pending.length);
    const swift = await mt942(`dateFrom=${dateFrom}&bookingStatus=pending`);
    assert.deepEqual(swift.amounts, pending.map((t: any) => cents(t.transactionAmount.amount)));
    assert.deepEqual(swift.statement.transactions.map((t) => t.bankReference),
      pending.map((t: any) => t.transactionId.replace(/-/g, "").slice(0, 16)));
  });

test("over random ranges of the history, camt and MT94x tell what the JSON list tells", async () => {
  const span = fc.tuple(fc.integer({ min: 0, max: 395 }), fc.integer({ min: 0, max: 60 }));
  await fc.assert(fc.asyncProperty(span, async ([back, length]) => {
    const dateFrom = addDays(today(), -back);
    const dateTo = addDays(dateFrom, Math.min(length, back));
    await assertSameStory(dateFrom, dateTo);
  }), { numRuns: 12 });
});

test("a file's query: dateFrom required, no paging or delta; other formats are 406", async () => {
  const refused = async (query: string, status: number, code: string, path?: string) => {
    const res = await bank.tpp.get(transactionsPath(query), { "Consent-ID": consentId, ...PSU, ...XML });
    assert.equal(res.status, status, res.text);
    assert.equal(res.body.tppMessages[0].code, code, res.text);
    if (path) assert.equal(res.body.tppMessages[0].path, path, res.text);
  };
  await refused("bookingStatus=booked", 400, "FORMAT_ERROR", "dateFrom");
  await refused("bookingStatus=booked&entryReferenceFrom=1", 400, "PARAMETER_NOT_SUPPORTED",
    "entryReferenceFrom");
  await refused(`dateFrom=${today()}&bookingStatus=booked&pageIndex=1`, 400,
    "PARAMETER_NOT_SUPPORTED", "pageIndex");
  await refused(`dateFrom=${today()}&bookingStatus=information`, 400, "PARAMETER_NOT_SUPPORTED",
    "bookingStatus");
  const csv = await bank.tpp.get(transactionsPath(`dateFrom=${today()}&bookingStatus=booked`),
    { "Consent-ID": consentId, ...PSU, Accept: "text/csv" });
  assert.equal(csv.status, 406, csv.text);
  assert.equal(csv.body.tppMessages[0].code, "REQUESTED_FORMATS_INVALID");
});

for (const profile of ["spec", "berlin-group"]) {
  test(`${profile}: a file over DOWNLOAD_THRESHOLD_ENTRIES is a download link: for this TPP, once, 10 minutes`,
  async (t) => {
    const clock = manualClock(new Date());
    const own = await startOwnBank(t,
      { clock, env: { DOWNLOAD_THRESHOLD_ENTRIES: "5", API_PROFILE: profile } });
    const consent = await authorisedConsent(own.tpp, own.browser(), "alice", [ALICE_MAIN],
      profile === "spec" ? consentBody() : bgConsentBody());
    const headers = { "Consent-ID": consent, ...PSU };
    const id = (await own.tpp.get("/psd2/v1/accounts", headers)).body.accounts[0].resourceId;
    const path = `/psd2/v1/accounts/${id}/transactions?dateFrom=${addDays(today(), -60)}`
      + `&dateTo=${addDays(today(), -1)}&bookingStatus=booked`;
    const linked = async () => {
      const res = await own.tpp.get(path, { ...headers, ...XML });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ["_links", "account"], res.text);
      assert.deepEqual(res.body.account, { iban: ALICE_MAIN, currency: "EUR" });
      return linkOf(own.tpp, res.body._links.download);
    };
    const href = await linked();
    assert.match(href, new RegExp(`^/psd2/v1/accounts/${id}/transactions/download/[\\w.-]{1,100}$`));
    const stranger = await own.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777777" });
    assert.equal((await stranger.get(href, headers)).status, 404, "another TPP's link");
    const file = await own.tpp.get(href, headers);
    assert.equal(file.status, 200, file.text);
    assertSchemaValid(file.text, "camt.053.001.08");
    const json = await own.tpp.get(path.replace("bookingStatus=booked",
      "bookingStatus=booked&itemsPerPage=500"), headers);
    const stmt = parser.parse(file.text).Document.BkToCstmrStmt.Stmt;
    assert.deepEqual(stmt.Ntry.map((e: any) => e.NtryRef),
      json.body.transactions.booked.map((tx: any) => tx.entryReference));
    assert.equal((await own.tpp.get(href, headers)).status, 404, "spent on its first use");
    const later = await linked();
    clock.advance(11 * 60_000);
    assert.equal((await own.tpp.get(later, headers)).status, 404, "expired after 10 minutes");
  });
}
