/**
 * OAuth2 as Berlin Group's integrated SCA approach: with SCA_DEFAULT_APPROACH=oauth a creation
 * answers ASPSP-SCA-Approach: REDIRECT and `_links.scaOAuth` (the authorisation server's
 * metadata), no TPP-Redirect-URI needed; the OAuth flow then ends with the resource authorised
 * as after a redirect, its implicit authorisation finalised. In the spec's dialect and under the
 * Berlin Group profile, where every answer is checked against the 1.3.12 file.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BOB_MAIN, bgConsentBody, bgPaymentBody, consentBody, createdStatus, linkOf, paymentBody } from "../support/flows.js";
import { startOwnBank } from "../support/start-app.js";
import { authoriseInBrowser, client, oauthClient, pushRequest } from "../support/oauth-client.js";

const PSU_IP = { "PSU-IP-Address": "192.0.2.1" };

for (const profile of ["spec", "berlin-group"] as const) {
  test(`${profile}: a consent and a payment created in the oauth approach are authorised through OAuth`, async (t) => {
    const bank = await startOwnBank(t, { env: { SCA_DEFAULT_APPROACH: "oauth", API_PROFILE: profile } });
    const bg = profile === "berlin-group";
    const consent = await bank.tpp.post("/psd2/v1/consents", bg ? bgConsentBody() : consentBody(), PSU_IP);
    assert.equal(consent.status, createdStatus(bank.tpp), consent.text);
    assert.equal(consent.headers["aspsp-sca-approach"], "REDIRECT");
    const links = consent.body._links;
    assert.equal(linkOf(bank.tpp, links.scaOAuth), `${bank.authUrl}/.well-known/oauth-authorization-server`);
    assert.equal(links.scaRedirect ?? null, null);
    const metadata = await bank.browser().get(new URL(linkOf(bank.tpp, links.scaOAuth)).pathname);
    assert.equal(JSON.parse(metadata.html).issuer, bank.authUrl);

    const config = await oauthClient(bank);
    const consentId = consent.body.consentId as string;
    const asked = await pushRequest(config, `AIS:${consentId}`);
    const callback = await authoriseInBrowser(bank.browser(), asked.url, "bob", { accounts: [BOB_MAIN] });
    await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: asked.verifier, expectedState: asked.state });
    const scaStatus = await bank.tpp.get(linkOf(bank.tpp, links.scaStatus));
    assert.equal(scaStatus.body.scaStatus, "finalised", scaStatus.text);
    assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus, "valid");

    const body = bg ? bgPaymentBody({ debtorAccount: { iban: BOB_MAIN, currency: "EUR" } }) : paymentBody({ debtorAccount: BOB_MAIN });
    const payment = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", body, PSU_IP);
    assert.equal(payment.status, createdStatus(bank.tpp), payment.text);
    assert.equal(payment.headers["aspsp-sca-approach"], "REDIRECT");
    const pay = await pushRequest(config, `PIS:${payment.body.paymentId}`);
    const back = await authoriseInBrowser(bank.browser(), pay.url, "bob");
    await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: pay.verifier, expectedState: pay.state });
    const status = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${payment.body.paymentId}/status`);
    assert.equal(status.body.transactionStatus, "ACSC", status.text);
  });
}
