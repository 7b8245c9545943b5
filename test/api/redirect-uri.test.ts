/**
 * TPP-Redirect-URI and TPP-Nok-Redirect-URI against the TPP's certificate: with
 * REDIRECT_URI_DOMAIN_CHECK (on by default in production) their host must be a domain of the
 * certificate's subjectAltName or lie below one; the browser only ever goes to the stored URI.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig } from "../../src/config.js";
import { formOf } from "../support/browser.js";
import {
  consentBody, createdStatus, CREATION_HEADERS, linkOf, open, paymentBody, settled,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient, TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";

let bank: TestBank;
let shop: TppClient;
let wildcard: TppClient;

before(async () => {
  bank = await startBank({ env: { REDIRECT_URI_DOMAIN_CHECK: "true" } });
  shop = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-820001", domains: ["tpp.example"] });
  wildcard = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-820002", domains: ["*.shop.example"] });
});
after(async () => { await bank.close(); });

function assertRefused(res: TppResponse, path: string) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.tppMessages[0].code, "FORMAT_ERROR", res.text);
  assert.equal(res.body.tppMessages[0].path, path, res.text);
}

/** A creation's headers with these redirect URIs. */
const redirects = (ok: string, nok = ok) =>
  ({ ...CREATION_HEADERS, "TPP-Redirect-URI": ok, "TPP-Nok-Redirect-URI": nok });

const pay = (tpp: TppClient, ok: string, nok = ok) => tpp.post(SCT, paymentBody(), redirects(ok, nok));

test("hosts in the certificate's domain or below it are accepted", async () => {
  for (const uri of ["https://tpp.example/ok", "https://www.tpp.example/cb?state=1", "https://a.b.tpp.example./x"]) {
    assert.equal((await pay(shop, uri)).status, createdStatus(shop), uri);
  }
  assert.equal((await pay(wildcard, "https://pay.shop.example/ok")).status, createdStatus(wildcard));
});

test("any other host is refused, for TPP-Redirect-URI and TPP-Nok-Redirect-URI, payments and consents", async () => {
  for (const uri of [
    "https://evil.example/ok", "https://tpp.example.evil.com/ok", "https://eviltpp.example/ok",
    "https://evil.example@tpp.example/ok", "https://tpp.example@evil.example/ok", "javascript:alert(1)",
    "http://tpp.example/ok", "https://127.0.0.1/ok",
  ]) {
    assertRefused(await pay(shop, uri, "https://tpp.example/nok"), "TPP-Redirect-URI");
  }
  assertRefused(await pay(shop, "https://tpp.example/ok", "https://evil.example/nok"), "TPP-Nok-Redirect-URI");
  assertRefused(await pay(wildcard, "https://shop.example/ok"), "TPP-Redirect-URI");
  const consent = await shop.post("/psd2/v1/consents", consentBody(),
    redirects("https://evil.example/ok", "https://tpp.example/nok"));
  assertRefused(consent, "TPP-Redirect-URI");
});

test("the demo TPP's certificate names localhost, so sandbox http://localhost callbacks still work", async () => {
  assert.equal((await pay(bank.tpp, "http://localhost:3000/cb")).status, createdStatus(bank.tpp));
  assertRefused(await pay(bank.tpp, "https://tpp.example/ok"), "TPP-Redirect-URI");
});

test("the browser goes to the stored URI: a form field cannot redirect the cancel", async () => {
  const created = await pay(shop, "https://tpp.example/ok", "https://tpp.example/nok");
  const browser = bank.browser();
  const login = await open(browser, linkOf(shop, created.body._links.scaRedirect));
  const { action, hidden } = formOf(login.html, /class="cancel"/);
  const forged = await settled(browser, await browser.post(action, {
    ...hidden, redirectUri: "https://evil.example/", nokRedirectUri: "https://evil.example/",
  }));
  assert.equal(forged.status, 200, forged.html);
  assert.equal(forged.location, "https://tpp.example/nok");
});

test("the check is on by default in production mode and off in sandbox", () => {
  const tls = { TLS_CERT_FILE: "server.crt", TLS_KEY_FILE: "server.key", TPP_TRUST_STORE_FILE: "qtsp.pem" };
  assert.equal(loadConfig({ PSD2_MODE: "production", SEED_DEMO_DATA: "false", ...tls }).redirectUriDomainCheck, true);
  assert.equal(loadConfig({}).redirectUriDomainCheck, false);
  assert.throws(() => loadConfig({ REDIRECT_URI_DOMAIN_CHECK: "yes" }), /true or false/);
});
