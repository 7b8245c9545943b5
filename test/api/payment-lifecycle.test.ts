/**
 * A payment's life after creation as the TPP sees it: cancellation, the SCA timeout, the
 * authorisation sub-resources, and compare-and-set status changes under racing requests.
 */
import assert from "node:assert/strict";
import { after, before, test, type TestContext } from "node:test";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";
import {
  confirm, createdStatus, createPayment, CREATION_HEADERS, linkOf, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const MINUTE = 60_000;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const statusOf = async (paymentId: string, b: TestBank = bank) =>
  (await b.tpp.get(`${SCT}/${paymentId}/status`)).body.transactionStatus as string;

function assertCode(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages[0].code, code, res.text);
}

async function authorisationsOf(paymentId: string, b: TestBank = bank) {
  const list = await b.tpp.get(`${SCT}/${paymentId}/authorisations`);
  assert.equal(list.status, 200, list.text);
  const ids = list.body.authorisationIds as string[];
  const statuses = [];
  for (const id of ids) {
    const res = await b.tpp.get(`${SCT}/${paymentId}/authorisations/${id}`);
    assert.equal(res.status, 200, res.text);
    statuses.push(res.body.scaStatus as string);
  }
  return statuses;
}

test("a payment not yet authorised is cancelled at once: 204, CANC, its link then refused",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp);
    const res = await bank.tpp.call("DELETE", `${SCT}/${paymentId}`);
    assert.equal(res.status, 204, res.text);
    assert.equal(await statusOf(paymentId), "CANC");
    assert.deepEqual(await authorisationsOf(paymentId), ["failed"]);
    const page = await bank.browser().get(scaRedirect);
    assert.equal(page.status, 400, "a cancelled payment's link still opened the login");
    assert.match(page.html, /already been decided/);
  });

test("a cancelled or executed payment cannot be cancelled: 405 CANCELLATION_INVALID", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(await statusOf(paymentId), "ACSC");
  assertCode(await bank.tpp.call("DELETE", `${SCT}/${paymentId}`), 405, "CANCELLATION_INVALID");
  assert.equal(await statusOf(paymentId), "ACSC");
  assert.deepEqual(await authorisationsOf(paymentId), ["finalised"]);

  const second = await createPayment(bank.tpp);
  assert.equal((await bank.tpp.call("DELETE", `${SCT}/${second.paymentId}`)).status, 204);
  const again = await bank.tpp.call("DELETE", `${SCT}/${second.paymentId}`);
  assertCode(again, 405, "CANCELLATION_INVALID");
});

test("cancelling another TPP's payment is 404 RESOURCE_UNKNOWN and changes nothing", async () => {
  const { paymentId } = await createPayment(bank.tpp);
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-424242" });
  assertCode(await other.call("DELETE", `${SCT}/${paymentId}`), 404, "RESOURCE_UNKNOWN");
  assertCode(await other.get(`${SCT}/${paymentId}/authorisations`), 404, "RESOURCE_UNKNOWN");
  assertCode(await bank.tpp.call("DELETE", `/psd2/v1/payments/target-2-payments/${paymentId}`),
    404, "PRODUCT_UNKNOWN");
  assert.equal(await statusOf(paymentId), "RCVD");
});

test("an unknown authorisation id is 404 RESOURCE_UNKNOWN", async () => {
  const { paymentId } = await createPayment(bank.tpp);
  const res = await bank.tpp.get(`${SCT}/${paymentId}/authorisations/no-such-authorisation`);
  assertCode(res, 404, "RESOURCE_UNKNOWN");
});

test("the authorisation's scaStatus follows the PSU: received, then finalised", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp);
  assert.deepEqual(await authorisationsOf(paymentId), ["received"]);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.deepEqual(await authorisationsOf(paymentId), ["finalised"]);
});

test("of ten racing cancellations exactly one wins; the rest are CANCELLATION_INVALID",
  async () => {
    const { paymentId } = await createPayment(bank.tpp);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => bank.tpp.call("DELETE", `${SCT}/${paymentId}`)));
    const statuses = answers.map((res) => res.status).sort();
    assert.deepEqual(statuses, [204, ...Array<number>(9).fill(405)]);
    assert.equal(await statusOf(paymentId), "CANC");
  });

async function bankWithClock(t: TestContext) {
  const clock = manualClock(new Date());
  const own = await startBank({ clock });
  t.after(() => own.close());
  return { own, clock };
}

test("a payment not authorised within 30 minutes is RJCT and can no longer be cancelled",
  async (t) => {
    const { own, clock } = await bankWithClock(t);
    const { paymentId } = await createPayment(own.tpp);
    const later = await createPayment(own.tpp);
    clock.advance(29 * MINUTE);
    assert.equal(await statusOf(paymentId, own), "RCVD");
    clock.advance(2 * MINUTE);
    assert.equal(await statusOf(paymentId, own), "RJCT");
    assert.deepEqual(await authorisationsOf(paymentId, own), ["failed"]);
    const cancel = await own.tpp.call("DELETE", `${SCT}/${later.paymentId}`);
    assertCode(cancel, 405, "CANCELLATION_INVALID");
    assert.equal(await statusOf(later.paymentId, own), "RJCT");
  });

test("PAYMENT_SCA_TIMEOUT_SECONDS sets the timeout", async (t) => {
  const clock = manualClock(new Date());
  const own = await startBank({ clock, env: { PAYMENT_SCA_TIMEOUT_SECONDS: "60" } });
  t.after(() => own.close());
  const { paymentId } = await createPayment(own.tpp);
  clock.advance(61_000);
  assert.equal(await statusOf(paymentId, own), "RJCT");
});

test("a future-dated payment waits in ACTC and is booked once when its date comes", async (t) => {
  const { own, clock } = await bankWithClock(t);
  const tomorrow = addDays(dateInZone(clock.now(), own.app.config.timeZone), 1);
  const body = paymentBody({ requestedExecutionDate: tomorrow });
  const { paymentId, scaRedirect } = await createPayment(own.tpp, body);
  const browser = own.browser();
  await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(await statusOf(paymentId, own), "ACTC");
  assert.equal(await own.app.executeDuePayments(), 0);
  assert.equal(await statusOf(paymentId, own), "ACTC");
  clock.advance(24 * 60 * MINUTE);
  assert.equal(await own.app.executeDuePayments(), 1);
  assert.equal(await statusOf(paymentId, own), "ACSC");
  assert.equal(await own.app.executeDuePayments(), 0);
  const transfers = await own.app.store.db.selectFrom("transfers").select("id")
    .where("payment_id", "=", paymentId).execute();
  assert.equal(transfers.length, 1);
});

test("an instant payment is booked at the PSU's confirmation and reads ACSC", async () => {
  const instant = "/psd2/v1/payments/instant-sepa-credit-transfers";
  const created = await bank.tpp.post(instant, paymentBody(), CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const browser = bank.browser();
  const review = await reachReview(browser, linkOf(bank.tpp, created.body._links.scaRedirect), "alice");
  await confirm(browser, review);
  const res = await bank.tpp.get(`${instant}/${created.body.paymentId}/status`);
  assert.deepEqual(res.body, { transactionStatus: "ACSC" });
});
