/**
 * The operator follows pushed statuses: `notification list` shows what is queued, delivered or
 * failed (by TPP), and `notification retry` gives a notification whose retry period ended a
 * second chance, delivered on the job's next round.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { createPayment } from "../support/flows.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { startReceiver, type Receiver } from "../support/notification-receiver.js";
import { startBank, type TestBank } from "../support/start-app.js";

const clock = manualClock(new Date());
let bank: TestBank;
let receiver: Receiver;
let paymentId = "";

before(async () => {
  bank = await startBank({ clock, env: { NOTIFICATION_POLL_MS: "3600000" } });
  receiver = await startReceiver(bank.certs);
  receiver.failNext(1_000);
  paymentId = (await createPayment(bank.tpp, undefined,
    { "TPP-Notification-URI": receiver.url })).paymentId;
  const cancelled = await bank.tpp.call("DELETE",
    `/psd2/v1/payments/sepa-credit-transfers/${paymentId}`);
  assert.equal(cancelled.status < 300, true, cancelled.text);
  await bank.app.deliverNotifications();
  clock.advance(25 * 3_600_000);
  await bank.app.deliverNotifications();
});
after(async () => {
  await bank.close();
  await receiver.close();
});

const cli = (...args: string[]) => runOperator(bank.app.config.dataDir, args);
interface Row {
  id: string; tppId: string; resourceId: string; failedAt: string | null; deliveredAt: string | null;
}
const rows = (...args: string[]): Row[] => jsonOf(cli("notification", "list", ...args, "--json"));

test("list shows the failed notification, by TPP, and people read a table", () => {
  const failed = rows("--failed");
  assert.deepEqual(failed.map((n) => n.resourceId), [paymentId]);
  assert.ok(failed[0]?.failedAt);
  const tppId = failed[0]?.tppId ?? "";
  assert.equal(rows("--tpp", tppId).length, 2);
  assert.deepEqual(rows("--tpp", "PSDXX-NONE-1"), []);
  const table = cli("notification", "list", "--failed").stdout;
  assert.match(table, /^id\s+tpp\s+resource\s+status\s+created\s+attempts\s+state/);
  assert.match(table, /CANC .*FAILED/);
});

test("retry queues a failed notification again and the next round delivers it", async () => {
  const [failed] = rows("--failed");
  assert.ok(failed);
  assert.equal(jsonOf(cli("notification", "retry", failed.id, "--json")).failedAt, null);
  assertRefused(cli("notification", "retry", failed.id), /has not failed \(it is still queued\)/);
  assertRefused(cli("notification", "retry", "no-such-id"), /no notification no-such-id/);
  receiver.failNext(0);
  await bank.app.deliverNotifications();
  // The SCA change waited behind the cancellation (order per resource) and follows it now.
  assert.deepEqual(receiver.received.map((r) => r.body.transactionStatus ?? r.body.scaStatus),
    ["CANC", "failed"]);
  assert.deepEqual(rows("--failed"), []);
  assertRefused(cli("notification", "retry", failed.id), /has not failed \(delivered at /);
});

test("a mistake gets the usage", () => {
  assertRefused(cli("notification", "resend"), /notification needs one of: list, retry/);
  assertRefused(cli("notification", "list", "--limit", "0"), /--limit must be a whole number/);
});
