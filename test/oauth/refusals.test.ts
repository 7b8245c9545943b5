/**
 * What the authorisation server and the XS2A API refuse, each proved with openid-client over real
 * mutual TLS: a token without its certificate, a code used twice, a wrong PKCE verifier, a request
 * not pushed, a scope naming another TPP's consent, a token out of its scope, expired or revoked
 * (by the TPP, and with its consent on the PSU's dashboard); and OAUTH_BEARER_REQUIRED.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { csrfOf } from "../support/browser.js";
import {
  ALICE_MAIN, BOB_MAIN, CAROL_MAIN, consentBody, createConsent, createPayment, paymentBody, REDIRECTS,
} from "../support/flows.js";
import { logInDashboard } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import {
  authoriseInBrowser, CALLBACK, client, follow, mtlsFetch, oauthClient, pushRequest,
} from "../support/oauth-client.js";
import { TppClient } from "../support/tpp-client.js";
import { issueTppCertificate, loadKeyAndCertificate } from "../../src/tpp/dev-ca.js";

let bank: TestBank;
/** Another TPP of the same CA: its certificate, and its XS2A client. */
let other: Awaited<ReturnType<typeof otherTpp>>;
let thief: TppClient;
before(async () => {
  bank = await startBank();
  other = await otherTpp(bank);
  thief = new TppClient(bank.apiUrl, { ca: bank.ca, ...other.tls });
});
after(async () => { thief.close(); await bank.close(); });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const code = (res: { body: any }) => res.body.tppMessages?.[0]?.code;

/** A consent of `login`'s authorised through OAuth: its id, the tokens and the client. */
async function consentToken(on: TestBank, login = "bob", iban = BOB_MAIN, extra: Record<string, string> = {}) {
  const { consentId } = await createConsent(on.tpp);
  const config = await oauthClient(on);
  const { url, verifier, state } = await pushRequest(config, `AIS:${consentId}${extra.scope ?? ""}`, extra.prompt ? { prompt: extra.prompt } : {});
  const callback = await authoriseInBrowser(on.browser(), url, login, { accounts: [iban] });
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return { consentId, tokens, config };
}

const readAccounts = (on: TestBank, consentId: string, token: string) =>
  on.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, ...bearer(token) });

async function otherTpp(on: TestBank, organizationIdentifier = "PSDDE-BAFIN-999999", domains?: string[]) {
  const issuer = await loadKeyAndCertificate(on.certs.caCert, on.certs.caKey);
  const issued = await issueTppCertificate(issuer, {
    name: "Other TPP", organizationIdentifier, roles: ["PSP_PI", "PSP_AI", "PSP_IC"], domains,
  });
  return { tls: { cert: issued.certPem, key: issued.keyPem }, id: organizationIdentifier };
}

test("a token is worthless without its certificate: another TPP's connection, and no certificate at the token endpoint", async () => {
  const { consentId, tokens } = await consentToken(bank);
  const stolen = await thief.get("/psd2/v1/accounts", { "Consent-ID": consentId, ...bearer(tokens.access_token) });
  assert.equal(stolen.status, 401, stolen.text);
  assert.equal(code(stolen), "TOKEN_INVALID");

  const { consentId: second } = await createConsent(bank.tpp);
  const config = await oauthClient(bank);
  const { url, verifier, state } = await pushRequest(config, `AIS:${second}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "bob", { accounts: [BOB_MAIN] });
  config[client.customFetch] = mtlsFetch({ ca: bank.ca });
  await assert.rejects(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    (error: any) => error.error === "invalid_client");
});

test("a code works once: its second use fails and revokes what the first one got", async () => {
  const { consentId } = await createConsent(bank.tpp);
  const config = await oauthClient(bank);
  const { url, verifier, state } = await pushRequest(config, `AIS:${consentId}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "bob", { accounts: [BOB_MAIN] });
  const first = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal((await readAccounts(bank, consentId, first.access_token)).status, 200);
  await assert.rejects(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    (error: any) => error.error === "invalid_grant");
  const after = await readAccounts(bank, consentId, first.access_token);
  assert.equal(after.status, 401);
  assert.equal(code(after), "TOKEN_UNKNOWN");
});

