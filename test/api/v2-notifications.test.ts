/**
 * Client-Notification-URI and Client-Notification-Content-Preferred on /v2 creations, with the
 * rules of 1.3's TPP-Notification-* headers: the statuses of /v2 payments (single, periodic,
 * bulk, a cancellation's authorisation) and consents (account-access, funds-confirmations) and
 * their SCA statuses are pushed to a real mTLS receiver through the same outbox, in the PUSH 2.4
 * file's form (every body and its headers checked against it with Ajv), full or, for LAST, lean;
 * a /v2 signing basket's too; a URI outside the certificate's domains is declined, a malformed one
 * refused.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { X509Certificate } from "node:crypto";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import { ALICE_MAIN, BOB_MAIN, confirm, OK_URI, reachReview } from "../support/flows.js";
import { startReceiver, type Receiver } from "../support/notification-receiver.js";
import { pushViolations } from "../support/openfinance.js";
import { startBank, type TestBank } from "../support/start-app.js";
import {
  accountAccessConsent, bulkPayment, CLIENT, fundsConsent, periodicPayment, singlePayment,
} from "../support/v2-bodies.js";

const V2 = "/psd2/v2";
const CONSENTS = `${V2}/consents/account-access`;
const FUNDS_CONSENTS = `${V2}/consents/funds-confirmations`;
const PAYMENTS = `${V2}/payments/sepa-credit-transfers`;
const PERIODIC = `${V2}/periodic-payments/sepa-credit-transfers`;
const BULK = `${V2}/bulk-payments/sepa-credit-transfers`;

let bank: TestBank;
let receiver: Receiver;
before(async () => {
  bank = await startBank({ env: { NOTIFICATION_POLL_MS: "3600000", NOTIFICATION_TIMEOUT_MS: "1500" } });
  receiver = await startReceiver(bank.certs);
});
after(async () => {
  await bank.close();
  await receiver.close();
});

const notify = (preferred = "status=SCA, PROCESS") => ({
  ...CLIENT, "Client-Notification-URI": receiver.url,
  "Client-Notification-Content-Preferred": preferred,
});

/** The 2.4 bodies pushed of a resource, in order, each checked against the PUSH file. */
function pushedOf(id: string) {
  const pushes = receiver.received.filter((r) => [r.body.consentId, r.body.paymentId, r.body.basketId].includes(id));
  for (const push of pushes) assert.deepEqual(pushViolations(push), [], push.raw);
  return pushes.map((push) => push.body);
}

const statuses = (id: string, field: "transactionStatus" | "consentStatus") =>
  pushedOf(id).flatMap((body) => body[field] ? [body[field]] : []);

async function authorise(scaRedirect: string, login: string, accounts: string[] = []) {
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, login), accounts);
  assert.equal(done.location, OK_URI, done.html);
}

async function created(path: string, body: unknown, headers = notify()) {
  const res = await bank.tpp.post(path, body, headers);
  assert.equal(res.status, 201, res.text);
  return res;
}

test("a /v2 consent's SCA and consent statuses are pushed in PUSH 2.4's form, over mTLS", async () => {
  const res = await created(CONSENTS, accountAccessConsent());
  assert.equal(res.headers["aspsp-notification-support"], "true");
  assert.equal(res.headers["aspsp-notification-content"], "status=SCA,PROCESS");
  const { consentId } = res.body;
  await authorise(res.body._links.scaRedirect.href, "alice", [ALICE_MAIN]);
  const gone = await bank.tpp.call("DELETE", `${CONSENTS}/${consentId}`);
  assert.equal(gone.status, 204, gone.text);
  await bank.app.deliverNotifications();
  const [authorisationId] = (await bank.tpp.get(`${CONSENTS}/${consentId}/authorisations`))
    .body.authorisationIds;
  const pushed = pushedOf(consentId);
  assert.deepEqual(pushed.filter((body) => body.consentStatus),
    [{ consentId, consentStatus: "valid" }, { consentId, consentStatus: "terminatedByTpp" }]);
  assert.deepEqual(pushed.find((body) => body.scaStatus === "finalised"),
    { consentId, authorisationId, scaStatus: "finalised" });
  const push = receiver.received.find((r) => r.body.consentId === consentId)!;
  const bankCert = new X509Certificate(await readFile(bank.certs.serverCert));
  assert.equal(push.clientCertificate, bankCert.raw.toString("base64"));
});

