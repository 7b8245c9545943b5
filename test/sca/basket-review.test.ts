/**
 * A signing basket's review names the account each payment leaves as the PSU's online banking
 * does (issue 36): the product or nickname over the IBAN in groups of four, not the IBAN alone.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, createdStatus, createPayment, CREATION_HEADERS, linkOf, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(() => bank.close());

test("each payment of a basket names the account it leaves, as a bank does", async () => {
  const paymentIds = [];
  for (const amount of ["3.00", "4.00"]) {
    const body = paymentBody({ debtorAccount: { iban: BOB_MAIN }, instructedAmount: { currency: "EUR", amount } });
    paymentIds.push((await createPayment(bank.tpp, body)).paymentId);
  }
  const basket = await bank.tpp.post("/psd2/v1/signing-baskets", { paymentIds }, CREATION_HEADERS);
  assert.equal(basket.status, createdStatus(bank.tpp), basket.text);
  const review = await reachReview(bank.browser(), linkOf(bank.tpp, basket.body._links.scaRedirect), "bob");
  const debtors = [...review.html.matchAll(/<dt>From account<\/dt><dd>(.*?)<\/dd>/g)].map(([, shown]) => shown);
  assert.deepEqual(debtors, Array(2).fill('Girokonto<br><span class="iban">DE51 5001 0000 2000 0000 01</span>'));
});
