/**
 * Issue 42, SSRF through TPP-Notification-URI: the bank POSTed signed JSON with its client
 * certificate to any port of any host of the certificate's domains (":22", ":0", a trailing dot,
 * its own listeners) and never looked at the address the host resolved to. Now the header names
 * only NOTIFICATION_PORTS, and every resolved address is checked where the push connects.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { networkInterfaces } from "node:os";
import { test } from "node:test";
import { targetRefusal } from "../../src/tpp/notification-targets.js";
import { CREATION_HEADERS, paymentBody } from "../support/flows.js";
import { startReceiver } from "../support/notification-receiver.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

const PATH = "/psd2/v1/payments/sepa-credit-transfers";
const QUIET = { NOTIFICATION_POLL_MS: "3600000", NOTIFICATION_TIMEOUT_MS: "1500" };

const withUri = (bank: TestBank, uri: string) =>
  bank.tpp.post(PATH, paymentBody(), { ...CREATION_HEADERS, "TPP-Notification-URI": uri });

/**
 * Creates and cancels a payment notified at `uri`, pushes, and answers the pushes tried (the
 * next of a resource waits for the first: one) after checking that none was delivered.
 */
async function pushedTo(bank: TestBank, uri: string) {
  const created = await withUri(bank, uri);
  assert.equal(created.headers["aspsp-notification-support"], "true", created.text);
  const id = created.body.paymentId as string;
  await bank.tpp.call("DELETE", `${PATH}/${id}`);
  await bank.app.deliverNotifications();
  const rows = (await bank.app.store.notifications.list(bank.app.store.db, { limit: 1000 }))
    .filter((n) => n.resourceId === id);
  assert.ok(rows.every((row) => row.deliveredAt === null));
  const tried = rows.filter((row) => row.attempts > 0);
  assert.ok(tried.length > 0);
  return tried;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("a notification URI on another port, with a trailing dot or credentials is a 400", async (t) => {
  const bank = await startOwnBank(t, { env: { ...QUIET, NOTIFICATION_LOOPBACK: "false" } });
  for (const uri of ["https://localhost:22/n", "https://localhost:0/n", "https://localhost./n",
    "https://localhost.:443/n", "https://tpp@localhost/n", "http://localhost/n"]) {
    const res = await withUri(bank, uri);
    assert.equal(res.status, 400, `${uri}: ${res.text}`);
    assert.equal(res.body.tppMessages[0].path, "TPP-Notification-URI", res.text);
    assert.match(res.body.tppMessages[0].text, /port 443, without credentials or a trailing dot/);
  }
  const port443 = await withUri(bank, "https://localhost:443/n");
  assert.equal(port443.headers["aspsp-notification-support"], "true", port443.text);
});

test("a host resolving to loopback gets nothing, checked where the push connects", async (t) => {
  const port = await freePort();
  const bank = await startOwnBank(t, { env: { ...QUIET, NOTIFICATION_LOOPBACK: "false",
    NOTIFICATION_PORTS: `443,${port}` } });
  const receiver = await startReceiver(bank.certs, port);
  t.after(() => receiver.close());
  // The header is fine (a certificate domain, an allowed port): only the address is wrong.
  for (const row of await pushedTo(bank, receiver.url)) {
    assert.match(row.lastError ?? "", /^refused: localhost resolves to an address the bank does not push to \((127\.0\.0\.1|::1) is a loopback address\)$/);
  }
  assert.deepEqual(receiver.received, []);
});

test("with NOTIFICATION_LOOPBACK a push still never reaches the bank's own listeners", async (t) => {
  const bank = await startOwnBank(t, { env: QUIET });
  for (const url of [bank.apiUrl, bank.authUrl, bank.adminUrl]) {
    const rows = await pushedTo(bank, `https://localhost:${new URL(url).port}/psd2/v1/consents`);
    for (const row of rows) assert.match(row.lastError ?? "", /is the bank's own listener\)$/, url);
  }
});

test("private, link-local, reserved, mapped and the bank's own addresses are refused", () => {
  const rules = { allowLoopback: false, ownPorts: () => [] };
  const own = Object.values(networkInterfaces()).flatMap((list) => list ?? [])
    .map((entry) => entry.address).filter((address) => !/^(127\.|::1$|fe80:)/i.test(address));
  for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "10.1.2.3",
    "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "255.255.255.255", "::", "fc00::1", "fd12::1", "fe80::1", "::ffff:10.0.0.1",
    "64:ff9b::7f00:1", ...own]) {
    assert.notEqual(targetRefusal(address, 443, rules), null, address);
  }
  for (const address of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "172.32.0.1"]) {
    if (!own.includes(address)) assert.equal(targetRefusal(address, 443, rules), null, address);
  }
  const loopback = { allowLoopback: true, ownPorts: () => [8443] };
  assert.equal(targetRefusal("127.0.0.1", 9000, loopback), null);
  assert.match(targetRefusal("127.0.0.1", 8443, loopback) ?? "", /bank's own listener/);
});
