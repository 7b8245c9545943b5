/**
 * No reader ever sees a status the payment will lose: while the PSU confirms payments of which
 * the core refuses most (too little money, single and bulk, batch and one by one), a TPP polls
 * every status over the API. Each status it reads is RCVD, ACTC or the one the payment ends in;
 * in particular never ACSC for a payment that ends RJCT.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { availableBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import {
  BOB_MAIN, confirm, createdStatus, createPayment, CREATION_HEADERS, EXTERNAL_IBAN, linkOf,
  OK_URI, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SINGLES = 16;
const AFFORDABLE = 4;
const BULK = "/psd2/v1/bulk-payments/sepa-credit-transfers";
const ROUNDS_AFTER = 5;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

interface Polled { id: string; statusPath: string; seen: Set<string> }

async function bulkOf(each: bigint, batch: boolean): Promise<{ id: string; scaRedirect: string }> {
  const entry = (amount: bigint) => ({
    creditorAccount: { iban: EXTERNAL_IBAN }, creditorName: "Supplier AG",
    instructedAmount: { currency: "EUR", amount: formatAmount(amount, "EUR") },
  });
  const body = {
    debtorAccount: { iban: BOB_MAIN }, batchBookingPreferred: batch,
    payments: [entry(each), entry(each * 100n)],
  };
  const created = await bank.tpp.post(BULK, body, CREATION_HEADERS);
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const scaRedirect = linkOf(bank.tpp, created.body._links.scaRedirect);
  return { id: created.body.paymentId, scaRedirect };
}

/** Payments of Bob's with money for `AFFORDABLE` singles, and two bulks, at the review. */
async function paymentsAtReview(each: bigint) {
  const body = paymentBody({
    debtorAccount: BOB_MAIN,
    instructedAmount: { currency: "EUR", amount: formatAmount(each, "EUR") },
  });
  const created = [];
  for (let i = 0; i < SINGLES; i += 1) {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
    const statusPath = `/psd2/v1/payments/sepa-credit-transfers/${paymentId}/status`;
    created.push({ id: paymentId, statusPath, scaRedirect });
  }
  for (const batch of [true, false]) {
    const { id, scaRedirect } = await bulkOf(each, batch);
    created.push({ id, statusPath: `${BULK}/${id}/status`, scaRedirect });
  }
  const reviews = [];
  for (const p of created) {
    const browser = bank.browser();
    reviews.push({ ...p, browser, review: await reachReview(browser, p.scaRedirect, "bob") });
  }
  return reviews;
}

/** Polls every status until `done`, then a few rounds more: the TPP reads on after the redirect. */
async function pollUntil(polled: readonly Polled[], done: () => boolean): Promise<number> {
  let rounds = 0;
  for (let after = 0; after < ROUNDS_AFTER; after += done() ? 1 : 0) {
    await Promise.all(polled.map(async (p) => {
      const res = await bank.tpp.get(p.statusPath);
      assert.equal(res.status, 200, res.text);
      p.seen.add(res.body.transactionStatus);
    }));
    rounds += 1;
  }
  return rounds;
}

test("polling while bookings are refused never reads a status the payment then loses", async () => {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, BOB_MAIN);
  assert.ok(account);
  const each = availableBalance(account) / BigInt(AFFORDABLE);
  const reviews = await paymentsAtReview(each);
  const polled: Polled[] = reviews.map((r) => ({ ...r, seen: new Set<string>() }));
  let confirmed = false;
  const polling = pollUntil(polled, () => confirmed);
  const answers = await Promise.all(reviews.map((r) => confirm(r.browser, r.review)));
  confirmed = true;
  assert.ok(await polling >= ROUNDS_AFTER);
  for (const answer of answers) assert.equal(answer.location, OK_URI);
  const finals = [];
  for (const p of polled) {
    const res = await bank.tpp.get(p.statusPath);
    const final: string = res.body.transactionStatus;
    finals.push(final);
    const lost = [...p.seen].filter((s) => s !== "RCVD" && s !== "ACTC" && s !== final);
    assert.deepEqual(lost, [], `${p.id} ended ${final} after reading ${[...p.seen].join(",")}`);
  }
  assert.ok(finals.includes("RJCT") && finals.includes("ACSC"), finals.join(","));
});