test("a funds-confirmation consent's statuses are pushed in 2.4's form", async () => {
  const res = await created(FUNDS_CONSENTS, fundsConsent());
  await authorise(res.body._links.scaRedirect.href, "bob", [BOB_MAIN]);
  await bank.app.deliverNotifications();
  assert.deepEqual(statuses(res.body.consentId, "consentStatus"), ["valid"]);
});

test("single and bulk payments: each transaction status pushed in order, with the payment's id",
  async () => {
    for (const [path, body] of [[PAYMENTS, singlePayment()], [BULK, bulkPayment()]] as const) {
      const res = await created(path, body);
      await authorise(res.body._links.scaRedirect.href, "bob");
      await bank.app.deliverNotifications();
      const { paymentId } = res.body;
      assert.equal(statuses(paymentId, "transactionStatus").at(-1), "ACSC");
      assert.ok(pushedOf(paymentId).some((b) => b.scaStatus === "finalised" && b.authorisationId));
    }
  });

test("a periodic payment's cancellation: its authorisation's SCA statuses name cancellationId",
  async () => {
    const startDate = addDays(dateInZone(new Date(), bank.app.config.timeZone), 1);
    const res = await created(PERIODIC, periodicPayment(startDate));
    const { paymentId } = res.body;
    await authorise(res.body._links.scaRedirect.href, "bob");
    const cancelled = await bank.tpp.call("DELETE", `${PERIODIC}/${paymentId}`);
    assert.equal(cancelled.status, 202, cancelled.text);
    await authorise(cancelled.body._links.scaRedirect.href, "bob");
    await bank.app.deliverNotifications();
    const [cancellationId] = (await bank.tpp.get(
      `${PERIODIC}/${paymentId}/cancellation-authorisations`)).body.authorisationIds;
    const pushed = pushedOf(paymentId);
    assert.deepEqual(pushed.filter((body) => body.cancellationId).at(-1),
      { paymentId, cancellationId, scaStatus: "finalised" });
    assert.deepEqual(statuses(paymentId, "transactionStatus").slice(-2), ["ACTC", "CANC"]);
  });

test("status=LAST: lean pushes, each naming where to read the last status; no SCA statuses",
  async () => {
    const res = await created(PAYMENTS, singlePayment(), notify("status=LAST"));
    assert.equal(res.headers["aspsp-notification-content"], "status=LAST");
    const { paymentId } = res.body;
    await authorise(res.body._links.scaRedirect.href, "bob");
    await bank.app.deliverNotifications();
    const pushed = pushedOf(paymentId);
    assert.ok(pushed.length > 0);
    const href = `${PAYMENTS}/${paymentId}/status`;
    assert.equal(href, res.body._links.status.href);
    for (const body of pushed) assert.deepEqual(body, { paymentId, _links: { status: { href } } });
    assert.equal((await bank.tpp.get(href)).body.transactionStatus, "ACSC");
  });

test("status=PROCESS alone: no SCA statuses; LAST beside PROCESS is served as PROCESS", async () => {
  const res = await created(CONSENTS, accountAccessConsent(), notify("status=PROCESS, LAST"));
  assert.equal(res.headers["aspsp-notification-content"], "status=PROCESS");
  await authorise(res.body._links.scaRedirect.href, "alice", [ALICE_MAIN]);
  await bank.app.deliverNotifications();
  assert.deepEqual(pushedOf(res.body.consentId), [{ consentId: res.body.consentId, consentStatus: "valid" }]);
});

