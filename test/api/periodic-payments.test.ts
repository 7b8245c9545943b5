/**
 * Periodic payments (standing orders) and the cancellation of authorised payments over real TLS
 * and SQLite: initiation rules, executions booked by the scheduled job, the account report's
 * information list, and the PSU's cancellation authorisation on the redirect pages.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";
import {
  authorisedConsent, BOB_MAIN, cancel, confirm, createdStatus, createPayment, CREATION_HEADERS,
  inProfile, linkOf, NOK_URI, OK_URI, paymentBody, reachReview, REDIRECTS,
} from "../support/flows.js";
import { jsonOf, runOperator } from "../support/cli.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const PERIODIC = "/psd2/v1/periodic-payments/sepa-credit-transfers";
const SCT = "/psd2/v1/payments/sepa-credit-transfers";

const clock = manualClock(new Date());
let bank: TestBank;
before(async () => {
  bank = await startBank({ clock });
  // Bob pays every standing order here; his demo balance alone would run out.
  const { store } = bank.app;
  const core = createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: bank.app.config.timeZone, bankCode: "50010000", bic: "DEMODEFFXXX",
  });
  const bob = await store.ledger.findAccountByIban(store.db, BOB_MAIN);
  assert.ok(bob);
  await store.transaction((tx) => core.adjustBalance(tx, bob.id, "credit", 100_000n, "Test money"));
});
after(async () => { await bank.close(); });

const today = () => dateInZone(clock.now(), bank.app.config.timeZone);

/** The first Monday after today: Daily executions from it to Wednesday meet no weekend. */
function nextMonday(): string {
  const weekday = new Date(`${today()}T00:00:00Z`).getUTCDay();
  return addDays(today(), ((8 - weekday) % 7) || 7);
}

/** Moves the bank's clock to noon UTC of `date` (the same date in Europe/Berlin). */
function goTo(date: string) {
  clock.set(new Date(`${date}T12:00:00Z`));
}

function standingOrder(over: Record<string, unknown> = {}) {
  return {
    ...paymentBody({ debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "1.25" } }),
    startDate: nextMonday(), endDate: addDays(nextMonday(), 2), frequency: "Daily", ...over,
  };
}

function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages.length, 1, res.text);
  assert.equal(res.body.tppMessages[0].code, code, res.text);
  if (path !== undefined) assert.equal(res.body.tppMessages[0].path, path, res.text);
}

async function createAuthorised(path: string, body: unknown) {
  const created = await bank.tpp.post(path, body, CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const browser = bank.browser();
  const scaRedirect = linkOf(bank.tpp, created.body._links.scaRedirect);
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "bob"));
  assert.equal(done.location, OK_URI, done.html);
  return created.body.paymentId as string;
}

async function bookingsOf(paymentId: string): Promise<string[]> {
  const rows = await bank.app.store.db.selectFrom("transfers").select("payment_id")
    .where("payment_id", "like", `${paymentId}%`).orderBy("payment_id").execute();
  return rows.map((r) => r.payment_id ?? "");
}

async function statusOf(path: string, paymentId: string): Promise<string> {
  const res = await bank.tpp.get(`${path}/${paymentId}/status`);
  assert.equal(res.status, 200, res.text);
  return res.body.transactionStatus;
}

