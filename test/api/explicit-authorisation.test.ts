/**
 * TPP-Explicit-Authorisation-Preferred: no redirect on the creation, the TPP starts the
 * authorisation itself; in either dialect (rerun under berlin-group by its .berlin-group file).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, confirm, consentBody, createdStatus, CREATION_HEADERS, inProfile, linkOf, OK_URI,
  optionalLink, paymentBody, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const EXPLICIT = { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "true" };

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

test("a payment without an implicit authorisation: scaRedirect null, startAuthorisation, then POST", async () => {
  const res = await bank.tpp.post(SCT, paymentBody({ debtorAccount: BOB_MAIN }), EXPLICIT);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const self = `${SCT}/${res.body.paymentId}`;
  const startAuthorisation = `${self}/authorisations`;
  // The spec's creation answer keeps its null links; Berlin Group's names the payment's resources.
  const links = bank.tpp.profile === "berlin-group"
    ? { startAuthorisation, self, status: `${self}/status` }
    : { scaRedirect: null, psuMessage: null, tppMessages: null, startAuthorisation };
  assert.deepEqual(res.body._links, inProfile(bank.tpp, { _links: links })._links);
  const started = await bank.tpp.post(startAuthorisation, {});
  assert.equal(started.status, 201, started.text);
  assert.deepEqual(Object.keys(started.body), ["scaStatus", "authorisationId", "_links"]);
  assert.equal(linkOf(bank.tpp, started.body._links.scaStatus),
    `${startAuthorisation}/${started.body.authorisationId}`);
  const browser = bank.browser();
  const scaRedirect = linkOf(bank.tpp, started.body._links.scaRedirect);
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "bob"));
  assert.equal(done.location, OK_URI);
  assert.equal((await bank.tpp.post(startAuthorisation, {})).status, 409);
});

test("a consent without an implicit authorisation, and another TPP cannot start one", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody(), EXPLICIT);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
  const startAuthorisation = linkOf(bank.tpp, res.body._links.startAuthorisation);
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777777" });
  const refused = await other.post(startAuthorisation, {});
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.tppMessages[0].code, "CONSENT_UNKNOWN");
  const started = await bank.tpp.post(startAuthorisation, {});
  assert.equal(started.status, 201, started.text);
  assert.deepEqual((await bank.tpp.get(`/psd2/v1/consents/${res.body.consentId}/authorisations`)).body,
    { authorisationIds: [started.body.authorisationId] });
});
