/**
 * Signing baskets: a TPP groups payments and consents that await their PSU, and the PSU
 * authorises them all with one SCA; afterwards each is carried out as on its own (one refused by
 * the ledger is RJCT, the others stand). Items held by an open basket are blocked on their own.
 * Rerun under berlin-group by its .berlin-group file, every answer checked against the file.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, BOB_MAIN, bookings, cancel, confirm, consentBody, createConsent, createdStatus,
  createPayment, CREATION_HEADERS, linkOf, logIn, NOK_URI, OK_URI, open, optionalLink,
  paymentBody, reachReview,
} from "../support/flows.js";
import { moveBasket } from "../../src/domain/basket/transitions.js";
import { demoPsu, nextTotp } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const BASKETS = "/psd2/v1/signing-baskets";
/** The demo company's account that needs two of its users' signatures. */
const NORDWIND_MAIN = "DE98500100008500000001";
const SCT = "/psd2/v1/payments/sepa-credit-transfers";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const bobPays = (amount: string, creditorName = "Merchant GmbH", on = bank) =>
  createPayment(on.tpp, paymentBody({ debtorAccount: BOB_MAIN, creditorName,
    instructedAmount: { currency: "EUR", amount } }));

/** A consent naming bob's account: balances, no transactions. */
const bobsConsent = (on = bank) => createConsent(on.tpp, consentBody({
  access: { accounts: [{ iban: BOB_MAIN }], balances: [{ iban: BOB_MAIN }] },
}));

async function createBasket(body: object, tpp: TppClient = bank.tpp, headers = {}) {
  return tpp.post(BASKETS, body, { ...CREATION_HEADERS, ...headers });
}

async function statusOf(path: string, field = "transactionStatus", on = bank) {
  const res = await on.tpp.get(`${path}/status`);
  assert.equal(res.status, 200, res.text);
  return res.body[field] as string;
}

function refusal(res: { status: number; body: any; text: string }, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages[0].code, code, res.text);
  return res.body.tppMessages[0] as { code: string; path?: string; text: string };
}

test("two payments and a consent with one SCA: the ledger refuses one payment, the others stand",
  async () => {
    const small = await bobPays("3.20", "Bakery Schmidt");
    const large = await bobPays("50000.00", "Car Dealer AG");
    const consent = await bobsConsent();
    const res = await createBasket({
      paymentIds: [small.paymentId, large.paymentId], consentIds: [consent.consentId],
    });
    assert.equal(res.status, createdStatus(bank.tpp), res.text);
    const { basketId } = res.body;
    const self = `${BASKETS}/${basketId}`;
    assert.equal(res.body.transactionStatus, "RCVD");
    assert.equal(linkOf(bank.tpp, res.body._links.self), self);
    assert.equal(linkOf(bank.tpp, res.body._links.status), `${self}/status`);
    assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
    const read = await bank.tpp.get(self);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual([read.body.payments, read.body.consents, read.body.transactionStatus],
      [[small.paymentId, large.paymentId], [consent.consentId], "RCVD"]);

    const browser = bank.browser();
    const review = await reachReview(browser, linkOf(bank.tpp, res.body._links.scaRedirect), "bob");
    for (const shown of ["Bakery Schmidt", "Car Dealer AG", "€3.20", "€50,000.00", "Total",
      "€50,003.20", "Access to your accounts", "DE51 5001 0000 2000 0000 01"]) {
      assert.ok(review.html.includes(shown), `the review shows ${shown}`);
    }
    const done = await confirm(browser, review);
    assert.equal(done.location, OK_URI);
    assert.match(done.outcome ?? "", /^You authorised the basket/);
    assert.match(done.html, /The bank did not make this payment: the account does not hold enough/);

    assert.equal(await statusOf(self), "ACTC");
    assert.equal(await statusOf(`${SCT}/${small.paymentId}`), "ACSC");
    assert.equal(await statusOf(`${SCT}/${large.paymentId}`), "RJCT");
    assert.equal(await statusOf(`/psd2/v1/consents/${consent.consentId}`, "consentStatus"),
      "valid");
    assert.deepEqual([await bookings(bank, small.paymentId), await bookings(bank, large.paymentId)],
      [1, 0]);
    const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consent.consentId });
    assert.equal(accounts.status, 200, accounts.text);
    const [authorisationId] = (await bank.tpp.get(`${self}/authorisations`)).body.authorisationIds;
    assert.equal((await bank.tpp.get(`${self}/authorisations/${authorisationId}`)).body.scaStatus,
      "finalised");
    // Decided: no deletion, no other authorisation; the payments' own links are over.
    refusal(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
    refusal(await bank.tpp.post(`${self}/authorisations`, {}), 409, "STATUS_INVALID");
    const own = await bank.browser().get(small.scaRedirect);
    assert.match(own.html, /This request has already been decided\./);
  });

