/**
 * TPP-Explicit-Authorisation-Preferred in the spec's dialect: the same rules as under
 * berlin-group (test/api/berlin-group.test.ts), with plain-string links.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BOB_MAIN, confirm, consentBody, OK_URI, paymentBody, reachReview, REDIRECTS } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const EXPLICIT = { ...REDIRECTS, "TPP-Explicit-Authorisation-Preferred": "true" };

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

test("a payment without an implicit authorisation: scaRedirect null, startAuthorisation, then POST", async () => {
  const res = await bank.tpp.post(SCT, paymentBody({ debtorAccount: BOB_MAIN }), EXPLICIT);
  assert.equal(res.status, 200, res.text);
  const self = `${SCT}/${res.body.paymentId}`;
  assert.deepEqual(res.body._links,
    { scaRedirect: null, psuMessage: null, tppMessages: null, startAuthorisation: `${self}/authorisations` });
  const started = await bank.tpp.post(res.body._links.startAuthorisation, {});
  assert.equal(started.status, 201, started.text);
  assert.deepEqual(Object.keys(started.body), ["scaStatus", "authorisationId", "_links"]);
  assert.equal(started.body._links.scaStatus, `${self}/authorisations/${started.body.authorisationId}`);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, started.body._links.scaRedirect, "bob"));
  assert.equal(done.location, OK_URI);
  assert.equal((await bank.tpp.post(res.body._links.startAuthorisation, {})).status, 409);
});

test("a consent without an implicit authorisation, and another TPP cannot start one", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody(), EXPLICIT);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body._links.scaRedirect, null);
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777777" });
  const refused = await other.post(res.body._links.startAuthorisation, {});
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.tppMessages[0].code, "CONSENT_UNKNOWN");
  const started = await bank.tpp.post(res.body._links.startAuthorisation, {});
  assert.equal(started.status, 201, started.text);
  assert.deepEqual((await bank.tpp.get(`/psd2/v1/consents/${res.body.consentId}/authorisations`)).body,
    { authorisationIds: [started.body.authorisationId] });
});
