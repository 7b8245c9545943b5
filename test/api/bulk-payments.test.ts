/**
 * Bulk payments over real TLS and SQLite: each payment checked by the single payment's rules
 * with its index in `path`, one SCA for the bulk, booking as a batch (all or nothing) or one by
 * one, and the bulk's status ACSC / PART / RJCT.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, BOB_MAIN, confirm, createdStatus, CREATION_HEADERS, EXTERNAL_IBAN, linkOf, OK_URI,
  reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const BULK = "/psd2/v1/bulk-payments/sepa-credit-transfers";
const ENTRIES_MAX = 3;

let bank: TestBank;
before(async () => { bank = await startBank({ env: { BULK_PAYMENT_ENTRIES_MAX: String(ENTRIES_MAX) } }); });
after(async () => { await bank.close(); });

const today = () => dateInZone(new Date(), bank.app.config.timeZone);

function entry(amount: string, over: Record<string, unknown> = {}) {
  return {
    creditorAccount: { iban: EXTERNAL_IBAN }, creditorName: "Supplier AG",
    instructedAmount: { currency: "EUR", amount }, remittanceInformationUnstructured: `Invoice ${amount}`,
    ...over,
  };
}

function bulk(payments: unknown[], over: Record<string, unknown> = {}) {
  return { debtorAccount: { iban: ALICE_MAIN }, payments, ...over };
}

function assertRefusal(res: TppResponse, status: number, code: string, path: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages.length, 1, res.text);
  assert.equal(res.body.tppMessages[0].code, code, res.text);
  assert.equal(res.body.tppMessages[0].path, path, res.text);
}

async function count(table: "payments" | "transfers"): Promise<number> {
  const row = await bank.app.store.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Creates the bulk, lets its PSU authorise it once, and returns its id. */