test("the PSU cancels the basket: every payment CANC, the consent rejected, the basket RJCT",
  async () => {
    const payment = await bobPays("1.00");
    const consent = await bobsConsent();
    const res = await createBasket({ paymentIds: [payment.paymentId],
      consentIds: [consent.consentId] });
    const self = `${BASKETS}/${res.body.basketId}`;
    const browser = bank.browser();
    const page = await open(browser, linkOf(bank.tpp, res.body._links.scaRedirect));
    const done = await cancel(browser, page);
    assert.equal(done.location, NOK_URI);
    assert.match(done.outcome ?? "", /^You did not authorise the basket/);
    assert.equal(await statusOf(self), "RJCT");
    assert.equal(await statusOf(`${SCT}/${payment.paymentId}`), "CANC");
    assert.equal(await statusOf(`/psd2/v1/consents/${consent.consentId}`, "consentStatus"),
      "rejected");
  });

test("an item in an open basket is blocked on its own until the basket is deleted", async () => {
  const payment = await bobPays("2.00");
  const consent = await bobsConsent();
  const res = await createBasket({ paymentIds: [payment.paymentId],
    consentIds: [consent.consentId] });
  const self = `${BASKETS}/${res.body.basketId}`;
  const paymentPath = `${SCT}/${payment.paymentId}`;
  const consentPath = `/psd2/v1/consents/${consent.consentId}`;
  const blocked = refusal(await bank.tpp.post(`${paymentPath}/authorisations`, {}), 400,
    "RESOURCE_BLOCKED");
  assert.match(blocked.text, new RegExp(res.body.basketId));
  refusal(await bank.tpp.call("DELETE", paymentPath), 400, "RESOURCE_BLOCKED");
  refusal(await bank.tpp.post(`${consentPath}/authorisations`, {}), 400, "RESOURCE_BLOCKED");
  refusal(await bank.tpp.call("DELETE", consentPath), 400, "RESOURCE_BLOCKED");
  // The payment's own link leads nowhere now; the PSU is told why.
  const own = await bank.browser().get(payment.scaRedirect);
  assert.equal(own.status, 400);
  assert.match(own.html, /part of a signing basket/);
  // One open basket at a time.
  const second = refusal(await createBasket({ consentIds: [consent.consentId] }), 400,
    "RESOURCE_BLOCKED");
  assert.equal(second.path, "consentIds[0]");

  const deleted = await bank.tpp.call("DELETE", self);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(await statusOf(self), "CANC");
  refusal(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
  // Free again and unchanged: authorised on its own, or in a new basket.
  assert.equal(await statusOf(paymentPath), "RCVD");
  const started = await bank.tpp.post(`${paymentPath}/authorisations`, {});
  assert.equal(started.status, 201, started.text);
  const again = await createBasket({ consentIds: [consent.consentId] });
  assert.equal(again.status, createdStatus(bank.tpp), again.text);
  // The deleted basket's link no longer opens.
  const link = await bank.browser().get(linkOf(bank.tpp, res.body._links.scaRedirect));
  assert.equal(link.status, 400);
});

test("basket errors: nothing named, twice, unknown, another TPP's, decided, a bulk, bank-offered",
  async () => {
    refusal(await createBasket({}), 400, "REFERENCE_MIX_INVALID");
    const payment = await bobPays("4.00");
    const twice = refusal(await createBasket({ paymentIds: [payment.paymentId, payment.paymentId] }),
      400, "REFERENCE_MIX_INVALID");
    assert.equal(twice.path, "paymentIds[1]");
    const unknown = refusal(await createBasket({ paymentIds: [payment.paymentId, "0".repeat(32)] }),
      400, "RESOURCE_UNKNOWN");
    assert.equal(unknown.path, "paymentIds[1]");
    const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777777" });
    refusal(await createBasket({ paymentIds: [payment.paymentId] }, other), 400,
      "RESOURCE_UNKNOWN");
    const alien = refusal(await createBasket({ consentIds: ["00000000-0000-4000-8000-000000000000"] }),
      400, "CONSENT_UNKNOWN");
    assert.equal(alien.path, "consentIds[0]");

    const decided = await createPayment(bank.tpp, paymentBody({ debtorAccount: ALICE_MAIN }));
    await bank.tpp.call("DELETE", `${SCT}/${decided.paymentId}`);
    const status = refusal(await createBasket({ paymentIds: [payment.paymentId, decided.paymentId] }),
      409, "REFERENCE_STATUS_INVALID");
    assert.equal(status.path, "paymentIds[1]");
    assert.match(status.text, /CANC/);

    const bulk = await bank.tpp.post("/psd2/v1/bulk-payments/sepa-credit-transfers", {
      debtorAccount: ALICE_MAIN, payments: [paymentBody(), paymentBody()].map(
        ({ debtorAccount: _debtor, ...entry }) => entry),
    }, CREATION_HEADERS);
    assert.equal(bulk.status, createdStatus(bank.tpp), bulk.text);
    refusal(await createBasket({ paymentIds: [bulk.body.paymentId] }), 400,
      "REFERENCE_MIX_INVALID");
    const offered = await createConsent(bank.tpp, consentBody({
      access: { accounts: [], balances: [], transactions: [] } }));
    refusal(await createBasket({ consentIds: [offered.consentId] }), 400, "REFERENCE_MIX_INVALID");

    // Nothing refused changed anything: the payment is free for a basket and for itself.
    const fine = await createBasket({ paymentIds: [payment.paymentId] });
    assert.equal(fine.status, createdStatus(bank.tpp), fine.text);
    const self = `${BASKETS}/${fine.body.basketId}`;
    refusal(await other.get(self), 404, "RESOURCE_UNKNOWN");
    refusal(await other.call("DELETE", self), 404, "RESOURCE_UNKNOWN");
    refusal(await bank.tpp.get(`${BASKETS}/${"f".repeat(32)}/status`), 404, "RESOURCE_UNKNOWN");
  });

test("TPP-Explicit-Authorisation-Preferred: no redirect on creation; the TPP starts one", async () => {
  const payment = await bobPays("5.00");
  const res = await createBasket({ paymentIds: [payment.paymentId] }, bank.tpp,
    { "TPP-Explicit-Authorisation-Preferred": "true" });
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
  const self = `${BASKETS}/${res.body.basketId}`;
  assert.equal(linkOf(bank.tpp, res.body._links.startAuthorisation), `${self}/authorisations`);
  const started = await bank.tpp.post(`${self}/authorisations`, {});
  assert.equal(started.status, 201, started.text);
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, linkOf(bank.tpp, started.body._links.scaRedirect), "bob"));
  assert.equal(done.location, OK_URI);
  assert.equal(await statusOf(`${SCT}/${payment.paymentId}`), "ACSC");
});

