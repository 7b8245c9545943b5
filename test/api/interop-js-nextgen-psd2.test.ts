/**
 * Interoperability: js-nextgen-psd2 (a NextGenPSD2 client from the npm registry, written by
 * others, with its own HTTP-signature code and axios) completes the payment and the consent flow
 * against API_PROFILE=berlin-group with REQUIRE_HTTP_SIGNATURE=true. Every answer it gets is
 * also checked against the Berlin Group OpenAPI file.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { Agent } from "node:https";
import { after, before, test } from "node:test";
import PSD2Client from "js-nextgen-psd2";
import { berlinGroupViolations } from "../support/berlin-group.js";
import {
  ALICE_MAIN, bgConsentBody, bgPaymentBody, confirm, OK_URI, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let client: PSD2Client;

before(async () => {
  bank = await startBank({ env: { API_PROFILE: "berlin-group", REQUIRE_HTTP_SIGNATURE: "true" } });
  const [cert, key] = await Promise.all([readFile(bank.certs.tppCert), readFile(bank.certs.tppKey)]);
  // The demo TPP's QWAC also seals its requests (the bank accepts either certificate kind).
  client = new PSD2Client(cert, key, { sslCertificate: cert, sslKey: key });
  // The library trusts only the public roots; this bank's sandbox CA is not one. Its agent is
  // replaced by one with the same client certificate that also trusts the sandbox CA.
  (client as unknown as { _axios: { defaults: { httpsAgent: Agent } } })._axios.defaults.httpsAgent =
    new Agent({ ca: bank.ca, cert, key });
});
after(async () => { await bank.close(); });

const PSU = { "PSU-IP-Address": "192.0.2.10" };

/** A call through the library; its answer must conform to the Berlin Group file. */
async function send(method: "get" | "post" | "delete", path: string, headers: Record<string, string>, body?: unknown) {
  const res = await client.send(method, `${bank.apiUrl}${path}`, { ...headers }, body);
  const violations = berlinGroupViolations({
    method: method.toUpperCase(), path, requestBody: body, status: res.status,
    headers: res.headers, body: res.body === "" ? undefined : res.body,
  });
  assert.deepEqual(violations, [], JSON.stringify(res.body));
  return res;
}

test("this bank requires signatures: an unsigned request is refused", async () => {
  const unsigned = await bank.tpp.get("/psd2/v1/consents/x/status");
  assert.equal(unsigned.status, 401, unsigned.text);
  assert.equal(unsigned.body.tppMessages[0].code, "SIGNATURE_MISSING");
});

test("payment flow: initiate, the PSU authorises, status and details", async () => {
  const created = await send("post", "/psd2/v1/payments/sepa-credit-transfers",
    { ...PSU, "TPP-Redirect-URI": OK_URI, "PSU-ID": "alice" }, bgPaymentBody());
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.transactionStatus, "RCVD");
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, created.body._links.scaRedirect.href, "alice"));
  assert.equal(done.location, OK_URI);
  const status = await send("get", created.body._links.status.href, PSU);
  assert.equal(status.status, 200, JSON.stringify(status.body));
  assert.notEqual(status.body.transactionStatus, "RCVD");
  const scaStatus = await send("get", created.body._links.scaStatus.href, PSU);
  assert.equal(scaStatus.body.scaStatus, "finalised");
  assert.equal((await send("get", created.body._links.self.href, PSU)).status, 200);
});

test("consent flow: register, the PSU grants, accounts, balances and transactions read", async () => {
  const created = await send("post", "/psd2/v1/consents", { ...PSU, "TPP-Redirect-URI": OK_URI }, bgConsentBody());
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const browser = bank.browser();
  const review = await reachReview(browser, created.body._links.scaRedirect.href, "alice");
  assert.equal((await confirm(browser, review, [ALICE_MAIN])).location, OK_URI);
  assert.deepEqual((await send("get", created.body._links.status.href, PSU)).body, { consentStatus: "valid" });

  const consent = { ...PSU, "Consent-ID": created.body.consentId };
  const list = await send("get", "/psd2/v1/accounts?withBalance=true", consent);
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const account = list.body.accounts.find((a: { iban: string }) => a.iban === ALICE_MAIN);
  const path = `/psd2/v1/accounts/${account.resourceId}`;
  assert.equal((await send("get", `${path}/balances`, consent)).status, 200);
  const report = await send("get", `${path}/transactions?bookingStatus=booked&dateFrom=2000-01-01`, consent);
  assert.equal(report.status, 200, JSON.stringify(report.body));
  assert.equal((await send("delete", created.body._links.self.href, PSU)).status, 204);
});