async function authorisedBulk(body: unknown, login = "alice"): Promise<string> {
  const created = await bank.tpp.post(BULK, body, CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const browser = bank.browser();
  const scaRedirect = linkOf(bank.tpp, created.body._links.scaRedirect);
  const review = await reachReview(browser, scaRedirect, login);
  const done = await confirm(browser, review);
  assert.equal(done.location, OK_URI, done.html);
  return created.body.paymentId;
}

async function bookingsOf(bulkId: string): Promise<number> {
  const rows = await bank.app.store.db.selectFrom("transfers").select("id")
    .where("payment_id", "like", `${bulkId}-%`).execute();
  return rows.length;
}

const statusOf = async (bulkId: string) => (await bank.tpp.get(`${BULK}/${bulkId}/status`)).body.transactionStatus;

test("each broken rule of a bulk is refused with its path, the payment's index included; nothing is stored",
  async () => {
    const good = [entry("1.00"), entry("2.00")];
    const rows: [unknown, number, string, string][] = [
      [bulk([]), 400, "FORMAT_ERROR", "payments"],
      [bulk([entry("1.00"), entry("1.00"), entry("1.00"), entry("1.00")]), 400, "FORMAT_ERROR", "payments"],
      [bulk([entry("1.00"), entry("1.00", { creditorAccount: { iban: "DE00370400440532013000" } })]),
        400, "FORMAT_ERROR", "payments[1].creditorAccount.iban"],
      [bulk([entry("1.00"), entry("1.00"), entry("-1")]), 400, "FORMAT_ERROR", "payments[2].instructedAmount.amount"],
      [bulk([entry("1.00", { debtorAccount: ALICE_MAIN })]), 400, "FORMAT_ERROR", "payments[0].debtorAccount"],
      [bulk([entry("1.00", { creditorName: undefined })]), 400, "FORMAT_ERROR", "payments[0].creditorName"],
      [bulk([entry("1.00"), entry("1.00", { remittanceInformationUnstructured: "Price €" })]),
        400, "FORMAT_ERROR", "payments[1].remittanceInformationUnstructured"],
      [bulk([entry("1.00", { instructedAmount: { currency: "USD", amount: "1.00" } })]),
        400, "FORMAT_ERROR", "payments[0].instructedAmount.currency"],
      [bulk(good, { debtorAccount: { iban: "DE02120300000000202051" } }), 400, "FORMAT_ERROR", "debtorAccount"],
      [bulk([entry("1.00", { creditorAccount: { iban: ALICE_MAIN } })]), 400, "FORMAT_ERROR",
        "payments[0].creditorAccount.iban"],
      [bulk(good, { requestedExecutionDate: addDays(today(), -1) }), 400, "FORMAT_ERROR", "requestedExecutionDate"],
      [bulk(good, { batchBookingPreferred: "yes" }), 400, "FORMAT_ERROR", "batchBookingPreferred"],
      [bulk(good, { debtorName: "Alice" }), 400, "FORMAT_ERROR", "debtorName"],
    ];
    const [payments, transfers] = [await count("payments"), await count("transfers")];
    for (const [body, status, code, path] of rows) {
      const res = await bank.tpp.post(BULK, JSON.parse(JSON.stringify(body)), CREATION_HEADERS);
      assertRefusal(res, status, code, path);
    }
    const instant = await bank.tpp.post("/psd2/v1/bulk-payments/instant-sepa-credit-transfers",
      bulk(good, { requestedExecutionDate: addDays(today(), 1) }), CREATION_HEADERS);
    assertRefusal(instant, 403, "PRODUCT_INVALID", "requestedExecutionDate");
    assert.deepEqual([await count("payments"), await count("transfers")], [payments, transfers]);
  });

test("one SCA for the whole bulk: the review lists every payee; all booked → ACSC", async () => {
  const bob = { creditorAccount: { iban: BOB_MAIN }, creditorName: "Bob Meyer" };
  const body = bulk([entry("1.10"), entry("2.20", bob)], { batchBookingPreferred: true });
  const created = await bank.tpp.post(BULK, body, CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const browser = bank.browser();
  const scaRedirect = linkOf(bank.tpp, created.body._links.scaRedirect);
  const review = await reachReview(browser, scaRedirect, "alice");
  for (const text of ["€3.30", "Supplier AG", "Bob Meyer", BOB_MAIN.replace(/(.{4})(?=.)/g, "$1 "), "Invoice 1.10"]) {
    assert.ok(review.html.includes(text), `${text} missing from the review`);
  }
  await confirm(browser, review);
  const bulkId = created.body.paymentId;
  assert.equal(await statusOf(bulkId), "ACSC");
  assert.equal(await bookingsOf(bulkId), 2);
  const details = await bank.tpp.get(`${BULK}/${bulkId}`);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.batchBookingPreferred, true);
  assert.equal(details.body.transactionStatus, "ACSC");
  assert.deepEqual(details.body.payments.map((p: { instructedAmount: { amount: string } }) => p.instructedAmount.amount),
    ["1.10", "2.20"]);
  assert.equal((await bank.tpp.get(`/psd2/v1/payments/${bulkId}`)).status, 404);
  assert.equal((await bank.tpp.get(`/psd2/v1/payments/${bulkId}-000000`)).status, 404);
});

// PART, not PATC: the Berlin Group keeps PATC for multi-level authorisation (issue 21).
test("booked one by one, a refused payment leaves the others booked: PART", async () => {
  const bulkId = await authorisedBulk(bulk([entry("1.00"), entry("900000.00"), entry("2.00")]));
  assert.equal(await statusOf(bulkId), "PART");
  assert.equal((await bank.tpp.get(`${BULK}/${bulkId}`)).body.transactionStatus, "PART");
  assert.equal(await bookingsOf(bulkId), 2);
  const entries = await bank.app.store.payments.entriesOf(bank.app.store.db, bulkId);
  assert.deepEqual(entries.map((e) => [e.status, e.statusReason]),
    [["ACSC", null], ["RJCT", "insufficient_funds"], ["ACSC", null]]);
});

test("as a batch, one refused payment books none of them: RJCT", async () => {
  const transfers = await count("transfers");
  const bulkId = await authorisedBulk(bulk([entry("1.00"), entry("900000.00"), entry("2.00")],
    { batchBookingPreferred: true }));
  assert.equal(await statusOf(bulkId), "RJCT");
  assert.equal(await bookingsOf(bulkId), 0);
  assert.equal(await count("transfers"), transfers);
  const entries = await bank.app.store.payments.entriesOf(bank.app.store.db, bulkId);
  assert.deepEqual(entries.map((e) => e.status), ["RJCT", "RJCT", "RJCT"]);
});

test("booked one by one, none booked: RJCT", async () => {
  const bulkId = await authorisedBulk(
    bulk([entry("900000.00"), entry("800000.00")], { debtorAccount: { iban: BOB_MAIN } }), "bob");
  assert.equal(await statusOf(bulkId), "RJCT");
  assert.equal(await bookingsOf(bulkId), 0);
});

test("a bulk cancelled before its SCA takes its payments with it: nothing left waiting", async () => {
  const created = await bank.tpp.post(BULK, bulk([entry("1.00"), entry("2.00")]), CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const bulkId = created.body.paymentId;
  assert.equal((await bank.tpp.call("DELETE", `${BULK}/${bulkId}`)).status, 204);
  assert.equal(await statusOf(bulkId), "CANC");
  const entries = await bank.app.store.payments.entriesOf(bank.app.store.db, bulkId);
  assert.deepEqual(entries.map((e) => e.status), ["CANC", "CANC"]);
});

test("a retried bulk (same X-Request-ID and body) gets the first answer and stores nothing more", async () => {
  const headers = { ...CREATION_HEADERS, "X-Request-ID": randomUUID() };
  const body = bulk([entry("1.00"), entry("2.00")]);
  const first = await bank.tpp.post(BULK, body, headers);
  assert.equal(first.status, createdStatus(bank.tpp), first.text);
  const payments = await count("payments");
  const again = await bank.tpp.post(BULK, body, headers);
  assert.deepEqual([again.status, again.body.paymentId], [first.status, first.body.paymentId]);
  assert.equal(await count("payments"), payments);
  const changed = await bank.tpp.post(BULK, bulk([entry("1.00"), entry("3.00")]), headers);
  assert.equal(changed.status, 400, changed.text);
  assert.equal(await count("payments"), payments);
});
