import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startBank, type TestBank } from "../support/start-app.js";
import { confirm, createPayment, NOK_URI, OK_URI, cancel, paymentBody, reachReview } from "../support/flows.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

test("a confirmed payment is booked and reads ACSC", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp);
  assert.match(paymentId, /^[0-9a-f]{32}$/);
  assert.equal((await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body.transactionStatus, "RCVD");
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "alice");
  assert.match(review.html, /€12\.50/);
  const done = await confirm(browser, review);
  assert.equal(done.status, 200);
  assert.equal(done.location, OK_URI);
  const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
  assert.deepEqual(status.body, { transactionStatus: "ACSC" });
  const details = await bank.tpp.get(`/psd2/v1/payments/${paymentId}`);
  assert.equal(details.body.instructedAmount.amount, "12.50");
  assert.equal(details.body.transactionStatus, "ACSC");
});

test("a payment cancelled on the review page reads CANC", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, paymentBody({ debtorAccount: "DE51500100002000000001" }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "bob");
  const done = await cancel(browser, review);
  assert.equal(done.location, NOK_URI);
  assert.equal((await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body.transactionStatus, "CANC");
});
