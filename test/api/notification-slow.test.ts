/**
 * Issue 42: one slow notification receiver stopped pushes to every TPP: an endpoint that trickles
 * one header byte at a time never hit the idle timeout, and the delivery round waited for it. Now
 * a push is bounded in all (NOTIFICATION_TIMEOUT_MS), pushes run in parallel with at most
 * NOTIFICATION_PUSHES_PER_TPP per TPP, and what falls due meanwhile is pushed at once.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { createServer, type TLSSocket } from "node:tls";
import type { DevCertificatePaths } from "../../src/tpp/dev-ca.js";
import { CREATION_HEADERS, paymentBody } from "../support/flows.js";
import { startReceiver } from "../support/notification-receiver.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const PATH = "/psd2/v1/payments/sepa-credit-transfers";
const TIMEOUT_MS = 3_000;

/** A real HTTPS endpoint that answers one byte of its status line every 200 ms, forever. */
async function tricklingReceiver(certs: DevCertificatePaths) {
  const [key, cert, ca] = await Promise.all(
    [certs.serverKey, certs.serverCert, certs.caCert].map((file) => readFile(file)));
  const sockets: TLSSocket[] = [];
  const closed: number[] = [];
  const server = createServer({ key, cert, ca, requestCert: true }, (socket) => {
    sockets.push(socket);
    const opened = performance.now();
    const line = "HTTP/1.1 200 OK\r\nX-Slow: ";
    let sent = 0;
    const trickle = setInterval(() => socket.write(line[sent++ % line.length] ?? "x"), 200);
    socket.on("data", () => undefined).on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(trickle);
      closed.push(performance.now() - opened);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/slow`,
    sockets, closed,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function notifiedPayment(tpp: TppClient, uri: string): Promise<string> {
  const created = await tpp.post(PATH, paymentBody(), { ...CREATION_HEADERS, "TPP-Notification-URI": uri });
  assert.equal(created.headers["aspsp-notification-support"], "true", created.text);
  const id = created.body.paymentId as string;
  await tpp.call("DELETE", `${PATH}/${id}`);
  return id;
}

async function until(condition: () => boolean, what: string, ms: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    assert.ok(performance.now() - started < ms, `${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

test("a receiver trickling bytes holds neither another TPP's notification nor its own push beyond the deadline", async (t) => {
  const bank: TestBank = await startOwnBank(t, { env: {
    NOTIFICATION_POLL_MS: "100", NOTIFICATION_TIMEOUT_MS: String(TIMEOUT_MS) } });
  const slow = await tricklingReceiver(bank.certs);
  const fast = await startReceiver(bank.certs);
  t.after(async () => {
    slow.close();
    await fast.close();
  });
  const other = await bank.tppWith({});
  // The slow TPP has more notifications due than its share of the pushes.
  for (let i = 0; i < 4; i += 1) await notifiedPayment(bank.tpp, slow.url);
  await until(() => slow.sockets.length > 0, "the first slow push", 5_000);

  const paymentId = await notifiedPayment(other, fast.url);
  const waited = await until(() => fast.received.some((r) => r.body.resourceId === paymentId),
    "the other TPP's notification", TIMEOUT_MS - 500);
  t.diagnostic(`the other TPP's notification came ${waited.toFixed(0)} ms after its creation`);
  assert.ok(slow.sockets.length <= 2, `${slow.sockets.length} pushes to the slow TPP at once`);
  assert.equal(slow.closed.length, 0, "the slow pushes were still trickling");

  await until(() => slow.closed.length > 0, "the slow push's end", TIMEOUT_MS + 2_000);
  assert.ok(slow.closed.every((ms) => ms < TIMEOUT_MS + 1_000), slow.closed.join(", "));
  const rows = await bank.app.store.notifications.list(bank.app.store.db, { limit: 100 });
  assert.ok(rows.some((row) => row.lastError === `no answer within ${TIMEOUT_MS} ms`));
});
