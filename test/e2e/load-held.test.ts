/**
 * Load held: the bank's capacity for a mix of TPP requests (create payment, read accounts,
 * payment status, funds confirmation) is measured first; then that mix runs at 80 % of it for
 * LOAD_HELD_SECONDS (default 60) while PSUs authorise payments through their pages alongside.
 * It ends with zero errors, an answer in every second, and the books holding exactly the payments
 * whose PSU steps succeeded.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import autocannon from "autocannon";
import { openStore } from "../../src/store/db.js";
import { assertBooksExact, startBankProcess, type BankProcess } from "../support/bank-process.js";
import { creditAccount } from "../support/cli.js";
import { freshDatabase, type EngineDatabase } from "../support/engines.js";
import {
  ALICE_MAIN, authorisedConsent, BOB_MAIN, confirm, createPayment, OK_URI, paymentBody, reachReview,
} from "../support/flows.js";

const SECONDS = Number(process.env.LOAD_HELD_SECONDS ?? 60);
const CAPACITY_SECONDS = 3;
const CONNECTIONS = 20;
const SHARE = 0.8;

let database: EngineDatabase | undefined;
after(() => database?.remove());

/** The mix, one after another on each connection; creations get a fresh X-Request-ID each. */
function mix(consentId: string, paymentId: string): autocannon.Request[] {
  const fresh = (r: autocannon.Request) => ({ ...r, headers: { ...r.headers, "x-request-id": randomUUID() } });
  const json = { "content-type": "application/json" };
  return [
    { method: "POST", path: "/psd2/v1/payments/sepa-credit-transfers", setupRequest: fresh,
      headers: { ...json, "tpp-redirect-uri": OK_URI }, body: JSON.stringify(paymentBody()) },
    { method: "GET", path: "/psd2/v1/accounts?withBalance=true", setupRequest: fresh,
      headers: { "consent-id": consentId, "psu-ip-address": "192.0.2.1" } },
    { method: "GET", path: `/psd2/v1/payments/sepa-credit-transfers/${paymentId}/status`, setupRequest: fresh },
    { method: "POST", path: "/psd2/v1/funds-confirmations", setupRequest: fresh, headers: json,
      body: JSON.stringify({ account: { iban: ALICE_MAIN }, instructedAmount: { currency: "EUR", amount: "5.00" } }) },
  ];
}

async function run(bank: BankProcess, requests: autocannon.Request[], seconds: number, overallRate?: number) {
  return autocannon({
    url: bank.apiUrl, tlsOptions: bank.tls, connections: CONNECTIONS, duration: seconds, requests, overallRate,
  });
}

/** Answers in the hold's slowest second; autocannon's `min` leaves out seconds without any. */
const slowestSecond = (result: autocannon.Result) => result.requests.p0_001;

/** Bob pays 0.01 again and again through every PSU page step; answers the payments booked. */
async function bobPays(bank: BankProcess, until: number): Promise<{ booked: string[]; failures: string[] }> {
  const booked: string[] = [];
  const failures: string[] = [];
  while (Date.now() < until) {
    try {
      const body = paymentBody({ debtorAccount: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0.01" } });
      const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
      const browser = bank.browser();
      const done = await confirm(browser, await reachReview(browser, scaRedirect, "bob"));
      assert.equal(done.location, OK_URI, done.html);
      booked.push(paymentId);
    } catch (error) {
      failures.push(String(error));
    }
  }
  return { booked, failures };
}

test(`a mixed load at ${100 * SHARE} % of capacity for ${SECONDS} s: no errors, exact books`,
  { timeout: (SECONDS + 90) * 1000 }, async (t) => {
    database = await freshDatabase("sqlite");
    const bank = await startBankProcess(database, { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: "100000" });
    creditAccount(database, BOB_MAIN, "100.00");
    let booked: string[] = [];
    try {
      const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
      const { paymentId } = await createPayment(bank.tpp);
      const requests = mix(consentId, paymentId);
      // Capacity is measured with the PSU pages busy too, as they are while the load is held.
      const [capacity, warmUp] = await Promise.all([
        run(bank, requests, CAPACITY_SECONDS), bobPays(bank, Date.now() + CAPACITY_SECONDS * 1000),
      ]);
      assert.equal(capacity.errors + capacity.non2xx, 0, "errors while measuring capacity");
      const rate = Math.max(1, Math.floor(SHARE * capacity.requests.average));
      const [held, psu] = await Promise.all([
        run(bank, requests, SECONDS, rate), bobPays(bank, Date.now() + SECONDS * 1000),
      ]);
      booked = [...warmUp.booked, ...psu.booked];
      t.diagnostic(`capacity ${Math.round(capacity.requests.average)} requests/s; held ${rate}/s for ${SECONDS} s: `
        + `${held.requests.total} requests (${slowestSecond(held)}/s in its slowest second), p99 `
        + `${held.latency.p99} ms, ${booked.length} payments booked by bob`);
      assert.equal(held.errors, 0, "connection errors");
      assert.equal(held.timeouts, 0, "timeouts");
      assert.equal(held.non2xx, 0, "answers other than 2xx");
      assert.deepEqual([...warmUp.failures, ...psu.failures], [], "PSU steps failed");
      // A bank that stops answering (a blocked event loop, a lock held) shows as a second without
      // answers. Its rate is not asserted: it fell to 0.898 of the 80 % once, when the suite's
      // other files took more of the machine after the capacity was measured.
      assert.ok(slowestSecond(held) > 0, `a second without answers: ${JSON.stringify(held.requests)}`);
    } finally {
      await bank.stop("SIGTERM");
    }
    await assertBooksExact(database);
    const store = await openStore(database);
    try {
      const accepted = await store.db.selectFrom("payments").select("id").where("status", "=", "ACSC").execute();
      assert.deepEqual(accepted.map((p) => p.id).sort(), [...booked].sort(), "booked payments differ from acknowledged ones");
    } finally {
      await store.close();
    }
  });
