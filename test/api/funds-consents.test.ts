/**
 * FUNDS_CONFIRMATION_CONSENT_REQUIRED: a funds confirmation needs the Consent-ID of a
 * funds-confirmation consent the PSU granted for that account, and such a consent gives no
 * account information.
 *
 * Spec dialect only, with no .berlin-group rerun: funds-confirmation consents are Berlin Group's
 * PIIS 2.0, not an operation of the 1.3.12 file (test/fixtures/berlin-group-psd2-api.yaml has
 * POST /v1/funds-confirmations but no /v1/consents/confirmation-of-funds), so there is nothing to
 * check them against; test/api/berlin-group.test.ts checks their creation's strict shape by hand.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, confirm, EXTERNAL_IBAN, OK_URI, reachReview, REDIRECTS,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const FUNDS = "/psd2/v1/funds-confirmations";
const CONSENTS = "/psd2/v1/consents/confirmation-of-funds";

let bank: TestBank;
before(async () => { bank = await startBank({ env: { FUNDS_CONFIRMATION_CONSENT_REQUIRED: "true" } }); });
after(async () => { await bank.close(); });

const ask = (consentId: string | null, iban = ALICE_MAIN) => bank.tpp.post(FUNDS, {
  account: { iban }, instructedAmount: { currency: "EUR", amount: "1.00" },
}, consentId === null ? {} : { "Consent-ID": consentId });

function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages[0].code, code, res.text);
  if (path !== undefined) assert.equal(res.body.tppMessages[0].path, path, res.text);
}

async function register(iban = ALICE_MAIN) {
  const res = await bank.tpp.post(CONSENTS, { account: { iban }, cardNumber: "1234567890123456" }, REDIRECTS);
  assert.equal(res.status, 201, res.text);
  return { consentId: res.body.consentId as string, scaRedirect: res.body._links.scaRedirect as string };
}

let granted = "";

test("the PSU grants a funds-confirmation consent on the redirect pages; then the card issuer may ask",
  async () => {
    const { consentId, scaRedirect } = await register();
    assert.deepEqual((await bank.tpp.get(`${CONSENTS}/${consentId}/status`)).body, { consentStatus: "received" });
    assertRefusal(await ask(consentId), 401, "CONSENT_INVALID", "Consent-ID");
    const browser = bank.browser();
    const review = await reachReview(browser, scaRedirect, "alice");
    assert.match(review.html, /asks to check whether your account holds the funds/);
    const done = await confirm(browser, review, [ALICE_MAIN]);
    assert.equal(done.location, OK_URI, done.html);
    assert.deepEqual((await bank.tpp.get(`${CONSENTS}/${consentId}`)).body,
      { account: { iban: ALICE_MAIN }, consentStatus: "valid" });
    const yes = await ask(consentId);
    assert.equal(yes.status, 200, yes.text);
    assert.deepEqual(yes.body, { fundsAvailable: true });
    granted = consentId;
  });

test("each refusal of a funds confirmation under the consent rule: status, code, path", async () => {
  assert.ok(granted, "runs after the grant");
  const aisConsent = await authorisedConsent(bank.tpp, bank.browser(), "bob", ["DE51500100002000000001"]);
  const rows: [TppResponse, number, string, string | undefined][] = [
    [await ask(null), 400, "FORMAT_ERROR", "Consent-ID"],
    [await ask("00000000-0000-4000-8000-000000000000"), 400, "CONSENT_UNKNOWN", "Consent-ID"],
    [await ask(granted, ALICE_SAVINGS), 401, "CONSENT_INVALID", "account"],
    [await ask(aisConsent), 401, "CONSENT_INVALID", "Consent-ID"],
    [await bank.tpp.post(CONSENTS, { account: { iban: EXTERNAL_IBAN } }, REDIRECTS), 400, "FORMAT_ERROR", "account"],
    [await bank.tpp.post(CONSENTS, { account: { iban: ALICE_MAIN }, extra: 1 }, REDIRECTS), 400, "FORMAT_ERROR", "extra"],
    [await bank.tpp.get(`${CONSENTS}/${aisConsent}`), 403, "CONSENT_UNKNOWN", undefined],
  ];
  for (const [res, status, code, path] of rows) assertRefusal(res, status, code, path);
});

test("a funds-confirmation consent reads no account information", async () => {
  assert.ok(granted, "runs after the grant");
  const res = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": granted });
  assertRefusal(res, 401, "CONSENT_INVALID");
});