test("a wrong PKCE verifier gets no token", async () => {
  const { consentId } = await createConsent(bank.tpp);
  const config = await oauthClient(bank);
  const { url, state } = await pushRequest(config, `AIS:${consentId}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "bob", { accounts: [BOB_MAIN] });
  await assert.rejects(client.authorizationCodeGrant(config, callback,
    { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: state }),
  (error: any) => error.error === "invalid_grant");
});

test("a request not pushed is refused before any login", async () => {
  const { consentId } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const query = new URLSearchParams({
    client_id: "PSDDE-BAFIN-123456", response_type: "code", scope: `AIS:${consentId}`,
    redirect_uri: CALLBACK, state: "s", code_challenge_method: "S256",
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
  });
  const page = await follow(browser, await browser.get(`/oauth/authorize?${query}`));
  assert.ok(!browser.hasSession());
  assert.equal(page.status, 400, page.html);
  assert.match(page.html, /invalid_redirect_uri/, "unregistered redirect URIs only come pushed");
  assert.doesNotMatch(page.html, /googleapis|<style|@import/, "no outside resources, no inline style");
  assert.ok(!page.location?.includes("code="));
});

test("a redirect_uri that is not https is refused when pushed (loopback http only in the sandbox)", async () => {
  const { consentId } = await createConsent(bank.tpp);
  const config = await oauthClient(bank);
  await assert.rejects(pushRequest(config, `AIS:${consentId}`, { redirect_uri: "http://tpp.example/cb" }),
    (error: any) => error.error === "invalid_request" && /https/.test(error.error_description));
  const loopback = await pushRequest(config, `AIS:${consentId}`, { redirect_uri: "http://127.0.0.1:9/cb" });
  assert.ok(loopback.url.searchParams.get("request_uri"));
});

test("with REDIRECT_URI_DOMAIN_CHECK a pushed redirect_uri passes the rule TPP-Redirect-URI passes", async (t) => {
  const checked = await startOwnBank(t, { env: { REDIRECT_URI_DOMAIN_CHECK: "true" } });
  const shop = await otherTpp(checked, "PSDDE-BAFIN-820003", ["tpp.example"]);
  const xs2a = new TppClient(checked.apiUrl, { ca: checked.ca, ...shop.tls });
  t.after(() => xs2a.close());
  const { consentId } = await createConsent(xs2a, undefined, { "TPP-Redirect-URI": CALLBACK });
  const config = await oauthClient(checked, shop.tls, shop.id);
  const uris = ["https://evil.example/cb", "https://user:pw@tpp.example/cb", "https://user@tpp.example/cb",
    "https://192.0.2.7/cb", "https://[2001:db8::1]/cb", "https://127.0.0.1/cb", "http://tpp.example/cb",
    "https://tpp.example.evil.example/cb"];
  for (const uri of uris) {
    const asHeader = await xs2a.post("/psd2/v1/consents", consentBody(), { ...REDIRECTS, "TPP-Redirect-URI": uri });
    assert.equal(asHeader.status, 400, `${uri}: ${asHeader.text}`);
    await assert.rejects(pushRequest(config, `AIS:${consentId}`, { redirect_uri: uri }),
      (error: any) => error.error === "invalid_request"
        && error.error_description === asHeader.body.tppMessages[0].text.replace("TPP-Redirect-URI", "redirect_uri"),
      uri);
  }
  for (const uri of [CALLBACK, "https://pay.tpp.example/cb", "https://tpp.example./cb"]) {
    const pushed = await pushRequest(config, `AIS:${consentId}`, { redirect_uri: uri });
    assert.ok(pushed.url.searchParams.get("request_uri"), uri);
  }
});

test("a scope naming another TPP's consent, or nothing the bank knows, gets an error and no SCA", async () => {
  const { consentId: foreign } = await createConsent(thief);
  const config = await oauthClient(bank);
  for (const [scope, error] of [[`AIS:${foreign}`, "access_denied"], ["accounts", "invalid_scope"],
    [`PIS:${foreign}`, "access_denied"]] as const) {
    const { url } = await pushRequest(config, scope);
    const browser = bank.browser();
    const page = await follow(browser, await browser.get(url.pathname + url.search));
    assert.ok(page.location?.startsWith(CALLBACK), `${page.status} ${page.html}`);
    assert.equal(new URL(page.location ?? "").searchParams.get("error"), error, scope);
    assert.ok(!browser.hasSession(), "no SCA session opened");
  }
});

test("a token reads only the resources its scope names", async () => {
  const { tokens } = await consentToken(bank);
  const { consentId: otherConsent } = await createConsent(bank.tpp);
  const outside = await bank.tpp.get(`/psd2/v1/consents/${otherConsent}/status`, bearer(tokens.access_token));
  assert.equal(outside.status, 401);
  assert.equal(code(outside), "TOKEN_INVALID");
  const { paymentId } = await createPayment(bank.tpp, paymentBody());
  const payment = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${paymentId}`, bearer(tokens.access_token));
  assert.equal(code(payment), "TOKEN_INVALID");
  const malformed = await bank.tpp.get(`/psd2/v1/consents/${otherConsent}/status`, { Authorization: "Basic eDp5" });
  assert.equal(code(malformed), "TOKEN_INVALID");
  const unknown = await bank.tpp.get(`/psd2/v1/consents/${otherConsent}/status`, bearer("not-a-token"));
  assert.equal(code(unknown), "TOKEN_UNKNOWN");
});