test("a URI outside the certificate's domains is declined; a malformed one or preference refused", async () => {
  const declined = await bank.tpp.post(CONSENTS, accountAccessConsent(), {
    ...CLIENT, "Client-Notification-URI": "https://elsewhere.example/notify",
  });
  assert.equal(declined.status, 201, declined.text);
  assert.equal(declined.headers["aspsp-notification-support"], "false");
  for (const [name, value] of [["Client-Notification-URI", "http://localhost/notify"],
    ["Client-Notification-Content-Preferred", "status=ALL"]] as const) {
    const res = await bank.tpp.post(CONSENTS, accountAccessConsent(), {
      ...CLIENT, "Client-Notification-URI": receiver.url, [name]: value,
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body.apiClientMessages.map((m: { code: string; path: string }) => [m.code, m.path]),
      [["FORMAT_ERROR", name]]);
  }
});

test("1.3's TPP-Notification-URI is not a /v2 header: nothing is subscribed with it", async () => {
  const res = await bank.tpp.post(CONSENTS, accountAccessConsent(), {
    ...CLIENT, "TPP-Notification-URI": receiver.url,
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-notification-support"], undefined);
  await authorise(res.body._links.scaRedirect.href, "alice", [ALICE_MAIN]);
  await bank.app.deliverNotifications();
  assert.deepEqual(pushedOf(res.body.consentId), []);
});

test("a /v2 basket subscribes as a /v2 payment does: its statuses are pushed to Client-Notification-URI",
  async () => {
    const payment = await bank.tpp.post("/psd2/v2/payments/sepa-credit-transfers", singlePayment(), CLIENT);
    assert.equal(payment.status, 201, payment.text);
    const res = await bank.tpp.post("/psd2/v2/signing-baskets", { paymentIds: [payment.body.paymentId] }, {
      ...CLIENT, "Client-Notification-URI": receiver.url, "Client-Notification-Content-Preferred": "status=SCA,PROCESS",
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers["aspsp-notification-support"], "true");
    assert.equal(res.headers["aspsp-notification-content"], "status=SCA,PROCESS");
    const { basketId } = res.body;
    const [subscription] = await bank.app.store.db.selectFrom("notification_subscriptions").selectAll()
      .where("resource_id", "=", basketId).execute();
    assert.equal(subscription?.resource_type, "signing-basket");
    const browser = bank.browser();
    assert.equal((await confirm(browser, await reachReview(browser, res.body._links.scaRedirect.href, "bob"))).location, OK_URI);
    await bank.app.deliverNotifications();
    const pushed = pushedOf(basketId);
    assert.deepEqual(pushed.filter((body) => body.transactionStatus).map((body) => body.transactionStatus), ["ACTC"]);
    assert.ok(pushed.some((body) => body.scaStatus === "finalised"), JSON.stringify(pushed));
    // A URI outside the certificate's domains is declined, as for a payment.
    const other = await bank.tpp.post("/psd2/v2/payments/sepa-credit-transfers", singlePayment(), CLIENT);
    const declined = await bank.tpp.post("/psd2/v2/signing-baskets", { paymentIds: [other.body.paymentId] }, {
      ...CLIENT, "Client-Notification-URI": "https://elsewhere.example/notify",
    });
    assert.equal(declined.status, 201, declined.text);
    assert.equal(declined.headers["aspsp-notification-support"], "false");
  });

test("the checker refuses 1.3's form and a push without X-Request-ID", () => {
  const v13 = { notificationId: "n", resourceType: "payment", resourceId: "p",
    transactionStatus: "ACSC", time: "2026-11-27T10:00:00Z" };
  assert.deepEqual(pushViolations({ headers: { "x-request-id": crypto.randomUUID() }, body: v13 }),
    ["push: notificationId is no attribute of pushResourceStatus",
      "push: resourceType is no attribute of pushResourceStatus",
      "push: resourceId is no attribute of pushResourceStatus",
      "push: time is no attribute of pushResourceStatus"]);
  const missing = pushViolations({ headers: {}, body: { paymentId: "p", transactionStatus: "DONE" } });
  assert.equal(missing.length, 2, missing.join("\n"));
  assert.match(missing.join("\n"), /X-Request-ID is required/);
});
