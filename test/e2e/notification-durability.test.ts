/**
 * Pushed statuses survive a crash: the bank process is killed (SIGKILL) while its pushes are at
 * the TPP's endpoint, after the status changes committed and before any answer came back. The
 * restarted bank pushes every one of them again once their claim has lapsed, in order per
 * resource: at least once, never lost. On both engines, in both forms: NextGenPSD2 1.3's (a /v1
 * payment, TPP-Notification-URI) and openFinance PUSH 2.4's (a /v2 payment,
 * Client-Notification-URI; each body checked against the PUSH file).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startBankProcess, type BankProcess } from "../support/bank-process.js";
import { freshDatabase, onEachEngine, type Engine, type EngineDatabase } from "../support/engines.js";
import { createPayment } from "../support/flows.js";
import { startReceiver, type Received, type Receiver } from "../support/notification-receiver.js";
import { pushViolations } from "../support/openfinance.js";
import type { TppClient } from "../support/tpp-client.js";
import { CLIENT, singlePayment } from "../support/v2-bodies.js";

// A held push times out (and is pushed again) only after 15 s: the three payments are created
// and cancelled well within that, also on a loaded machine, so one push each is in flight at the
// crash; the restarted bank takes them up once their claim (the timeout and 1 s) lapsed.
const PUSH_EVERY = { NOTIFICATION_POLL_MS: "100", NOTIFICATION_TIMEOUT_MS: "15000" };
const PAYMENTS = 3;

async function receiverFor(database: EngineDatabase): Promise<Receiver> {
  const dir = join(database.dataDir, "certs");
  return startReceiver({
    dir, caCert: join(dir, "ca.crt"), caKey: join(dir, "ca.key"),
    serverCert: join(dir, "server.crt"), serverKey: join(dir, "server.key"),
    tppCert: join(dir, "tpp.crt"), tppKey: join(dir, "tpp.key"),
  });
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 50) {
    assert.ok(waited < 60_000, `waited 60 s for ${what}`);
    await sleep(50);
  }
}

/** A push form: how a payment subscribing to it is created, and the payment its pushes name. */
interface Form {
  path: string;
  create(tpp: TppClient, uri: string): Promise<string>;
  paymentOf(push: Received): string | undefined;
}

const FORMS: Record<"1.3" | "2.4", Form> = {
  "1.3": {
    path: "/psd2/v1/payments/sepa-credit-transfers",
    create: async (tpp, uri) =>
      (await createPayment(tpp, undefined, { "TPP-Notification-URI": uri })).paymentId,
    paymentOf: (push) => push.body.resourceId,
  },
  "2.4": {
    path: "/psd2/v2/payments/sepa-credit-transfers",
    async create(tpp, uri) {
      const res = await tpp.post(this.path, singlePayment(),
        { ...CLIENT, "Client-Notification-URI": uri });
      assert.equal(res.status, 201, res.text);
      return res.body.paymentId;
    },
    paymentOf(push) {
      assert.deepEqual(pushViolations(push), [], push.raw);
      return push.body.paymentId;
    },
  },
};

/** Cancelled payments, each queueing its CANC and its authorisation's `failed`. */
async function cancelledPayments(bank: BankProcess, uri: string, form: Form): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const paymentId = await form.create(bank.tpp, uri);
    const gone = await bank.tpp.call("DELETE", `${form.path}/${paymentId}`);
    assert.equal(gone.status, 204, gone.text);
    ids.push(paymentId);
  }
  return ids;
}

/** What one test started, stopped after the suite. */
interface Run { database?: EngineDatabase; receiver?: Receiver; bank?: BankProcess }

async function crashAndRestart(engine: Engine, form: Form, run: Run): Promise<void> {
  const database = run.database = await freshDatabase(engine);
  const crashing = await startBankProcess(database, PUSH_EVERY);
  const r = run.receiver = await receiverFor(database);
  r.hold();
  const ids = await cancelledPayments(crashing, r.url, form);
  const arrived = (id: string) => r.received.filter((x) => form.paymentOf(x) === id);
  await until("the first push of each payment", () => ids.every((id) => arrived(id).length > 0));
  await crashing.stop("SIGKILL");
  // One push each: runs that overlap (a slow endpoint) must not push what is in flight.
  assert.deepEqual(ids.map((id) => arrived(id).length), ids.map(() => 1));
  r.release();

  run.bank = await startBankProcess(database, PUSH_EVERY);
  const statusesOf = (id: string) =>
    arrived(id).slice(1).map((x) => x.body.transactionStatus ?? x.body.scaStatus);
  await until("every status after the restart",
    () => ids.every((id) => statusesOf(id).join() === "CANC,failed"));
  for (const id of ids) {
    const [first, again] = arrived(id);
    assert.equal(first?.body.transactionStatus, "CANC");
    // X-Request-ID is the notification's id in both forms (2.4's body has none).
    assert.equal(again?.headers["x-request-id"], first?.headers["x-request-id"],
      "the push in flight at the crash is the first one pushed again");
  }
}

onEachEngine("notifications across SIGKILL", (engine) => {
  const runs: Run[] = [];
  after(async () => {
    for (const { database, receiver, bank } of runs) {
      await bank?.stop("SIGTERM");
      await receiver?.close();
      await database?.remove();
    }
  });

  for (const [name, form] of Object.entries(FORMS)) {
    test(`${name} pushes in flight when the bank is killed are pushed again after the restart,`
      + " in order", { timeout: 120_000 }, async () => {
      const run: Run = {};
      runs.push(run);
      await crashAndRestart(engine, form, run);
    });
  }
});
