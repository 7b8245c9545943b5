/**
 * The bank's consent settings: maximum validity, maximum frequencyPerDay and the time a PSU has
 * to authorise; and a consent past its validUntil answering CONSENT_EXPIRED on use.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import { authorisedConsent, BOB_MAIN, consentBody, createConsent } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const today = () => dateInZone(clock.now(), "Europe/Berlin");
let bank: TestBank;
before(async () => {
  bank = await startBank({
    clock, env: { CONSENT_VALIDITY_DAYS_MAX: "30", FREQUENCY_PER_DAY_MAX: "2", CONSENT_AUTHORISATION_MINUTES: "5" },
  });
});
after(async () => { await bank.close(); });

const statusOf = async (consentId: string) =>
  (await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus;

test("validUntil and frequencyPerDay above the bank's maximum are adjusted down and shown so", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ validUntil: "9999-12-31", frequencyPerDay: 9 }));
  const res = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.validUntil, addDays(today(), 30));
  assert.equal(res.body.frequencyPerDay, 2);
});

test("a consent not authorised within the configured minutes is rejected", async () => {
  const { consentId } = await createConsent(bank.tpp);
  offsetMs += 4 * 60_000;
  assert.equal(await statusOf(consentId), "received");
  offsetMs += 2 * 60_000;
  assert.equal(await statusOf(consentId), "rejected");
});

test("a consent read after its validUntil is expired: 401 CONSENT_EXPIRED", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ validUntil: today() }));
  const read = () => bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
  assert.equal((await read()).status, 200);
  const day = today();
  while (today() === day) offsetMs += 30 * 60_000;
  const res = await read();
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.tppMessages[0].code, "CONSENT_EXPIRED");
  assert.equal(await statusOf(consentId), "expired");
});

test("settings outside their bounds are refused at start", () => {
  for (const env of [{ CONSENT_VALIDITY_DAYS_MAX: "365" }, { FREQUENCY_PER_DAY_MAX: "0" },
    { CONSENT_AUTHORISATION_MINUTES: "0" }]) {
    assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError
      && e.message.includes(Object.keys(env)[0] ?? "?"), JSON.stringify(env));
  }
});
