/**
 * Crash durability of the real CLI process (`node dist/src/main.js start`): a steady stream of
 * payments, bookings and consents, SIGKILL mid-stream, a restart on the same data, and then every
 * request that got a success answer is still there, nothing is booked twice or half, and the
 * ledger balances. On both engines.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { bookedBalance } from "../../src/ledger/book.js";
import { openStore } from "../../src/store/db.js";
import { BrowserClient } from "../support/browser.js";
import { freshDatabase, onEachEngine, type EngineDatabase } from "../support/engines.js";
import {
  BOB_MAIN, confirm, consentBody, createConsent, createPayment, OK_URI, paymentBody, reachReview,
  REDIRECTS,
} from "../support/flows.js";
import { TppClient } from "../support/tpp-client.js";

const MAIN = fileURLToPath(new URL("../../src/main.js", import.meta.url));

interface Running {
  tpp: TppClient;
  browser: () => BrowserClient;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts the CLI on `database` with ports chosen by the OS; resolves once the banner is out. */
async function startCli(database: EngineDatabase): Promise<Running> {
  const child = spawn(process.execPath, [MAIN, "start"], {
    env: {
      ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl,
      API_PORT: "0", AUTH_PORT: "0", ADMIN_PORT: "0", LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/PSU pages\s+\S+/.test(output)) resolve(output);
    });
    child.on("exit", (code) => reject(new Error(`the bank exited with ${code}: ${output}`)));
  });
  const apiUrl = /TPP API\s+(https:\/\/\S+?)\/psd2\/v1/.exec(banner)?.[1];
  const authUrl = /PSU pages\s+(https:\/\/\S+)/.exec(banner)?.[1];
  assert.ok(apiUrl && authUrl, banner);
  const certs = join(database.dataDir, "certs");
  const [ca, cert, key] = await Promise.all(
    ["ca.crt", "tpp.crt", "tpp.key"].map((name) => readFile(join(certs, name))));
  assert.ok(ca && cert && key);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    stop(signal) {
      child.kill(signal);
      return exited;
    },
    tpp: new TppClient(apiUrl, { ca, cert, key }),
    browser: () => new BrowserClient(authUrl, ca),
  };
}

/** What got a success answer before the crash. */
interface Acknowledged { created: string[]; booked: string[]; consents: string[] }

/** Runs `step` until `stop` is set, recording nothing for a step that failed (the crash). */
async function repeat(stop: { now: boolean }, step: () => Promise<void>): Promise<void> {
  while (!stop.now) await step().catch(() => sleep(5));
}

async function stream(bank: Running, stop: { now: boolean }): Promise<Acknowledged> {
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
      if (done.location === OK_URI) acknowledged.booked.push(paymentId);
    }),
  ]);
  return acknowledged;
}

onEachEngine("durability under SIGKILL", (engine) => {
  let database: EngineDatabase;
  after(() => database?.remove());

  test("every acknowledged request survives a SIGKILL mid-stream, booked once, books balanced",
    async (t) => {
      database = await freshDatabase(engine);
      const crashing = await startCli(database);
      const stop = { now: false };
      const streaming = stream(crashing, stop);
      await sleep(2500);
      await crashing.stop("SIGKILL");
      stop.now = true;
      const acknowledged = await streaming;
      const { created, booked, consents } = acknowledged;
      t.diagnostic(`acknowledged before the kill: ${created.length} payments `
        + `(${booked.length} booked), `
        + `${consents.length} consents`);
      assert.ok(booked.length > 0 && consents.length > 0, "the stream was too short");

      const restarted = await startCli(database);
      try {
        for (const id of acknowledged.created) {
          const status = await restarted.tpp.get(`/psd2/v1/payments/${id}/status`);
          assert.equal(status.status, 200, `payment ${id} lost: ${status.text}`);
          if (acknowledged.booked.includes(id)) assert.equal(status.body.transactionStatus, "ACSC");
        }
        for (const id of acknowledged.consents) {
          const status = await restarted.tpp.get(`/psd2/v1/consents/${id}/status`);
          assert.equal(status.status, 200, `consent ${id} lost`);
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
      const running = await startCli(database);
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
      const restarted = await startCli(database);
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

/** One transfer per accepted payment, none for any other; each account's counters are its entries. */
async function assertBooksExact(database: EngineDatabase): Promise<void> {
  const store = await openStore(database);
  try {
    const { db, ledger } = store;
    const transfers = await db.selectFrom("transfers").select(["payment_id"])
      .where("payment_id", "is not", null).execute();
    const accepted = await db.selectFrom("payments").select("id").where("status", "=", "ACSC")
      .execute();
    assert.deepEqual(transfers.map((t) => t.payment_id).sort(), accepted.map((p) => p.id).sort());
    let total = 0n;
    for (const account of await ledger.allAccounts(db)) {
      assert.equal(await ledger.sumOfEntries(db, account.id), bookedBalance(account), account.id);
      total += bookedBalance(account);
    }
    assert.equal(total, 0n, "debits and credits differ");
  } finally {
    await store.close();
  }
}
