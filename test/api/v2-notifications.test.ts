/**
 * Client-Notification-URI and Client-Notification-Content-Preferred on /v2 creations, with the
 * rules of 1.3's TPP-Notification-* headers: a /v2 consent's SCA and consent statuses are pushed
 * to a real HTTPS receiver through the same outbox, in 1.3's push form (the PUSH 2.4 bodies are
 * not built), and a /v2 signing basket records its subscription as a /v2 payment does; a URI
 * outside the certificate's domains is declined, a malformed one refused.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ALICE_MAIN, confirm, OK_URI, reachReview } from "../support/flows.js";
import { startReceiver, type Receiver } from "../support/notification-receiver.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { CLIENT, accountAccessConsent, singlePayment } from "../support/v2-bodies.js";

const CONSENTS = "/psd2/v2/consents/account-access";
const consentBody = () => accountAccessConsent();

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

const pushedOf = (resourceId: string) =>
  receiver.received.filter((r) => r.body.resourceId === resourceId).map((r) => r.body);

test("a /v2 consent's SCA and consent statuses are pushed to Client-Notification-URI", async () => {
  const res = await bank.tpp.post(CONSENTS, consentBody(), {
    ...CLIENT, "Client-Notification-URI": receiver.url,
    "Client-Notification-Content-Preferred": "status=SCA, PROCESS",
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-notification-support"], "true");
  assert.equal(res.headers["aspsp-notification-content"], "status=SCA,PROCESS");
  const { consentId } = res.body;
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, res.body._links.scaRedirect.href, "alice"), [ALICE_MAIN]);
  assert.equal(done.location, OK_URI);
  const gone = await bank.tpp.call("DELETE", `${CONSENTS}/${consentId}`);
  assert.equal(gone.status, 204, gone.text);
  await bank.app.deliverNotifications();
  const pushed = pushedOf(consentId);
  assert.ok(pushed.every((body) => body.resourceType === "consent"));
  assert.deepEqual(pushed.filter((body) => body.consentStatus).map((body) => body.consentStatus),
    ["valid", "terminatedByTpp"]);
  assert.ok(pushed.some((body) => body.scaStatus === "finalised"), JSON.stringify(pushed));
});

test("status=PROCESS alone: no SCA statuses; LAST is served as PROCESS", async () => {
  const res = await bank.tpp.post(CONSENTS, consentBody(), {
    ...CLIENT, "Client-Notification-URI": receiver.url,
    "Client-Notification-Content-Preferred": "status=LAST",
  });
  assert.equal(res.headers["aspsp-notification-content"], "status=PROCESS");
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, res.body._links.scaRedirect.href, "alice"), [ALICE_MAIN]);
  await bank.app.deliverNotifications();
  assert.deepEqual(pushedOf(res.body.consentId).map((body) => body.consentStatus ?? body.scaStatus),
    ["valid"]);
});

test("a URI outside the certificate's domains is declined; a malformed one or preference refused", async () => {
  const declined = await bank.tpp.post(CONSENTS, consentBody(), {
    ...CLIENT, "Client-Notification-URI": "https://elsewhere.example/notify",
  });
  assert.equal(declined.status, 201, declined.text);
  assert.equal(declined.headers["aspsp-notification-support"], "false");
  for (const [name, value] of [["Client-Notification-URI", "http://localhost/notify"],
    ["Client-Notification-Content-Preferred", "status=ALL"]] as const) {
    const res = await bank.tpp.post(CONSENTS, consentBody(), {
      ...CLIENT, "Client-Notification-URI": receiver.url, [name]: value,
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body.apiClientMessages.map((m: { code: string; path: string }) => [m.code, m.path]),
      [["FORMAT_ERROR", name]]);
  }
});

test("1.3's TPP-Notification-URI is not a /v2 header: nothing is subscribed with it", async () => {
  const res = await bank.tpp.post(CONSENTS, consentBody(), {
    ...CLIENT, "TPP-Notification-URI": receiver.url,
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-notification-support"], undefined);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, res.body._links.scaRedirect.href, "alice"), [ALICE_MAIN]);
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