test("alice may not authorise bob's basket: refused after her password, nothing changes",
  async () => {
    const payment = await bobPays("6.00");
    const res = await createBasket({ paymentIds: [payment.paymentId] });
    const browser = bank.browser();
    const page = await open(browser, linkOf(bank.tpp, res.body._links.scaRedirect));
    const refused = await logIn(browser, page, "alice", "alice-demo");
    assert.equal(refused.status, 401);
    assert.match(refused.html, /not yours/);
    assert.equal(await statusOf(`${BASKETS}/${res.body.basketId}`), "RCVD");
  });

test("embedded: alice's password, then her code, authorise the basket; each item is carried out",
  async (t) => {
    const own = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect,embedded" } });
    const payment = await createPayment(own.tpp, paymentBody());
    const consent = await createConsent(own.tpp, consentBody({
      access: { accounts: [{ iban: ALICE_MAIN }] } }));
    const res = await own.tpp.post(BASKETS, {
      paymentIds: [payment.paymentId], consentIds: [consent.consentId],
    }, { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-Preferred": "false", "PSU-ID": "alice" });
    assert.equal(res.status, createdStatus(own.tpp), res.text);
    assert.equal(res.headers["aspsp-sca-approach"], "EMBEDDED");
    const next = linkOf(own.tpp, res.body._links.updatePsuAuthentication);
    const put = (body: object) => own.tpp.call("PUT", next, { body });
    const authenticated = await put({ psuData: { password: demoPsu("alice").password } });
    assert.equal(authenticated.status, 200, authenticated.text);
    assert.equal(authenticated.body.scaStatus, "scaMethodSelected");
    const device = demoPsu("alice").device;
    assert.equal(device.kind, "totp");
    const done = await put({ scaAuthenticationData: await nextTotp(device.secret, own.authUrl) });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.scaStatus, "finalised");
    const status = async (path: string, field = "transactionStatus") =>
      (await own.tpp.get(`${path}/status`)).body[field];
    assert.equal(await status(`${BASKETS}/${res.body.basketId}`), "ACTC");
    assert.equal(await status(`${SCT}/${payment.paymentId}`), "ACSC");
    assert.equal(await status(`/psd2/v1/consents/${consent.consentId}`, "consentStatus"),
      "valid");
  });

test("a crash between the decision and its items: the sweep carries each out once", async (t) => {
  // A bank of its own without the decoupled approach, whose sweep (every 2 s) would carry the
  // items out between the crash and the reads that show them held; nor the minute's sweep.
  const own = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect,embedded" } });
  own.app.scheduler.stop();
  const payment = await bobPays("7.00", undefined, own);
  const consent = await bobsConsent(own);
  const res = await createBasket({ paymentIds: [payment.paymentId],
    consentIds: [consent.consentId] }, own.tpp);
  const { store } = own.app;
  const bob = await store.psus.findByLogin(store.db, "bob");
  assert.ok(bob);
  // The decision's transaction committed, and the process died before the items' own.
  await store.transaction((tx) => moveBasket({ store }, tx, res.body.basketId, "authorise",
    { at: new Date().toISOString(), psuId: bob.id }));
  const paymentStatus = () => statusOf(`${SCT}/${payment.paymentId}`, undefined, own);
  assert.equal(await paymentStatus(), "RCVD");
  refusal(await own.tpp.post(`${SCT}/${payment.paymentId}/authorisations`, {}), 400,
    "RESOURCE_BLOCKED");
  assert.equal(await own.app.carryOutBaskets(), 1);
  assert.equal(await paymentStatus(), "ACSC");
  assert.equal(await statusOf(`/psd2/v1/consents/${consent.consentId}`, "consentStatus", own),
    "valid");
  assert.equal(await own.app.carryOutBaskets(), 0);
  assert.equal(await bookings(own, payment.paymentId), 1);
});

test("two baskets racing for one payment: exactly one holds it", async () => {
  const payment = await bobPays("8.00");
  const answers = await Promise.all([1, 2, 3].map(() =>
    createBasket({ paymentIds: [payment.paymentId] })));
  const created = answers.filter((r) => r.status === createdStatus(bank.tpp));
  assert.equal(created.length, 1, answers.map((r) => r.text).join("\n"));
  for (const r of answers.filter((a) => a !== created[0])) refusal(r, 400, "RESOURCE_BLOCKED");
});

test("decoupled: alice approves the basket in her bank app; each item is carried out", async (t) => {
  const own = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
  const payment = await createPayment(own.tpp, paymentBody());
  const consent = await createConsent(own.tpp, consentBody({
    access: { accounts: [{ iban: ALICE_MAIN }] } }));
  const res = await own.tpp.post(BASKETS, {
    paymentIds: [payment.paymentId], consentIds: [consent.consentId],
  }, { "PSU-IP-Address": "192.0.2.1", "TPP-Decoupled-Preferred": "true", "PSU-ID": "alice" });
  assert.equal(res.status, createdStatus(own.tpp), res.text);
  assert.equal(res.headers["aspsp-sca-approach"], "DECOUPLED");
  const approved = await own.browser().post("/sandbox/app/alice/approve", {});
  assert.equal(approved.status, 200, approved.html);
  assert.deepEqual(JSON.parse(approved.html), { authorisationId: JSON.parse(approved.html)
    .authorisationId, resourceType: "basket", resourceId: res.body.basketId,
  scaStatus: "finalised" });
  const status = async (path: string, field = "transactionStatus") =>
    (await own.tpp.get(`${path}/status`)).body[field];
  assert.equal(await status(`${BASKETS}/${res.body.basketId}`), "ACTC");
  assert.equal(await status(`${SCT}/${payment.paymentId}`), "ACSC");
  assert.equal(await status(`/psd2/v1/consents/${consent.consentId}`, "consentStatus"), "valid");
});

test("a consent naming an account not the PSU's is refused alone; the payment goes on",
  async () => {
    const payment = await bobPays("9.00");
    const foreign = await createConsent(bank.tpp, consentBody({
      access: { accounts: [{ iban: ALICE_MAIN }] } }));
    const res = await createBasket({ paymentIds: [payment.paymentId],
      consentIds: [foreign.consentId] });
    const browser = bank.browser();
    const review = await reachReview(browser, linkOf(bank.tpp, res.body._links.scaRedirect), "bob");
    assert.match(review.html, /These accounts are not yours: DE96500100001000000001\./);
    const done = await confirm(browser, review);
    assert.equal(done.location, OK_URI);
    assert.equal(await statusOf(`${SCT}/${payment.paymentId}`), "ACSC");
    assert.equal(await statusOf(`/psd2/v1/consents/${foreign.consentId}`, "consentStatus"),
      "rejected");
  });

test("a basket with a payment that needs two signatures: PATC after karl, carried out after jana",
  async () => {
    const corporate = (cents: number) => bank.tpp.post(SCT, paymentBody({
      debtorAccount: NORDWIND_MAIN, instructedAmount: { currency: "EUR", amount: cents / 100 },
    }), { ...CREATION_HEADERS, "PSU-Corporate-ID": "nordwind" });
    const [two, more] = [await corporate(700), await corporate(800)];
    const res = await createBasket({ paymentIds: [two.body.paymentId, more.body.paymentId] });
    assert.equal(res.status, createdStatus(bank.tpp), res.text);
    // Berlin Group: with several authorisations, no scaRedirect in the creation's answer.
    assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
    const self = `${BASKETS}/${res.body.basketId}`;
    const start = linkOf(bank.tpp, res.body._links.startAuthorisation);
    const signOn = async (login: string) => {
      const started = await bank.tpp.post(start, {}, CREATION_HEADERS);
      assert.equal(started.status, 201, started.text);
      const browser = bank.browser();
      return confirm(browser,
        await reachReview(browser, linkOf(bank.tpp, started.body._links.scaRedirect), login));
    };
    assert.equal((await signOn("karl")).location, OK_URI);
    assert.equal(await statusOf(self), "PATC");
    for (const payment of [two, more]) {
      assert.equal(await statusOf(`${SCT}/${payment.body.paymentId}`), "RCVD");
    }
    refusal(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
    const again = bank.browser();
    const login = await open(again, linkOf(bank.tpp,
      (await bank.tpp.post(start, {}, CREATION_HEADERS)).body._links.scaRedirect));
    // Karl again: refused right after his password, before any code is spent.
    const twice = await again.follow(await logIn(again, login, "karl", "karl-demo"));
    assert.match(twice.html, /You have signed this already/);
    assert.doesNotMatch(twice.html, /name="code"/);
    assert.equal((await signOn("jana")).location, OK_URI);
    assert.equal(await statusOf(self), "ACTC");
    for (const payment of [two, more]) {
      assert.equal(await statusOf(`${SCT}/${payment.body.paymentId}`), "ACSC");
      assert.equal(await bookings(bank, payment.body.paymentId), 1);
    }
  });
