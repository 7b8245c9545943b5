/**
 * The dashboard's lists as a PSU with history needs them: a revocation asks first; payments are
 * filtered (awaiting authorisation, executed, rejected) and paged; authorisations nobody
 * completed are collapsed out of the way.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { csrfOf, errorText } from "../support/browser.js";
import {
  authorisedConsent, bobsPaymentHistory, BOB_MAIN, CAROL_MAIN,
} from "../support/flows.js";
import { logInDashboard } from "../support/psu.js";
import { startOwnBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const paymentHeadings = (html: string) =>
  [...html.matchAll(/<h3>(€[^<]*)<\/h3>/g)].map((m) => m[1]);
const outsideDetails = (html: string) => html.replace(/<details>[\s\S]*?<\/details>/g, "");
const consentStatus = async (tpp: TppClient, id: string) =>
  (await tpp.get(`/psd2/v1/consents/${id}/status`)).body.consentStatus;

test("revoking asks first, names the provider, and only the confirmation revokes", async (t) => {
  const bank = await startOwnBank(t);
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  const carols = await authorisedConsent(bank.tpp, bank.browser(), "carol", [CAROL_MAIN]);
  const psu = bank.browser();
  const overview = await logInDashboard(psu, "bob");
  assert.match(overview.html, new RegExp(`<form method="get" action="/dashboard/revoke">\\s*`
    + `<input type="hidden" name="consent" value="${consentId}">`));
  const ask = await psu.get(`/dashboard/revoke?consent=${consentId}`);
  assert.equal(ask.status, 200);
  assert.match(ask.html, /<h1>Revoke the access of Demo TPP\?<\/h1>/);
  assert.match(ask.html, /<a class="button secondary" href="\/dashboard">No, keep the access<\/a>/);
  assert.equal(await consentStatus(bank.tpp, consentId), "valid", "asking revokes nothing");
  const foreign = await psu.get(`/dashboard/revoke?consent=${carols}`);
  assert.equal(foreign.status, 400);
  assert.equal(errorText(foreign), "This access cannot be revoked: it has already ended.");
  const done = await psu.post("/dashboard/revoke", { _csrf: csrfOf(ask.html), consent: consentId });
  assert.equal(done.location, "/dashboard?done=revoked");
  assert.equal(await consentStatus(bank.tpp, consentId), "revokedByPsu");
  assert.equal(await consentStatus(bank.tpp, carols), "valid");
});

test("payments are filtered and paged, ten a page; abandoned authorisations are collapsed",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock });
    await bobsPaymentHistory(bank, clock);

    const psu = bank.browser();
    const first = await logInDashboard(psu, "bob");
    assert.equal(paymentHeadings(outsideDetails(first.html)).length, 10);
    assert.match(first.html, /Page 1 of 2<\/span> <a href="\/dashboard\?payments=all&#38;page=2" rel="next">/);
    const second = await psu.get("/dashboard?payments=all&page=2");
    assert.equal(paymentHeadings(outsideDetails(second.html)).length, 2);
    const only = async (filter: string) =>
      paymentHeadings(outsideDetails((await psu.get(`/dashboard?payments=${filter}`)).html));
    assert.equal((await only("awaiting")).length, 10);
    assert.deepEqual(await only("executed"), ["€0.01 to Merchant GmbH"]);
    assert.deepEqual(await only("rejected"), ["€0.02 to Merchant GmbH"]);
    const filtered = await psu.get("/dashboard?payments=rejected");
    assert.match(filtered.html, /<a href="\/dashboard\?payments=rejected" aria-current="page">/);
    const collapsed = /<details><summary>Not completed: never authorised \(1\)<\/summary>([\s\S]*?)<\/details>/
      .exec(first.html)?.[1] ?? "";
    assert.deepEqual(paymentHeadings(collapsed), ["€0.09 to Merchant GmbH"]);
  });