async function paymentRows(): Promise<number> {
  const row = await bank.app.store.db.selectFrom("payments")
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

test("each broken rule of a periodic payment is refused with its path, and nothing is stored", async () => {
  const tomorrowWeekday = String(((new Date(`${today()}T00:00:00Z`).getUTCDay() + 7) % 7) + 1);
  const rows: [Record<string, unknown>, number, string, string][] = [
    [{ startDate: undefined }, 400, "FORMAT_ERROR", "startDate"],
    [{ frequency: undefined }, 400, "FORMAT_ERROR", "frequency"],
    [{ requestedExecutionDate: nextMonday() }, 400, "FORMAT_ERROR", "requestedExecutionDate"],
    [{ frequency: "Hourly" }, 400, "FORMAT_ERROR", "frequency"],
    [{ startDate: addDays(today(), -1) }, 400, "FORMAT_ERROR", "startDate"],
    [{ endDate: addDays(nextMonday(), -1) }, 400, "FORMAT_ERROR", "endDate"],
    [{ frequency: "Monthly", dayOfExecution: "32" }, 400, "FORMAT_ERROR", "dayOfExecution"],
    [{ dayOfExecution: 5 }, 400, "FORMAT_ERROR", "dayOfExecution"],
    [{ executionRule: "later" }, 400, "FORMAT_ERROR", "executionRule"],
    [{ creditorAccount: "DE00370400440532013000" }, 400, "FORMAT_ERROR", "creditorAccount"],
    [{ instructedAmount: { currency: "EUR", amount: "0" } }, 400, "FORMAT_ERROR", "instructedAmount.amount"],
    [{ debtorAccount: "DE02120300000000202051" }, 400, "FORMAT_ERROR", "debtorAccount"],
    [{ startDate: today(), endDate: today(), frequency: "Weekly", dayOfExecution: tomorrowWeekday },
      400, "FORMAT_ERROR", "endDate"],
  ];
  const before = await paymentRows();
  for (const [over, status, code, path] of rows) {
    const body = JSON.parse(JSON.stringify(standingOrder(over)));
    assertRefusal(await bank.tpp.post(PERIODIC, body, CREATION_HEADERS), status, code, path);
  }
  const target2 = "/psd2/v1/periodic-payments/target-2-payments";
  assertRefusal(await bank.tpp.post(target2, standingOrder(), CREATION_HEADERS),
    404, "PRODUCT_UNKNOWN");
  assert.equal(await paymentRows(), before);
});

test("a standing order books each due execution once, in the debtor's transactions, then completes",
  async () => {
    const monday = nextMonday();
    const paymentId = await createAuthorised(PERIODIC, standingOrder({ remittanceInformationUnstructured: "Rent" }));
    assert.equal(await statusOf(PERIODIC, paymentId), "ACTC");
    const details = await bank.tpp.get(`${PERIODIC}/${paymentId}`);
    assert.equal(details.status, 200, details.text);
    assert.deepEqual(
      [details.body.startDate, details.body.endDate, details.body.frequency, details.body.transactionStatus],
      [monday, addDays(monday, 2), "Daily", "ACTC"]);
    assert.equal((await bank.tpp.get(`${SCT}/${paymentId}`)).status, 404, "a standing order read as a single payment");
    assert.equal(await bank.app.executeDuePayments(), 0);

    goTo(monday);
    assert.equal(await bank.app.executeDuePayments(), 1);
    assert.equal(await bank.app.executeDuePayments(), 0);
    const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
    const read = (query: string) => bank.tpp.get(`/psd2/v1/accounts/${bobId}/transactions?${query}`,
      { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
    const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
    const bobId = accounts.body.accounts[0].resourceId as string;
    const info = await read(`dateFrom=${monday}&bookingStatus=information`);
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.transactions.booked, inProfile(bank.tpp, { booked: null }).booked);
    assert.deepEqual(info.body.transactions.information.map((i: { transactionId: string }) => i.transactionId),
      [paymentId]);
    assert.deepEqual(info.body.transactions.information[0].additionalInformationStructured.standingOrderDetails,
      inProfile(bank.tpp, {
        startDate: monday, endDate: addDays(monday, 2), frequency: "Daily",
        dayOfExecution: null, executionRule: null,
      }));

    for (const day of [1, 2]) {
      goTo(addDays(monday, day));
      assert.equal(await bank.app.executeDuePayments(), 1);
    }
    assert.equal(await statusOf(PERIODIC, paymentId), "ACSC");
    goTo(addDays(monday, 3));
    assert.equal(await bank.app.executeDuePayments(), 0);
    assert.deepEqual(await bookingsOf(paymentId), [1, 2, 3].map((n) => `${paymentId}-${n}`));
    // RTS art. 14: the order's SCA covered the first execution; each one after it is exempt.
    const audited = await bank.app.store.audit.query(bank.app.store.db, { resourceId: paymentId, limit: 50 });
    assert.deepEqual(audited.filter((e) => e.path.includes("art. 14")).map((e) => [e.method, e.path]).reverse(),
      [2, 3].map((n) => ["BANK", `standing order execution ${n} (SCA exempted: RTS art. 14 (recurring `
        + "transaction, same amount and payee))"]));
    const shown = jsonOf(runOperator(bank.app.config.dataDir, ["payment", "show", paymentId, "--json"],
      bank.database.databaseUrl));
    assert.equal(shown.resource.secondFactor, "given (SCA: password and code); each execution after the "
      + "first: none, exempted under RTS art. 14 (recurring transaction, same amount and payee)");
    const booked = await read(`dateFrom=${monday}&bookingStatus=booked`);
    const rent = booked.body.transactions.booked.filter(
      (t: { remittanceInformationUnstructured: string }) => t.remittanceInformationUnstructured === "Rent");
    assert.deepEqual(rent.map((t: { transactionAmount: { amount: string } }) => t.transactionAmount.amount),
      ["-1.25", "-1.25", "-1.25"]);
    assert.deepEqual(rent.map((t: { bookingDate: string }) => t.bookingDate), [0, 1, 2].map((d) => addDays(monday, d)));
    const done = await read(`dateFrom=${monday}&bookingStatus=information`);
    assert.deepEqual(done.body.transactions.information, []);
  });

test("missed executions are caught up one by one when the job runs again", async () => {
  const monday = nextMonday();
  const paymentId = await createAuthorised(PERIODIC, standingOrder());
  goTo(addDays(monday, 4));
  assert.equal(await bank.app.executeDuePayments(), 3);
  assert.equal((await bookingsOf(paymentId)).length, 3);
  assert.equal(await statusOf(PERIODIC, paymentId), "ACSC");
});

test("cancelling a running standing order: 202, the PSU's cancellation authorisation, CANC, no more executions",
  async () => {
    const monday = nextMonday();
    const paymentId = await createAuthorised(PERIODIC, standingOrder());
    goTo(monday);
    assert.equal(await bank.app.executeDuePayments(), 1);
    const path = `${PERIODIC}/${paymentId}`;
    const res = await bank.tpp.call("DELETE", path);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.transactionStatus, "ACTC");
    const scaRedirect = linkOf(bank.tpp, res.body._links.scaRedirect);
    const startAuthorisation = linkOf(bank.tpp, res.body._links.startAuthorisation);
    const list = await bank.tpp.get(`${path}/cancellation-authorisations`);
    assert.equal(list.status, 200, list.text);
    const [cancellationId] = list.body.authorisationIds;
    assert.equal(startAuthorisation, `${path}/cancellation-authorisations/${cancellationId}`);
    assert.deepEqual((await bank.tpp.get(startAuthorisation)).body, { scaStatus: "received" });
    assert.equal((await bank.tpp.get(`${path}/authorisations`)).body.authorisationIds.length, 1);
    assert.equal(await statusOf(PERIODIC, paymentId), "ACTC");

    const browser = bank.browser();
    const review = await reachReview(browser, scaRedirect, "bob");
    assert.match(review.html, /asks you to authorise the cancellation of a payment/);
    const done = await confirm(browser, review);
    assert.equal(done.location, OK_URI, done.html);
    assert.equal(await statusOf(PERIODIC, paymentId), "CANC");
    const finalised = (await bank.tpp.get(startAuthorisation)).body;
    assert.equal(finalised.scaStatus, "finalised");
    assert.equal(finalised.chosenScaMethod.authenticationType, "SMS_OTP", "the device the PSU used");
    goTo(addDays(monday, 1));
    assert.equal(await bank.app.executeDuePayments(), 0);
    assert.deepEqual(await bookingsOf(paymentId), [`${paymentId}-1`]);
    assertRefusal(await bank.tpp.call("DELETE", path), 405, "CANCELLATION_INVALID");
  });

test("a future-dated payment: the PSU may refuse its cancellation; once executed it cannot be cancelled",
  async () => {
    const tomorrow = addDays(today(), 1);
    const body = paymentBody({
      debtorAccount: BOB_MAIN, requestedExecutionDate: tomorrow, instructedAmount: { currency: "EUR", amount: "1.25" },
    });
    const paymentId = await createAuthorised(SCT, body);
    const path = `${SCT}/${paymentId}`;
    const started = await bank.tpp.call("DELETE", path);
    assert.equal(started.status, 202, started.text);
    const browser = bank.browser();
    const cancellation = linkOf(bank.tpp, started.body._links.scaRedirect);
    const refused = await cancel(browser, await reachReview(browser, cancellation, "bob"));
    assert.equal(refused.location, NOK_URI, refused.html);
    assert.equal(await statusOf(SCT, paymentId), "ACTC");
    const scaStatus = linkOf(bank.tpp, started.body._links.scaStatus);
    assert.equal((await bank.tpp.get(scaStatus)).body.scaStatus, "failed");

    const again = await bank.tpp.post(`${path}/cancellation-authorisations`, {}, REDIRECTS);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.scaStatus, "received");
    const ids = (await bank.tpp.get(`${path}/cancellation-authorisations`)).body.authorisationIds;
    assert.deepEqual(ids.length, 2);

    goTo(tomorrow);
    assert.equal(await bank.app.executeDuePayments(), 1);
    const row = await bank.app.store.payments.find(bank.app.store.db, paymentId);
    assert.equal(row?.status, "ACSC", row?.statusReason ?? "");
    const late = await bank.browser().get(linkOf(bank.tpp, again.body._links.scaRedirect));
    assert.equal(late.status, 400, "an executed payment's cancellation link opened the login");
    assertRefusal(await bank.tpp.call("DELETE", path), 405, "CANCELLATION_INVALID");
    assertRefusal(await bank.tpp.post(`${path}/cancellation-authorisations`, {}, REDIRECTS),
      405, "CANCELLATION_INVALID");
    assert.deepEqual(await bookingsOf(paymentId), [paymentId]);
  });

