/**
 * OAuth2 as Berlin Group's pre-step, driven by openid-client over real mutual TLS: a pushed
 * request whose scope names a consent or payment, the PSU's SCA of that resource as the login,
 * a certificate-bound token, and XS2A calls with it, within its scope only.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startBank, type TestBank } from "../support/start-app.js";
import { ALICE_MAIN, createConsent, createPayment, paymentBody } from "../support/flows.js";
import { authoriseInBrowser, client, oauthClient, pushRequest } from "../support/oauth-client.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test("the metadata is RFC 8414's, FAPI 2.0 shaped, with the mTLS endpoints on the API listener", async () => {
  const config = await oauthClient(bank);
  const metadata = config.serverMetadata();
  assert.equal(metadata.issuer, bank.authUrl);
  assert.deepEqual(metadata.response_types_supported, ["code"]);
  assert.deepEqual(metadata.code_challenge_methods_supported, ["S256"]);
  assert.equal(metadata.require_pushed_authorization_requests, true);
  assert.equal(metadata.tls_client_certificate_bound_access_tokens, true);
  assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ["tls_client_auth"]);
  assert.equal(metadata.mtls_endpoint_aliases?.token_endpoint, `${bank.apiUrl}/oauth/token`);
  assert.equal(metadata.mtls_endpoint_aliases?.pushed_authorization_request_endpoint, `${bank.apiUrl}/oauth/par`);
});

test("AIS: a consent's token, authorised by alice's SCA of it, reads exactly that consent's accounts", async () => {
  const { consentId } = await createConsent(bank.tpp);
  const config = await oauthClient(bank);
  const { url, verifier, state } = await pushRequest(config, `AIS:${consentId}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "alice", { accounts: [ALICE_MAIN] });
  assert.equal(callback.searchParams.get("iss"), bank.authUrl);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal(tokens.token_type.toLowerCase(), "bearer");
  assert.equal(tokens.scope, `AIS:${consentId}`);
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`, bearer(tokens.access_token))).body.consentStatus, "valid");
  const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, ...bearer(tokens.access_token) });
  assert.equal(accounts.status, 200, accounts.text);
  assert.equal(accounts.body.accounts[0].iban, ALICE_MAIN);
});

test("PIS: bob's payment is authorised with an SMS code through the token's login, then readable with it", async () => {
  const { paymentId } = await createPayment(bank.tpp, paymentBody({ debtorAccount: "DE51500100002000000001" }));
  const config = await oauthClient(bank);
  const { url, verifier, state } = await pushRequest(config, `PIS:${paymentId}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "bob");
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  const status = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${paymentId}/status`, bearer(tokens.access_token));
  assert.equal(status.status, 200, status.text);
  assert.equal(status.body.transactionStatus, "ACSC");
  const short = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`, bearer(tokens.access_token));
  assert.equal(short.status, 200, short.text);
});
