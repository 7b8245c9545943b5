/**
 * Crash durability of the real CLI process (`node dist/src/psd2-bank.js start`): a steady stream of
 * payments, bookings and consents, SIGKILL at seeded random moments and restarts on the same data
 * (several times), and then every request that got a success answer is still there, nothing is
 * booked twice or half, and the ledger balances. On both engines.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { prng } from "../../src/ledger/demo-data.js";
import { assertBooksExact, startBankProcess, type BankProcess } from "../support/bank-process.js";
import { freshDatabase, onEachEngine, type EngineDatabase } from "../support/engines.js";
import {
  BOB_MAIN, confirm, consentBody, createConsent, createPayment, OK_URI, paymentBody, reachReview,
  REDIRECTS,
} from "../support/flows.js";

/** What got a success answer before the crash. */
interface Acknowledged { created: string[]; booked: string[]; consents: string[] }

/** Runs `step` until `stop` is set, recording nothing for a step that failed (the crash). */
async function repeat(stop: { now: boolean }, step: () => Promise<void>): Promise<void> {
  while (!stop.now) await step().catch(() => sleep(5));
}

async function stream(bank: BankProcess, stop: { now: boolean }, onBooked: () => void,
): Promise<Acknowledged> {
  const acknowledged: Acknowledged = { created: [], booked: [], consents: [] };
  const small = { currency: "EUR", amount: "0.01" };
  await Promise.all([
    repeat(stop, async () => {
      const body = paymentBody({ instructedAmount: small });
      acknowledged.created.push((await createPayment(bank.tpp, body)).paymentId);
    }),
    repeat(stop, async () => {
      acknowledged.consents.push((await createConsent(bank.tpp, consentBody())).consentId);
    }),
    repeat(stop, async () => {
      const body = paymentBody({ debtorAccount: BOB_MAIN, instructedAmount: small });
      const { paymentId, scaRedirect } = await createPayment(bank.tpp, body);
      const browser = bank.browser();
      const done = await confirm(browser, await reachReview(browser, scaRedirect, "bob"));
      acknowledged.created.push(paymentId);
      if (done.location !== OK_URI) return;
      acknowledged.booked.push(paymentId);
      onBooked();
    }),
  ]);
  return acknowledged;
}

/** The seed of the kill moments: CRASH_SEED to repeat a run, else a new one, printed. */
const CRASH_SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = 4;
const KILLS_MAX = KILLS + 2;

onEachEngine("durability under SIGKILL", (engine) => {
  let database: EngineDatabase;
  after(() => database?.remove());

  test("acknowledged requests survive SIGKILLs at random moments, booked once, books balanced",
    { timeout: 180_000 }, async (t) => {
      t.diagnostic(`CRASH_SEED=${CRASH_SEED} repeats this run`);
      const random = prng(CRASH_SEED);
      database = await freshDatabase(engine);
      const acknowledged: Acknowledged = { created: [], booked: [], consents: [] };
      // On a busy machine a PSU's whole flow can outlast every seeded round: a round past them
      // kills only after its first booking, so the check below always has one to look for.
      const enough = () => acknowledged.booked.length > 0 && acknowledged.consents.length > 0;
      for (let kill = 1; kill <= KILLS || (!enough() && kill <= KILLS_MAX); kill++) {
        const crashing = await startBankProcess(database);
        const stop = { now: false };
        let booked = () => {};
        const firstBooking = new Promise<void>((resolve) => { booked = resolve; });
        const streaming = stream(crashing, stop, () => booked());
        if (kill > KILLS) await firstBooking;
        const delay = 300 + Math.floor(random() * 2200);
        await sleep(delay);
        await crashing.stop("SIGKILL");
        stop.now = true;
        const round = await streaming;
        t.diagnostic(`kill ${kill} after ${delay} ms: ${round.created.length} payments `
          + `(${round.booked.length} booked), ${round.consents.length} consents acknowledged`);
        acknowledged.created.push(...round.created);
        acknowledged.booked.push(...round.booked);
        acknowledged.consents.push(...round.consents);
      }
      const seed = `(CRASH_SEED=${CRASH_SEED})`;
      assert.ok(enough(), `the stream was too short ${seed}`);

      const restarted = await startBankProcess(database);
      try {
        for (const id of acknowledged.created) {
          const status = await restarted.tpp.get(`/psd2/v1/payments/${id}/status`);
          assert.equal(status.status, 200, `payment ${id} lost ${seed}: ${status.text}`);
          if (acknowledged.booked.includes(id)) {
            assert.equal(status.body.transactionStatus, "ACSC", `payment ${id} ${seed}`);
          }
        }
        for (const id of acknowledged.consents) {
          const status = await restarted.tpp.get(`/psd2/v1/consents/${id}/status`);
          assert.equal(status.status, 200, `consent ${id} lost ${seed}`);
        }
        await assertBooksExact(database);
      } finally {
        await restarted.stop("SIGTERM");
      }
    });
});

onEachEngine("graceful shutdown on SIGTERM", (engine) => {
  let database: EngineDatabase;
  after(() => database?.remove());

  // Without closing drained keep-alive connections, the exit waits out their 72 s timeout.
  test("requests in flight at SIGTERM are answered or refused cleanly, and the exit is 0",
    { timeout: 60_000 }, async (t) => {
      database = await freshDatabase(engine);
      const running = await startBankProcess(database);
      const small = paymentBody({ instructedAmount: { currency: "EUR", amount: "0.01" } });
      const calls = Array.from({ length: 30 }, () =>
        running.tpp.post("/psd2/v1/payments/sepa-credit-transfers", small, REDIRECTS)
          .then((res) => res, (error: NodeJS.ErrnoException) => error.code ?? "error"));
      // Once the first answer is out, the rest are in flight on the server or still queued.
      await Promise.race(calls);
      const exitCode = running.stop("SIGTERM");
      const outcomes = await Promise.all(calls);
      assert.equal(await exitCode, 0);
      const answered = outcomes.flatMap((o) => (typeof o === "string" ? [] : [o]));
      for (const res of answered) assert.ok([200, 503].includes(res.status), res.text);
      const failed = outcomes.filter((o): o is string => typeof o === "string");
      t.diagnostic(`${answered.filter((r) => r.status === 200).length} created, `
        + `${answered.filter((r) => r.status === 503).length} refused with 503, `
        + `${failed.length} cut off`);
      const cutOff = ["ECONNRESET", "ECONNREFUSED", "EPIPE"];
      for (const code of failed) assert.ok(cutOff.includes(code), code);
      const restarted = await startBankProcess(database);
      try {
        for (const res of answered.filter((r) => r.status === 200)) {
          const status = await restarted.tpp.get(`/psd2/v1/payments/${res.body.paymentId}/status`);
          assert.equal(status.status, 200, status.text);
        }
      } finally {
        await restarted.stop("SIGTERM");
      }
    });
});