test("a payment not yet authorised has no cancellation authorisation: DELETE is 204", async () => {
  const { paymentId } = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
  assertRefusal(await bank.tpp.post(`${SCT}/${paymentId}/cancellation-authorisations`, {}, REDIRECTS),
    405, "CANCELLATION_INVALID");
  assert.equal((await bank.tpp.call("DELETE", `${SCT}/${paymentId}`)).status, 204);
  assert.equal(await statusOf(SCT, paymentId), "CANC");
});

test("execution and a confirmed cancellation racing: exactly one wins, nothing is half done", async () => {
  const tomorrow = addDays(today(), 1);
  const body = paymentBody({
    debtorAccount: BOB_MAIN, requestedExecutionDate: tomorrow, instructedAmount: { currency: "EUR", amount: "1.25" },
  });
  const paymentId = await createAuthorised(SCT, body);
  goTo(tomorrow);
  const started = await bank.tpp.call("DELETE", `${SCT}/${paymentId}`);
  assert.equal(started.status, 202, started.text);
  const browser = bank.browser();
  const cancellation = linkOf(bank.tpp, started.body._links.scaRedirect);
  const review = await reachReview(browser, cancellation, "bob");
  const [executed] = await Promise.all([bank.app.executeDuePayments(), confirm(browser, review)]);
  const status = await statusOf(SCT, paymentId);
  const bookings = await bookingsOf(paymentId);
  if (status === "CANC") assert.deepEqual(bookings, []);
  else {
    const row = await bank.app.store.payments.find(bank.app.store.db, paymentId);
    assert.deepEqual([status, bookings, executed], ["ACSC", [paymentId], 1], row?.statusReason ?? "");
  }
});
