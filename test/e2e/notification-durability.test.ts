/**
 * Pushed statuses survive a crash: the bank process is killed (SIGKILL) while its pushes are at
 * the TPP's endpoint, after the status changes committed and before any answer came back. The
 * restarted bank pushes every one of them again once their claim has lapsed, in order per
 * resource: at least once, never lost. On both engines.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startBankProcess, type BankProcess } from "../support/bank-process.js";
import { freshDatabase, onEachEngine, type EngineDatabase } from "../support/engines.js";
import { createPayment } from "../support/flows.js";
import { startReceiver, type Receiver } from "../support/notification-receiver.js";

const PUSH_EVERY = { NOTIFICATION_POLL_MS: "100" };
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
    assert.ok(waited < 30_000, `waited 30 s for ${what}`);
    await sleep(50);
  }
}

/** Cancelled payments, each queueing its CANC and its authorisation's `failed`. */
async function cancelledPayments(bank: BankProcess, uri: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const { paymentId } = await createPayment(bank.tpp, undefined, { "TPP-Notification-URI": uri });
    const gone = await bank.tpp.call("DELETE", `/psd2/v1/payments/sepa-credit-transfers/${paymentId}`);
    assert.equal(gone.status, 204, gone.text);
    ids.push(paymentId);
  }
  return ids;
}

onEachEngine("notifications across SIGKILL", (engine) => {
  let database: EngineDatabase | undefined;
  let receiver: Receiver | undefined;
  let bank: BankProcess | undefined;
  after(async () => {
    await bank?.stop("SIGTERM");
    await receiver?.close();
    await database?.remove();
  });

  test("pushes in flight when the bank is killed are pushed again after the restart, in order",
    { timeout: 120_000 }, async () => {
      database = await freshDatabase(engine);
      const crashing = await startBankProcess(database, PUSH_EVERY);
      receiver = await receiverFor(database);
      const r = receiver;
      r.hold();
      const ids = await cancelledPayments(crashing, r.url);
      const arrived = (id: string) => r.received.filter((x) => x.body.resourceId === id);
      await until("the first push of each payment", () => ids.every((id) => arrived(id).length > 0));
      await crashing.stop("SIGKILL");
      // One push each: runs that overlap (a slow endpoint) must not push what is in flight.
      assert.deepEqual(ids.map((id) => arrived(id).length), ids.map(() => 1));
      r.release();

      bank = await startBankProcess(database, PUSH_EVERY);
      const statusesOf = (id: string) =>
        arrived(id).slice(1).map((x) => x.body.transactionStatus ?? x.body.scaStatus);
      await until("every status after the restart",
        () => ids.every((id) => statusesOf(id).join() === "CANC,failed"));
      for (const id of ids) {
        const [first, again] = arrived(id);
        assert.equal(first?.body.transactionStatus, "CANC");
        assert.equal(again?.body.notificationId, first?.body.notificationId,
          "the push in flight at the crash is the first one pushed again");
      }
    });
});
