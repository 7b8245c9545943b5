/**
 * AUTHORISATION_CONFIRMATION, Berlin Group's authorisation confirmation: after the PSU's SCA the
 * redirect back carries a one-time confirmationCode, the authorisation is `unconfirmed`, and only
 * the TPP's PUT of that code authorises the payment or consent. Off by default. Rerun under the
 * berlin-group profile and on PostgreSQL by their own files.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { TppClient } from "../support/tpp-client.js";
import {
  BOB_MAIN, bookings, cancel, confirm, createConsent, createPayment, CREATION_HEADERS, linkOf, NOK_URI,
  OK_URI, paymentBody, reachReview,
} from "../support/flows.js";
import { authoriseInBrowser, client, oauthClient, pushRequest } from "../support/oauth-client.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const ALICE_IBANS = ["DE96500100001000000001"];

let bank: TestBank;
let plain: TestBank;
before(async () => {
  [bank, plain] = await Promise.all([
    // /v2 takes no confirmation code yet: a bank confirming authorisations serves /v1 alone.
    startBank({ env: { AUTHORISATION_CONFIRMATION: "true", API_VERSIONS: "v1" } }), startBank(),
  ]);
});
after(async () => { await Promise.all([bank.close(), plain.close()]); });

async function authorisationOf(tpp: TppClient, resource: string): Promise<string> {
  const res = await tpp.get(`${resource}/authorisations`);
  assert.equal(res.status, 200, res.text);
  return res.body.authorisationIds[0] as string;
}

const put = (tpp: TppClient, path: string, body: unknown) => tpp.call("PUT", path, { body });

/** The confirmationCode query parameter of the way back, if any. */
const codeIn = (location: string) => new URL(location).searchParams.get("confirmationCode");

/** A payment Alice confirmed on the bank's pages: its path, authorisation and the way back. */
async function paymentConfirmedByPsu(target: TestBank) {
  const { paymentId, scaRedirect } = await createPayment(target.tpp);
  const browser = target.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(done.status, 200, done.html);
  assert.match(done.outcome ?? "", /^(Confirmed\. It takes effect once .+ confirms it|The payment)/);
  const resource = `${SCT}/${paymentId}`;
  const authorisation = `${resource}/authorisations/${await authorisationOf(target.tpp, resource)}`;
  return { paymentId, resource, authorisation, location: done.location ?? "" };
}

async function statesOf(target: TestBank, p: { resource: string; authorisation: string }) {
  const status = await target.tpp.get(`${p.resource}/status`);
  const sca = await target.tpp.get(p.authorisation);
  return { transactionStatus: status.body.transactionStatus, scaStatus: sca.body.scaStatus };
}

test("off by default: the way back carries no code and the payment is authorised at once", async () => {
  const p = await paymentConfirmedByPsu(plain);
  assert.equal(p.location, OK_URI);
  assert.equal((await statesOf(plain, p)).scaStatus, "finalised");
  assert.equal(await bookings(plain, p.paymentId), 1);
  const res = await put(plain.tpp, p.authorisation, { confirmationCode: "anything" });
  assert.equal(res.status, 400, res.text);
});

test("on: the way back carries the code, and nothing is authorised until the TPP sends it", async () => {
  const p = await paymentConfirmedByPsu(bank);
  assert.ok(p.location.startsWith(`${OK_URI}?confirmationCode=`), p.location);
  const code = codeIn(p.location);
  assert.ok(code && code.length >= 16, p.location);
  assert.deepEqual(await statesOf(bank, p), { transactionStatus: "RCVD", scaStatus: "unconfirmed" });
  assert.equal(await bookings(bank, p.paymentId), 0);

  const wrong = await put(bank.tpp, p.authorisation, { confirmationCode: `${code}x` });
  assert.equal(wrong.status, 400, wrong.text);
  assert.equal(wrong.body.tppMessages[0].code, "FORMAT_ERROR");
  assert.equal(wrong.body.tppMessages[0].path, "confirmationCode");
  assert.deepEqual(await statesOf(bank, p), { transactionStatus: "RCVD", scaStatus: "unconfirmed" });

  const other = await bank.tppWith({});
  const stolen = await put(other, p.authorisation, { confirmationCode: code });
  assert.ok([403, 404].includes(stolen.status), stolen.text);
  assert.deepEqual(await statesOf(bank, p), { transactionStatus: "RCVD", scaStatus: "unconfirmed" });
  assert.equal(await bookings(bank, p.paymentId), 0);

  const right = await put(bank.tpp, p.authorisation, { confirmationCode: code });
  assert.equal(right.status, 200, right.text);
  assert.equal(right.body.scaStatus, "finalised");
  const status = right.body._links.status;
  assert.equal(typeof status === "string" ? status : status.href, `${p.resource}/status`);
  const after = await statesOf(bank, p);
  assert.equal(after.scaStatus, "finalised");
  assert.notEqual(after.transactionStatus, "RCVD");
  assert.equal(await bookings(bank, p.paymentId), 1);

  const replay = await put(bank.tpp, p.authorisation, { confirmationCode: code });
  assert.equal(replay.status, 400, replay.text);
  assert.equal(replay.body.tppMessages[0].code, "SCA_INVALID");
  assert.equal(await bookings(bank, p.paymentId), 1);
});

