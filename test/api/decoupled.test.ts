/**
 * The decoupled SCA approach as a TPP's automated test drives it: it names the PSU, polls the
 * authorisation's scaStatus, and has the PSU's app act through the sandbox's
 * /sandbox/app/{login}/approve and /reject (the real app in a browser: test/e2e/app.test.ts).
 * Rerun under berlin-group by its .berlin-group file.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, consentBody, createdStatus, ibanOf, linkOf, paymentBody,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const DECOUPLED = { "PSU-IP-Address": "192.0.2.1", "TPP-Decoupled-Preferred": "true" };
const APPROACHES = { SCA_APPROACHES: "redirect,embedded,decoupled" };

let bank: TestBank;
before(async () => { bank = await startBank({ env: APPROACHES }); });
after(async () => { await bank.close(); });

async function decoupledStart(target: TestBank, path: string, body: object, psuId?: string) {
  const headers = psuId ? { ...DECOUPLED, "PSU-ID": psuId } : DECOUPLED;
  const res = await target.tpp.post(path, body, headers);
  assert.equal(res.status, createdStatus(target.tpp), res.text);
  if (target.tpp.profile === "berlin-group") {
    assert.equal(res.headers["aspsp-sca-approach"], "DECOUPLED");
  }
  return res.body;
}

/** What the PSU's app did, as the sandbox answers it (JSON). */
async function app(target: TestBank, login: string, action: "approve" | "reject") {
  const answer = await target.browser().post(`/sandbox/app/${login}/${action}`, {});
  return { status: answer.status, body: JSON.parse(answer.html || "{}") };
}

const scaStatusOf = async (target: TestBank, body: any) =>
  (await target.tpp.get(linkOf(target.tpp, body._links.scaStatus))).body.scaStatus as string;

test("bob approves a payment in his app: received, then finalised, and it is booked", async () => {
  const body = await decoupledStart(bank, SCT, paymentBody({ debtorAccount: BOB_MAIN }), "bob");
  assert.match(body.psuMessage, /app/);
  assert.equal(await scaStatusOf(bank, body), "received");
  const acted = await app(bank, "bob", "approve");
  assert.equal(acted.status, 200, JSON.stringify(acted.body));
  assert.deepEqual([acted.body.resourceId, acted.body.scaStatus], [body.paymentId, "finalised"]);
  assert.equal(await scaStatusOf(bank, body), "finalised");
  const status = await bank.tpp.get(`${SCT}/${body.paymentId}/status`);
  assert.equal(status.body.transactionStatus, "ACSC");
  assert.equal((await app(bank, "bob", "approve")).status, 404);
});

test("bob rejects a consent in his app: failed, and the consent is rejected", async () => {
  const access = { accounts: [BOB_MAIN], balances: [], transactions: [] };
  const body = await decoupledStart(bank, "/psd2/v1/consents", consentBody({ access }), "bob");
  const acted = await app(bank, "bob", "reject");
  assert.equal(acted.body.scaStatus, "failed");
  assert.equal(await scaStatusOf(bank, body), "failed");
  const status = await bank.tpp.get(`/psd2/v1/consents/${body.consentId}/status`);
  assert.equal(status.body.consentStatus, "rejected");
});

test("a payment rejected in the app is RJCT; the oldest request goes first", async () => {
  const first = await decoupledStart(bank, SCT, paymentBody({ debtorAccount: BOB_MAIN }), "bob");
  const second = await decoupledStart(bank, SCT, paymentBody({ debtorAccount: BOB_MAIN }), "bob");
  assert.equal((await app(bank, "bob", "reject")).body.resourceId, first.paymentId);
  assert.equal((await bank.tpp.get(`${SCT}/${first.paymentId}/status`)).body.transactionStatus,
    "RJCT");
  // The app has shown it to bob (the sandbox's app looks at every waiting request).
  assert.equal(await scaStatusOf(bank, second), "psuIdentified");
  assert.equal((await app(bank, "bob", "approve")).body.resourceId, second.paymentId);
});

test("without PSU-ID the TPP names the PSU first; then the app sees the request", async () => {
  const body = await decoupledStart(bank, SCT, paymentBody({ debtorAccount: BOB_MAIN }));
  const identify = linkOf(bank.tpp, body._links.updatePsuIdentification);
  const none = await bank.tpp.call("PUT", identify, { body: {} });
  assert.equal(none.status, 400, none.text);
  assert.equal((await app(bank, "bob", "approve")).status, 404);
  const named = await bank.tpp.call("PUT", identify, { body: {}, headers: { "PSU-ID": "bob" } });
  assert.equal(named.status, 200, named.text);
  assert.match(named.body.psuMessage, /app/);
  const again = await bank.tpp.call("PUT", identify, { body: {}, headers: { "PSU-ID": "alice" } });
  assert.equal(again.status, 400, again.text);
  assert.equal(again.body.tppMessages[0].code, "SCA_INVALID");
  assert.equal((await app(bank, "bob", "approve")).body.scaStatus, "finalised");
});

