/**
 * Payments to other banks with a settlement delay (CLEARING_SETTLEMENT_SECONDS): booked to the
 * clearing account they read ACSP, and the due-payments job settles them to ACCC once the delay
 * has passed; within the bank and for instant payments the status stays ACSC as the spec shows.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, BOB_MAIN, confirm, EXTERNAL_IBAN, OK_URI, paymentBody, reachReview,
  REDIRECTS,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const INSTANT = "/psd2/v1/payments/instant-sepa-credit-transfers";
const HOUR = 3_600_000;

const clock = manualClock(new Date());
let bank: TestBank;
before(async () => { bank = await startBank({ clock, env: { CLEARING_SETTLEMENT_SECONDS: "3600" } }); });
after(async () => { await bank.close(); });

async function paid(path: string, login: string, over: Record<string, unknown>) {
  const body = paymentBody({ instructedAmount: { currency: "EUR", amount: "1.25" }, ...over });
  const created = await bank.tpp.post(path, body, REDIRECTS);
  assert.equal(created.status, 200, created.text);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, created.body._links.scaRedirect, login));
  assert.equal(done.location, OK_URI, done.html);
  return created.body.paymentId as string;
}

const statusOf = async (paymentId: string) =>
  (await bank.tpp.get(`${SCT}/${paymentId}/status`)).body.transactionStatus as string;

async function clearingCredits(paymentId: string): Promise<number> {
  const rows = await bank.app.store.db.selectFrom("transfers").select("credit_account_id")
    .where("payment_id", "=", paymentId).execute();
  return rows.filter((r) => r.credit_account_id === "clearing-eur").length;
}

// Alice confirms with TOTP against the bank's clock: before any clock.advance.
test("within the bank the payment is ACSC at once, as the spec's sample shows", async () => {
  const paymentId = await paid(SCT, "alice", { debtorAccount: ALICE_MAIN, creditorAccount: ALICE_SAVINGS });
  assert.equal(await statusOf(paymentId), "ACSC");
  assert.equal(await clearingCredits(paymentId), 0);
});

test("an instant payment to another bank settles at once: ACSC", async () => {
  const paymentId = await paid(INSTANT, "bob", { debtorAccount: BOB_MAIN, creditorAccount: EXTERNAL_IBAN });
  assert.equal((await bank.tpp.get(`${INSTANT}/${paymentId}/status`)).body.transactionStatus, "ACSC");
  assert.equal(await clearingCredits(paymentId), 1);
});

test("a transfer to another bank is ACSP once booked to clearing, ACCC after the settlement delay",
  async () => {
    const paymentId = await paid(SCT, "bob", { debtorAccount: BOB_MAIN, creditorAccount: EXTERNAL_IBAN });
    assert.equal(await statusOf(paymentId), "ACSP");
    assert.equal(await clearingCredits(paymentId), 1);
    const cancel = await bank.tpp.call("DELETE", `${SCT}/${paymentId}`);
    assert.equal(cancel.status, 405, cancel.text);
    assert.equal(cancel.body.tppMessages[0].code, "CANCELLATION_INVALID");
    clock.advance(HOUR - 60_000);
    assert.equal(await bank.app.executeDuePayments(), 0);
    assert.equal(await statusOf(paymentId), "ACSP");
    clock.advance(120_000);
    assert.equal(await bank.app.executeDuePayments(), 1);
    assert.equal(await statusOf(paymentId), "ACCC");
    assert.equal(await bank.app.executeDuePayments(), 0);
    assert.equal(await clearingCredits(paymentId), 1, "settlement booked the payment again");
  });
