/**
 * Status pushed to the TPP: a creation with TPP-Notification-URI gets every change of its
 * transaction, consent and SCA status POSTed to a real HTTPS receiver, signed by the bank, in
 * order, again after the receiver failed; a URI outside the certificate's domains gets nothing.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import {
  checkDigest, checkSignature, parseSignature, signingString,
} from "../../src/tpp/http-signature.js";
import {
  ALICE_MAIN, authorisedConsent, confirm, consentBody, createdStatus, createPayment,
  CREATION_HEADERS, paymentBody, reachReview,
} from "../support/flows.js";
import { startReceiver, type Receiver, type Received } from "../support/notification-receiver.js";
import { createConsents } from "../../src/domain/consent/registration.js";
import type { Deps } from "../../src/domain/deps.js";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";
import { runOperator } from "../support/cli.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let receiver: Receiver;
before(async () => {
  bank = await startBank({
    env: { NOTIFICATION_POLL_MS: "3600000", NOTIFICATION_TIMEOUT_MS: "1500" },
  });
  receiver = await startReceiver(bank.certs);
});
after(async () => {
  await bank.close();
  await receiver.close();
});

const of = (resourceId: string) => receiver.received.filter((r) => r.body.resourceId === resourceId);
const statuses = (rs: Received[]) =>
  rs.map((r) => r.body.transactionStatus ?? r.body.consentStatus ?? `sca:${r.body.scaStatus}`);

async function assertSignedByBank(r: Received) {
  const params = parseSignature(String(r.headers.signature));
  assert.ok(typeof params !== "string", String(params));
  assert.equal(checkDigest(String(r.headers.digest), Buffer.from(r.raw)), null);
  const text = signingString(params, { method: "POST", target: r.target, headers: r.headers });
  assert.ok("text" in text, JSON.stringify(text));
  const serverCert = new X509Certificate(await readFile(bank.certs.serverCert));
  assert.equal(checkSignature(params, text.text, serverCert), null);
  assert.equal(r.clientCertificate, serverCert.raw.toString("base64"));
}

test("a payment's transaction and SCA statuses are pushed, in order and signed", async () => {
  const headers = { "TPP-Notification-URI": receiver.url,
    "TPP-Notification-Content-Preferred": "status=SCA, PROCESS, LAST" };
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, undefined, headers);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(done.status, 200, done.html);
  await bank.app.deliverNotifications();
  const pushed = of(paymentId);
  assert.deepEqual(statuses(pushed).filter((s) => !["ACSC", "ACSP"].includes(s)),
    ["sca:psuIdentified", "sca:psuAuthenticated", "ACTC", "sca:finalised"]);
  for (const r of pushed) {
    assert.equal(r.body.resourceType, "payment");
    assert.ok(r.body.notificationId && r.body.time);
    await assertSignedByBank(r);
  }
  assert.ok(pushed.filter((r) => r.body.scaStatus).every((r) => r.body.authorisationId));
});

test("a signing basket's status and SCA status are pushed as the basket's, its items' as theirs",
  async () => {
    const { paymentId } = await createPayment(bank.tpp);
    const headers = { ...CREATION_HEADERS, "TPP-Notification-URI": receiver.url,
      "TPP-Notification-Content-Preferred": "status=SCA, PROCESS" };
    const res = await bank.tpp.post("/psd2/v1/signing-baskets", { paymentIds: [paymentId] },
      headers);
    assert.equal(res.status, createdStatus(bank.tpp), res.text);
    assert.equal(res.headers["aspsp-notification-support"], "true");
    const browser = bank.browser();
    const scaRedirect = res.body._links.scaRedirect.href ?? res.body._links.scaRedirect;
    await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
    await bank.app.deliverNotifications();
    const pushed = of(res.body.basketId);
    assert.deepEqual(statuses(pushed),
      ["sca:psuIdentified", "sca:psuAuthenticated", "ACTC", "sca:finalised"]);
    assert.ok(pushed.every((r) => r.body.resourceType === "signing-basket"));
    // The payment was created without a subscription: nothing of it is pushed.
    assert.deepEqual(of(paymentId), []);
  });

test("the creation answers ASPSP-Notification-Support and -Content", async () => {
  const path = "/psd2/v1/payments/sepa-credit-transfers";
  const res = await bank.tpp.post(path, paymentBody(), {
    ...CREATION_HEADERS,
    "TPP-Notification-URI": receiver.url, "TPP-Notification-Content-Preferred": "status=PROCESS",
  });
  assert.equal(res.headers["aspsp-notification-support"], "true");
  assert.equal(res.headers["aspsp-notification-content"], "status=PROCESS");
});

test("a consent's statuses are pushed: valid, then terminated by the TPP", async () => {
  const body = consentBody();
  const consentId = await authorisedConsentWith(body);
  const gone = await bank.tpp.call("DELETE", `/psd2/v1/consents/${consentId}`);
  assert.equal(gone.status < 300, true, gone.text);
  await bank.app.deliverNotifications();
  const pushed = statuses(of(consentId)).filter((s) => !s.startsWith("sca:"));
  assert.deepEqual(pushed, ["valid", "terminatedByTpp"]);
  assert.ok(of(consentId).every((r) => r.body.resourceType === "consent"));
});

test("a consent revoked on the PSU's request and one that expired are pushed", async () => {
  const revoked = await authorisedConsentWith(consentBody());
  // The dashboard's revoke and the operator's (on the PSU's request) are the same transition.
  const cli = runOperator(bank.app.config.dataDir, ["consent", "revoke", revoked]);
  assert.equal(cli.status, 0, cli.stderr);
  const today = dateInZone(new Date(), "Europe/Berlin");
  const lapsing = await authorisedConsentWith(consentBody({ validUntil: addDays(today, 1) }));
  const later = manualClock(new Date(Date.now() + 3 * 86_400_000));
  const settings = {
    timeZone: "Europe/Berlin", consentValidityDaysMax: 180, consentAuthorisationMinutes: 30,
  };
  const sweep = createConsents({ store: bank.app.store, clock: later, settings } as unknown as Deps);
  await sweep.sweepConsents();
  await bank.app.deliverNotifications();
  const consentStatuses = (id: string) => statuses(of(id)).filter((s) => !s.startsWith("sca:"));
  assert.deepEqual(consentStatuses(revoked), ["valid", "revokedByPsu"]);
  assert.deepEqual(consentStatuses(lapsing), ["valid"]);
  // The sweep ran three days ahead: its notification is queued for then, behind nothing.
  const queued = await bank.app.store.notifications.list(bank.app.store.db, { limit: 1000 });
  const expiry = queued.filter((n) => n.resourceId === lapsing && !n.deliveredAt);
  assert.deepEqual(expiry.map((n) => JSON.parse(n.body).consentStatus), ["expired"]);
});

async function authorisedConsentWith(body: unknown): Promise<string> {
  const tpp = bank.tpp;
  const post = tpp.post.bind(tpp);
  // authorisedConsent creates the consent itself: the notification headers ride along.
  tpp.post = (path, b, headers = {}) =>
    post(path, b, { ...headers, "TPP-Notification-URI": receiver.url });
  try {
    return await authorisedConsent(tpp, bank.browser(), "alice", [ALICE_MAIN], body);
  } finally {
    tpp.post = post;
  }
}

test("a notification the receiver refused is pushed again after the backoff", async () => {
  receiver.failNext(1);
  const { paymentId } = await createPayment(bank.tpp, undefined,
    { "TPP-Notification-URI": receiver.url });
  const cancelled = await bank.tpp.call("DELETE",
    `/psd2/v1/payments/sepa-credit-transfers/${paymentId}`);
  assert.equal(cancelled.status < 300, true, cancelled.text);
  await bank.app.deliverNotifications();
  assert.deepEqual(of(paymentId), []);
  const all = await bank.app.store.notifications.list(bank.app.store.db, { limit: 100 });
  // Newest first: the cancellation, then its authorisation's failure, which waits behind it.
  const [scaFailed, first] = all.filter((n) => n.resourceId === paymentId);
  assert.equal(first?.attempts, 1);
  assert.match(first?.lastError ?? "", /503/);
  assert.equal(scaFailed?.attempts, 0);
  await new Promise((resolve) => setTimeout(resolve, 5_200));
  await bank.app.deliverNotifications();
  assert.deepEqual(statuses(of(paymentId)), ["CANC", "sca:failed"]);
});

test("an endpoint that hangs holds up no API answer; its push times out and is retried",
  async () => {
    receiver.hold();
    const { paymentId } = await createPayment(bank.tpp, undefined,
      { "TPP-Notification-URI": receiver.url });
    await bank.tpp.call("DELETE", `/psd2/v1/payments/sepa-credit-transfers/${paymentId}`);
    let pushing = true;
    const delivery = bank.app.deliverNotifications().finally(() => { pushing = false; });
    while (of(paymentId).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // The push hangs at the receiver; meanwhile the TPP is answered as ever.
    const next = await createPayment(bank.tpp);
    assert.ok(next.paymentId);
    assert.equal(pushing, true, "the API answer waited for the hanging push");
    await delivery;
    receiver.release();
    const [row] = (await bank.app.store.notifications.list(bank.app.store.db, { limit: 100 }))
      .filter((n) => n.resourceId === paymentId && JSON.parse(n.body).transactionStatus);
    assert.equal(row?.attempts, 1);
    assert.equal(row?.deliveredAt, null);
    assert.equal(row?.lastError, "no answer within 1500 ms");
    assert.equal(row?.failedAt, null, "to be tried again after the backoff");
  });

test("a URI outside the certificate's domains is declined and gets nothing", async () => {
  const path = "/psd2/v1/payments/sepa-credit-transfers";
  const res = await bank.tpp.post(path, paymentBody(), {
    ...CREATION_HEADERS, "TPP-Notification-URI": "https://notify.elsewhere.example/n",
  });
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  assert.equal(res.headers["aspsp-notification-support"], "false");
  assert.equal(res.headers["aspsp-notification-content"], undefined);
  const id = res.body.paymentId as string;
  await bank.tpp.call("DELETE", `/psd2/v1/payments/sepa-credit-transfers/${id}`);
  const rows = await bank.app.store.notifications.list(bank.app.store.db, { limit: 1000 });
  assert.deepEqual(rows.filter((n) => n.resourceId === id), []);
});