test("on: two confirmations at once book the payment once", async () => {
  const p = await paymentConfirmedByPsu(bank);
  const code = codeIn(p.location);
  const answers = await Promise.all([1, 2, 3].map(() =>
    put(bank.tpp, p.authorisation, { confirmationCode: code })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400]);
  assert.equal(await bookings(bank, p.paymentId), 1);
});

test("on: wrong codes count; as many as a PSU's failed logins end the authorisation", async () => {
  const p = await paymentConfirmedByPsu(bank);
  const max = bank.app.config.loginFailuresMax;
  for (let i = 0; i < max; i += 1) {
    const res = await put(bank.tpp, p.authorisation, { confirmationCode: `wrong-${i}` });
    assert.equal(res.status, 400, res.text);
  }
  assert.equal((await statesOf(bank, p)).scaStatus, "failed");
  const late = await put(bank.tpp, p.authorisation, { confirmationCode: codeIn(p.location) });
  assert.equal(late.status, 400, late.text);
  assert.equal(late.body.tppMessages[0].code, "SCA_INVALID");
  assert.equal(await bookings(bank, p.paymentId), 0);
});

test("on: a consent is valid only once the TPP confirms", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"), ALICE_IBANS);
  const code = codeIn(done.location ?? "");
  assert.ok(code, done.location);
  assert.match(done.outcome ?? "", /^Confirmed\. It takes effect once .+ confirms it/);
  const resource = `/psd2/v1/consents/${consentId}`;
  const authorisation = `${resource}/authorisations/${await authorisationOf(bank.tpp, resource)}`;
  assert.equal((await bank.tpp.get(`${resource}/status`)).body.consentStatus, "received");
  assert.equal((await bank.tpp.get(authorisation)).body.scaStatus, "unconfirmed");
  const right = await put(bank.tpp, authorisation, { confirmationCode: code });
  assert.equal(right.status, 200, right.text);
  assert.equal(right.body.scaStatus, "finalised");
  assert.equal((await bank.tpp.get(`${resource}/status`)).body.consentStatus, "valid");
});

test("on: a PSU's cancel still goes back to the NOK URI without a code", async () => {
  const { scaRedirect } = await createPayment(bank.tpp);
  const browser = bank.browser();
  const back = await cancel(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(back.location, NOK_URI);
});

test("on: a redirect's answers offer _links.confirmation, the authorisation to confirm on", async () => {
  const created = await bank.tpp.post(SCT, paymentBody(), CREATION_HEADERS);
  const resource = `${SCT}/${created.body.paymentId}`;
  const authorisation = `${resource}/authorisations/${await authorisationOf(bank.tpp, resource)}`;
  if (bank.tpp.profile === "berlin-group") {
    assert.equal(linkOf(bank.tpp, created.body._links.confirmation), authorisation);
  }
  const started = await bank.tpp.post(`${resource}/authorisations`, {}, {});
  assert.equal(started.status, 201, started.text);
  const self = linkOf(bank.tpp, started.body._links.scaStatus);
  assert.equal(linkOf(bank.tpp, started.body._links.confirmation), self);
  const { paymentId } = await createPayment(plain.tpp);
  const off = await plain.tpp.post(`${SCT}/${paymentId}/authorisations`, {}, {});
  assert.equal(off.status, 201, off.text);
  assert.equal(off.body._links.confirmation ?? null, null);
});

test("on, the OAuth approach: the authorisation response carries the code beside the OAuth "
  + "code; the token reaches nothing authorised until the TPP confirms", async () => {
  const { paymentId } = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
  const config = await oauthClient(bank);
  const { url, verifier, state } = await pushRequest(config, `PIS:${paymentId}`);
  const callback = await authoriseInBrowser(bank.browser(), url, "bob");
  const code = callback.searchParams.get("confirmationCode");
  assert.ok(code && code.length >= 16, callback.href);
  const tokens = await client.authorizationCodeGrant(config, callback,
    { pkceCodeVerifier: verifier, expectedState: state });
  assert.ok(tokens.access_token);
  const resource = `${SCT}/${paymentId}`;
  const p = { resource,
    authorisation: `${resource}/authorisations/${await authorisationOf(bank.tpp, resource)}` };
  assert.deepEqual(await statesOf(bank, p), { transactionStatus: "RCVD", scaStatus: "unconfirmed" });
  const right = await put(bank.tpp, p.authorisation, { confirmationCode: code });
  assert.equal(right.status, 200, right.text);
  assert.deepEqual(await statesOf(bank, p), { transactionStatus: "ACSC", scaStatus: "finalised" });
});
