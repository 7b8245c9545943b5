/**
 * The authorisation server on two instances of one PostgreSQL database, as behind a load
 * balancer: a code issued on one is redeemed on the other, once across both, and the token it
 * gives works on either, since grants, codes and tokens live in the database.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { postgresUnavailable } from "../support/engines.js";
import { BOB_MAIN, createConsent } from "../support/flows.js";
import { twoInstancesOnPostgres, type TestBank } from "../support/start-app.js";
import { authoriseInBrowser, DEMO_TPP_ID, mtlsFetch, oauthClient, pushRequest } from "../support/oauth-client.js";

let first: TestBank;
let second: TestBank;

/** The token endpoint of `bank`'s API listener, called with the demo TPP's certificate. */
async function redeem(bank: TestBank, form: Record<string, string>) {
  const [cert, key] = await Promise.all([readFile(bank.certs.tppCert), readFile(bank.certs.tppKey)]);
  const answer = await mtlsFetch({ ca: bank.ca, cert, key })(`${bank.apiUrl}/oauth/token`, {
    method: "POST", body: new URLSearchParams({ client_id: DEMO_TPP_ID, ...form }), redirect: "manual",
    headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded" }),
  } as never);
  return { status: answer.status, body: await answer.json() as Record<string, string> };
}

describe("OAuth on two instances of one PostgreSQL database", { skip: postgresUnavailable ?? false }, () => {
  twoInstancesOnPostgres((started, sharing) => { [first, second] = [started, sharing]; });

  test("a code from one instance is redeemed on the other, once: its second use revokes the token on both", async () => {
    const { consentId } = await createConsent(first.tpp);
    const { url, verifier } = await pushRequest(await oauthClient(first), `AIS:${consentId}`);
    const callback = await authoriseInBrowser(first.browser(), url, "bob", { accounts: [BOB_MAIN] });
    const form = { grant_type: "authorization_code", code: callback.searchParams.get("code") ?? "",
      redirect_uri: "https://tpp.example/cb", code_verifier: verifier };
    const tokens = await redeem(second, form);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const again = await redeem(first, form);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, "invalid_grant");
    // The second use revoked what the first got, on both instances.
    for (const bank of [first, second]) {
      const read = await bank.tpp.get("/psd2/v1/accounts",
        { "Consent-ID": consentId, Authorization: `Bearer ${tokens.body.access_token}` });
      assert.equal(read.body.tppMessages?.[0]?.code, "TOKEN_UNKNOWN", read.text);
    }
  });

  test("a token issued on one instance reads on the other", async () => {
    const { consentId } = await createConsent(second.tpp);
    const { url, verifier } = await pushRequest(await oauthClient(second), `AIS:${consentId}`);
    const callback = await authoriseInBrowser(second.browser(), url, "bob", { accounts: [BOB_MAIN] });
    const tokens = await redeem(second, { grant_type: "authorization_code",
      code: callback.searchParams.get("code") ?? "", redirect_uri: "https://tpp.example/cb", code_verifier: verifier });
    const read = await first.tpp.get("/psd2/v1/accounts",
      { "Consent-ID": consentId, Authorization: `Bearer ${tokens.body.access_token}` });
    assert.equal(read.status, 200, read.text);
  });
});