test("introspection and revocation: the TPP's own token is active until revoked, then refused", async () => {
  const { consentId, tokens, config } = await consentToken(bank);
  const active = await client.tokenIntrospection(config, tokens.access_token);
  assert.equal(active.active, true);
  assert.equal(active.scope, `AIS:${consentId}`);
  assert.equal(active.client_id, "PSDDE-BAFIN-123456");
  assert.ok(active.cnf?.["x5t#S256"], "certificate-bound (RFC 8705)");
  const stranger = await oauthClient(bank, other.tls, other.id);
  assert.equal((await client.tokenIntrospection(stranger, tokens.access_token)).active, false);
  await client.tokenRevocation(config, tokens.access_token);
  assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, false);
  assert.equal(code(await readAccounts(bank, consentId, tokens.access_token)), "TOKEN_UNKNOWN");
});

test("a consent the PSU revokes on the dashboard takes its tokens, refresh token included, with it", async () => {
  const { consentId, tokens, config } = await consentToken(bank, "carol", CAROL_MAIN, { scope: " offline_access", prompt: "consent" });
  assert.ok(tokens.refresh_token, "a recurring consent's token comes with a refresh token");
  const stranger = await oauthClient(bank, other.tls, other.id);
  await assert.rejects(client.refreshTokenGrant(stranger, tokens.refresh_token),
    (error: any) => error.error === "invalid_grant", "a refresh token works only for its own client");
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
  assert.equal((await readAccounts(bank, consentId, refreshed.access_token)).status, 200);
  const stolen = await thief.get("/psd2/v1/accounts", { "Consent-ID": consentId, ...bearer(refreshed.access_token) });
  assert.equal(code(stolen), "TOKEN_INVALID", "the refreshed token is bound to the certificate too");
  const psu = bank.browser();
  const page = await logInDashboard(psu, "carol");
  assert.equal((await psu.post("/dashboard/revoke", { _csrf: csrfOf(page.html), consent: consentId })).status, 303);
  assert.equal((await client.tokenIntrospection(config, refreshed.access_token)).active, false);
  assert.equal(code(await readAccounts(bank, consentId, refreshed.access_token)), "TOKEN_UNKNOWN");
  await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token), (error: any) => error.error === "invalid_grant");
});

test("an expired token is refused as expired; OAUTH_BEARER_REQUIRED refuses calls on a resource without one", async (t) => {
  const strict = await startOwnBank(t, { env: { OAUTH_ACCESS_TOKEN_SECONDS: "3", OAUTH_BEARER_REQUIRED: "true" } });
  const { consentId } = await createConsent(strict.tpp);
  const without = await strict.tpp.get(`/psd2/v1/consents/${consentId}/status`);
  assert.equal(without.status, 401);
  assert.equal(code(without), "TOKEN_INVALID");
  // A funds confirmation names its consent in the Consent-ID header, as the route reads it.
  const funds = await strict.tpp.post("/psd2/v1/funds-confirmations", { account: { iban: ALICE_MAIN },
    instructedAmount: { currency: "EUR", amount: "1.00" } }, { "Consent-ID": consentId });
  assert.equal(funds.status, 401, funds.text);
  assert.equal(code(funds), "TOKEN_INVALID");
  const config = await oauthClient(strict);
  const { url, verifier, state } = await pushRequest(config, `AIS:${consentId}`);
  const callback = await authoriseInBrowser(strict.browser(), url, "alice", { accounts: [ALICE_MAIN] });
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal((await readAccounts(strict, consentId, tokens.access_token)).status, 200);
  await sleep(3_500);
  const expired = await readAccounts(strict, consentId, tokens.access_token);
  assert.equal(expired.status, 401);
  assert.equal(code(expired), "TOKEN_EXPIRED");
});
