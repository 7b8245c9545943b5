/**
 * OAuth2 on /v2: where it is the bank's default, a /v2 creation (Consent API 2.1 account access
 * and funds confirmations, PIS 2.4.1) answers ASPSP-SCA-Approach: REDIRECT with
 * `_links.scaOAuth`, as the openFinance files subsume the OAuth approach under REDIRECT; the
 * token's scope names the /v2 resource as it names a /v1 one, and the token is what the files'
 * BearerAuthOAuth carries on the /v2 calls about that resource, and about no other. Every /v2
 * answer is checked against the openFinance files by the test client.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, confirm, createdStatus, createPayment, CREATION_HEADERS, linkOf, OK_URI, reachReview,
} from "../support/flows.js";
import { authoriseInBrowser, client, oauthClient, pushRequest } from "../support/oauth-client.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";
import {
  accountAccessConsent, CLIENT, fundsConsent, fundsQuestion, singlePayment,
} from "../support/v2-bodies.js";

const V2 = "/psd2/v2";
const PRESENT = { "PSU-IP-Address": "192.0.2.1" };

let bank: TestBank;
before(async () => { bank = await startBank({ env: { SCA_DEFAULT_APPROACH: "oauth" } }); });
after(async () => { await bank.close(); });

/** A /v2 creation in the oauth approach: no Client-Redirect-URI, the metadata to go on with. */
async function createdForOAuth(path: string, body: object, headers: Record<string, string> = {}) {
  const res = await bank.tpp.post(`${V2}${path}`, body, { ...PRESENT, ...headers });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  const links = res.body._links;
  assert.equal(links.scaOAuth.href, `${bank.authUrl}/.well-known/oauth-authorization-server`);
  assert.equal(links.scaRedirect, undefined);
  return res;
}

/** The PSU authorises the scope's resource at the authorisation server; the TPP's token. */
async function tokenFor(scope: string, choices: { accounts?: string[] } = {}) {
  const config = await oauthClient(bank);
  const asked = await pushRequest(config, scope);
  const callback = await authoriseInBrowser(bank.browser(), asked.url, "bob", choices);
  const grant = await client.authorizationCodeGrant(config, callback,
    { pkceCodeVerifier: asked.verifier, expectedState: asked.state });
  return { Authorization: `Bearer ${grant.access_token}` };
}

function refused(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.apiClientMessages[0].code, code, res.text);
}

test("an account-access consent authorised through OAuth; its token reads the accounts, only with it", async () => {
  const consent = await createdForOAuth("/consents/account-access",
    { ...accountAccessConsent(["accountDetails", "balances"]),
      access: { payments: [{ account: { iban: BOB_MAIN }, rights: ["accountDetails", "balances"] }] } });
  const consentId = consent.body.consentId as string;
  const bearer = await tokenFor(`AIS:${consentId}`, { accounts: [BOB_MAIN] });
  const scaStatus = await bank.tpp.get(consent.body._links.scaStatus.href);
  assert.equal(scaStatus.body.scaStatus, "finalised", scaStatus.text);
  const status = await bank.tpp.get(`${V2}/consents/account-access/${consentId}/status`, bearer);
  assert.equal(status.body.consentStatus, "valid", status.text);
  const accounts = await bank.tpp.get(`${V2}/accounts`,
    { "Consent-ID": consentId, ...PRESENT, ...bearer });
  assert.equal(accounts.status, 200, accounts.text);
  assert.deepEqual(accounts.body.accounts.map((a: { iban: string }) => a.iban), [BOB_MAIN]);

  // The token names this consent: another one, even the TPP's own, is out of its scope.
  const other = await createdForOAuth("/consents/account-access", accountAccessConsent());
  refused(await bank.tpp.get(`${V2}/consents/account-access/${other.body.consentId}`, bearer),
    401, "TOKEN_INVALID");
  refused(await bank.tpp.get(`${V2}/accounts`,
    { "Consent-ID": other.body.consentId, ...PRESENT, ...bearer }), 401, "TOKEN_INVALID");
  refused(await bank.tpp.get(`${V2}/accounts`,
    { "Consent-ID": consentId, ...PRESENT, Authorization: "Bearer not-issued" }), 401, "TOKEN_UNKNOWN");
});

test("a payment authorised through OAuth is booked; Client-SCA-Approach-Preference redirect keeps OAuth", async () => {
  const payment = await createdForOAuth("/payments/sepa-credit-transfers", singlePayment(),
    { "Client-SCA-Approach-Preference": "redirect" });
  const paymentId = payment.body.paymentId as string;
  const bearer = await tokenFor(`PIS:${paymentId}`);
  const status = await bank.tpp.get(`${V2}/payments/sepa-credit-transfers/${paymentId}/status`, bearer);
  assert.equal(status.body.transactionStatus, "ACSC", status.text);
  // A token for a payment reads nothing under a consent's scope.
  refused(await bank.tpp.get(`${V2}/accounts`, { "Consent-ID": "unknown-consent", ...PRESENT, ...bearer }),
    401, "TOKEN_INVALID");
});

test("a funds-confirmation consent authorised through OAuth: its PIIS token confirms funds", async () => {
  const consent = await createdForOAuth("/consents/funds-confirmations", fundsConsent());
  const consentId = consent.body.consentId as string;
  const bearer = await tokenFor(`PIIS:${consentId}`, { accounts: [BOB_MAIN] });
  const confirmed = await bank.tpp.post(`${V2}/funds-confirmations`, fundsQuestion(),
    { "Consent-ID": consentId, ...bearer });
  assert.equal(confirmed.status, 200, confirmed.text);
  assert.equal(confirmed.body.fundsAvailable, true);
  // An AIS scope does not name a funds-confirmation consent.
  const wrong = await tokenFor(`AIS:${consentId}`).catch((error: unknown) => error);
  assert.ok(wrong instanceof Error, "the authorisation server refuses a scope of the wrong service");
});

test("a basket, /v2 or /v1, takes the redirect where OAuth2 is the default: no scope names a basket",
  async () => {
    const payment = await createdForOAuth("/payments/sepa-credit-transfers", singlePayment());
    const basket = await bank.tpp.post(`${V2}/signing-baskets`,
      { paymentIds: [payment.body.paymentId] }, CLIENT);
    assert.equal(basket.status, 201, basket.text);
    assert.equal(basket.headers["aspsp-sca-approach"], "REDIRECT");
    assert.equal(basket.body._links.scaOAuth, undefined);
    const browser = bank.browser();
    const done = await confirm(browser,
      await reachReview(browser, basket.body._links.scaRedirect.href, "bob"));
    assert.equal(done.location, OK_URI, done.html);
    const v1 = await createPayment(bank.tpp);
    const v1Basket = await bank.tpp.post("/psd2/v1/signing-baskets", { paymentIds: [v1.paymentId] },
      CREATION_HEADERS);
    assert.equal(v1Basket.status, createdStatus(bank.tpp), v1Basket.text);
    assert.ok(linkOf(bank.tpp, v1Basket.body._links.scaRedirect), v1Basket.text);
  });