test("an approval of a payment from someone else's account is refused; the request stays",
  async () => {
    const body = await decoupledStart(bank, SCT, paymentBody(), "bob");
    const acted = await app(bank, "bob", "approve");
    assert.equal(acted.status, 409);
    assert.equal(acted.body.problem, "debtor_not_owned");
    assert.equal(await scaStatusOf(bank, body), "psuIdentified");
    assert.equal((await app(bank, "bob", "reject")).body.scaStatus, "failed");
  });

test("a request left unanswered times out: failed, and the payment is RJCT", async (t) => {
  const own = await startOwnBank(t, { env: { ...APPROACHES, DECOUPLED_TIMEOUT_SECONDS: "1" } });
  const body = await decoupledStart(own, SCT, paymentBody({ debtorAccount: BOB_MAIN }), "bob");
  const deadline = Date.now() + 10_000;
  while (await scaStatusOf(own, body) !== "failed" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(await scaStatusOf(own, body), "failed");
  const status = await own.tpp.get(`${SCT}/${body.paymentId}/status`);
  assert.equal(status.body.transactionStatus, "RJCT");
  assert.equal((await app(own, "bob", "approve")).status, 404);
});

test("the scenario PSUs: hanna's app rejects at once, ivo's never answers", async () => {
  const from = (accountNumber: string) => paymentBody({ debtorAccount: ibanOf(accountNumber) });
  const hanna = await decoupledStart(bank, SCT, from("9000000001"), "hanna");
  const ivo = await decoupledStart(bank, SCT, from("9100000001"), "ivo");
  const deadline = Date.now() + 10_000;
  while (await scaStatusOf(bank, hanna) !== "failed" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(await scaStatusOf(bank, hanna), "failed");
  assert.equal((await bank.tpp.get(`${SCT}/${hanna.paymentId}/status`)).body.transactionStatus,
    "RJCT");
  assert.equal(await scaStatusOf(bank, ivo), "received");
});

test("periodic, bulk, funds-confirmation and a cancellation, each approved in the app",
  async () => {
    const tester = ibanOf("8100000001");
    const start = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const periodic = await decoupledStart(bank, "/psd2/v1/periodic-payments/sepa-credit-transfers",
      paymentBody({ debtorAccount: tester, startDate: start, frequency: "Monthly" }), "tester1");
    assert.equal((await app(bank, "tester1", "approve")).body.scaStatus, "finalised");
    const bulk = await decoupledStart(bank, "/psd2/v1/bulk-payments/sepa-credit-transfers", {
      debtorAccount: tester, payments: [{ creditorAccount: BOB_MAIN, creditorName: "Bob Meyer",
        instructedAmount: { currency: "EUR", amount: 1 } }],
    }, "tester1");
    assert.equal((await app(bank, "tester1", "approve")).body.resourceId, bulk.paymentId);
    const funds = await bank.tpp.post("/psd2/v1/consents/confirmation-of-funds",
      { account: { iban: tester } }, { ...DECOUPLED, "PSU-ID": "tester1" });
    assert.equal(funds.status, 201, funds.text);
    assert.equal((await app(bank, "tester1", "approve")).body.resourceId, funds.body.consentId);
    const self = `/psd2/v1/periodic-payments/sepa-credit-transfers/${periodic.paymentId}`;
    const cancel = await bank.tpp.call("DELETE", self,
      { headers: { "TPP-Decoupled-Preferred": "true", "PSU-ID": "tester1" } });
    assert.equal(cancel.status, 202, cancel.text);
    assert.equal((await app(bank, "tester1", "approve")).body.scaStatus, "finalised");
    assert.equal((await bank.tpp.get(`${self}/status`)).body.transactionStatus, "CANC");
  });

test("a bank-offered consent created for the redirect approach: an embedded or decoupled "
  + "authorisation is refused at its start and leaves nothing open", async () => {
    const offered = consentBody({ access: { accounts: [], balances: [], transactions: [] } });
    const res = await bank.tpp.post("/psd2/v1/consents", offered, {
      "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-URI": "https://tpp.example/ok",
      "TPP-Explicit-Authorisation-Preferred": "true" });
    assert.equal(res.status, createdStatus(bank.tpp), res.text);
    const start = linkOf(bank.tpp, res.body._links.startAuthorisation);
    const approaches: Record<string, string>[] = [{ "TPP-Redirect-Preferred": "false" },
      { "TPP-Decoupled-Preferred": "true" }];
    for (const preferred of approaches) {
      const started = await bank.tpp.post(start, {}, { "PSU-ID": "bob", ...preferred });
      assert.equal(started.status, 400, started.text);
      assert.equal(started.body.tppMessages[0].code, "SERVICE_INVALID");
      assert.match(started.body.tppMessages[0].text, /bank-offered/);
    }
    const list = await bank.tpp.get(start);
    assert.deepEqual(list.body.authorisationIds, [], "no authorisation left open");
    const status = await bank.tpp.get(`/psd2/v1/consents/${res.body.consentId}/status`);
    assert.equal(status.body.consentStatus, "received");
  });
