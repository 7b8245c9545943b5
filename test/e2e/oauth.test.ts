/**
 * OAuth2 in a real chromium: openid-client pushes the request over mutual TLS, the PSU logs in
 * on the bank's SCA pages (an authenticator app's code for alice, an SMS code for bob, in
 * English and German), the browser lands at the TPP's redirect_uri with the code and `iss`, and
 * the certificate-bound token reads the payment it was authorised for.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeViolations, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { createPayment, paymentBody } from "../support/flows.js";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import { CALLBACK, client, oauthClient, pushRequest } from "../support/oauth-client.js";
import type { TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

async function code(login: string): Promise<string> {
  const psu = demoPsu(login);
  const browser = bank.browser();
  return psu.device.kind === "totp"
    ? nextTotp(psu.device.secret, browser.authUrl) : (await lastSmsCode(browser, login)).code;
}

const LABELS = {
  en: { login: "Login name", password: "Password", button: "Log in", code: "Authorization code",
    next: "Continue", confirm: "Confirm" },
  de: { login: "Anmeldename", password: "Passwort", button: "Anmelden", code: "Autorisierungscode",
    next: "Weiter", confirm: "Bestätigen" },
};

/** The PSU's part, step by step as a person does it; ends at the TPP's redirect_uri. */
async function authorise(page: Page, login: string, lang: keyof typeof LABELS): Promise<URL> {
  const t = LABELS[lang];
  assert.equal(new URL(page.url()).pathname, "/sca/login");
  await page.getByLabel(t.login).fill(login);
  await page.getByLabel(t.password).fill(`${login}-demo`);
  await page.getByRole("button", { name: t.button }).click();
  await page.getByLabel(t.code).fill(await code(login));
  await page.getByRole("button", { name: t.next }).click();
  assert.deepEqual(await axeViolations(page), []);
  // No click: the result page forwards itself, through the server's resume, to the redirect_uri.
  // The request is what counts: the stand-in TPP does not see a navigation that arrives by a
  // redirect (playwright routes only its first request).
  const toTpp = page.waitForRequest((request) => request.url().startsWith(CALLBACK));
  await page.getByRole("button", { name: t.confirm }).click();
  await page.waitForURL(/\/sca\/done$/);
  return new URL((await toTpp).url());
}

for (const [login, lang, debtor] of [
  ["alice", "en", "DE96500100001000000001"], ["bob", "de", "DE51500100002000000001"],
] as const) {
  test(`${login} (${demoPsu(login).device.kind}, ${lang}) authorises a payment as the token's login`, async () => {
    const { paymentId } = await createPayment(bank.tpp, paymentBody({ debtorAccount: debtor }));
    const config = await oauthClient(bank);
    const { url, verifier, state } = await pushRequest(config, `PIS:${paymentId}`, { ui_locales: lang });
    const { page, context, problems } = await chromium.context();
    await page.goto(url.href);
    const callback = await authorise(page, login, lang);
    assert.equal(callback.searchParams.get("iss"), bank.authUrl);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const status = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${paymentId}/status`,
      { Authorization: `Bearer ${tokens.access_token}` });
    assert.equal(status.body.transactionStatus, "ACSC", status.text);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
