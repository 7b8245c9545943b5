/**
 * Signing Basket API 2.4 at /v2: a basket of /v2 payments and /v2 consents, authorised with one
 * SCA by redirect (the PSU's browser), embedded (the TPP's PUTs) and decoupled (the PSU's app), by
 * several users of a company (multi-level SCA), deleted before its authorisation; a /v1 item in a
 * /v2 basket, a /v2 item in a /v1 basket and a basket read through the other interface are
 * refused, and nothing refused changes anything. Every /v2 request and answer is checked against
 * the openFinance files (the BASK file among them) by the test client (test/support/openfinance.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, BOB_MAIN, bookings, confirm, createConsent, createdStatus, createPayment,
  CREATION_HEADERS, consentBody, OK_URI, open, paymentBody, reachReview,
} from "../support/flows.js";
import { demoPsu, lastSmsCode } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";
import { accountAccessConsent, CLIENT, singlePayment } from "../support/v2-bodies.js";

const V2 = "/psd2/v2";
const BASKETS = `${V2}/signing-baskets`;
const SCT = `${V2}/payments/sepa-credit-transfers`;
const CONSENTS = `${V2}/consents/account-access`;
/** The demo company's account that needs two of its users' signatures. */
const NORDWIND_MAIN = "DE98500100008500000001";
const PRESENT = { "PSU-IP-Address": "192.0.2.1" };
const prefer = (approach: string, psuId: string) =>
  ({ ...PRESENT, "Client-SCA-Approach-Preference": approach, "PSU-ID": psuId });

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
});
after(async () => { await bank.close(); });

async function created(path: string, body: object, headers: Record<string, string> = CLIENT) {
  const res = await bank.tpp.post(path, body, headers);
  assert.equal(res.status, 201, res.text);
  return (res.body.paymentId ?? res.body.consentId) as string;
}

/** A /v2 payment of bob's and a /v2 consent on his account, both awaiting their PSU. */
async function bobsItems(amount = "12.50") {
  return {
    paymentIds: [await created(SCT, singlePayment({
      instructedAmount: { currency: "EUR", amount } }))],
    consentIds: [await created(CONSENTS, accountAccessConsent(["balances"], BOB_MAIN))],
  };
}

const statusOf = async (path: string, field = "transactionStatus") => {
  const res = await bank.tpp.get(`${path}/status`);
  assert.equal(res.status, 200, res.text);
  return res.body[field] as string;
};

const href = (res: TppResponse, link: string): string => {
  const found = res.body._links?.[link]?.href;
  assert.equal(typeof found, "string", `no ${link} link: ${res.text}`);
  return found;
};

function refused(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  const [message] = res.body.apiClientMessages;
  assert.equal(message.code, code, res.text);
  return message as { code: string; path?: string; text: string };
}

/** The basket's payment executed, its consent valid, the basket ACTC. */
async function carriedOut(basketId: string, items: { paymentIds: string[]; consentIds: string[] }) {
  assert.equal(await statusOf(`${BASKETS}/${basketId}`), "ACTC");
  assert.equal(await statusOf(`${SCT}/${items.paymentIds[0]}`), "ACSC");
  assert.equal(await statusOf(`${CONSENTS}/${items.consentIds[0]}`, "consentStatus"), "valid");
  assert.equal(await bookings(bank, items.paymentIds[0]!), 1);
}

test("redirect: bob authorises a basket of a /v2 payment and a /v2 consent in his browser",
  async () => {
    const items = await bobsItems();
    const res = await bank.tpp.post(BASKETS, items, CLIENT);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
    assert.equal(res.headers["x-reference-api-version"], "2.4");
    const { basketId } = res.body;
    const self = `${BASKETS}/${basketId}`;
    assert.equal(res.headers.location, self);
    assert.deepEqual([res.body.transactionStatus, href(res, "self"), href(res, "status")],
      ["RCVD", self, `${self}/status`]);
    const read = await bank.tpp.get(self);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual([read.body.paymentIds, read.body.consentIds, read.body.transactionStatus],
      [items.paymentIds, items.consentIds, "RCVD"]);
    const browser = bank.browser();
    const review = await reachReview(browser, href(res, "scaRedirect"), "bob");
    assert.ok(review.html.includes("Access to your accounts"), review.html);
    assert.equal((await confirm(browser, review)).location, OK_URI);
    await carriedOut(basketId, items);
    const list = await bank.tpp.get(`${self}/authorisations`);
    assert.equal(list.body.authorisationIds.length, 1, list.text);
    const [authorisationId] = list.body.authorisationIds;
    assert.equal((await bank.tpp.get(href(res, "scaStatus"))).body.scaStatus, "finalised");
    assert.equal(href(res, "scaStatus"), `${self}/authorisations/${authorisationId}`);
    // Decided: no deletion, no other authorisation.
    refused(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
    refused(await bank.tpp.post(`${self}/authorisations`, undefined, CLIENT), 409,
      "STATUS_INVALID");
  });

test("embedded: bob's password, then his SMS code, by PUT; each item is carried out", async () => {
  const items = await bobsItems("3.20");
  const res = await bank.tpp.post(BASKETS, items, prefer("embedded", "bob"));
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-sca-approach"], "EMBEDDED");
  const put = (path: string, body: object) => bank.tpp.call("PUT", path, { body });
  const authenticated = await put(href(res, "updatePsuAuthentication"),
    { psuData: { password: demoPsu("bob").password } });
  assert.equal(authenticated.status, 200, authenticated.text);
  assert.equal(authenticated.headers["x-reference-api-version"], "2.4");
  assert.equal(authenticated.body.scaStatus, "scaMethodSelected");
  const { code, text } = await lastSmsCode(bank.browser(), "bob");
  assert.match(text, /basket/i);
  const done = await put(href(authenticated, "authoriseTransaction"),
    { scaAuthenticationData: code });
  assert.equal(done.body.scaStatus, "finalised", done.text);
  await carriedOut(res.body.basketId, items);
});

test("decoupled: bob approves the basket in his app; received, then finalised", async () => {
  const items = await bobsItems("4.10");
  const res = await bank.tpp.post(BASKETS, items, prefer("decoupled", "bob"));
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers["aspsp-sca-approach"], "DECOUPLED");
  assert.match(res.body.psuMessage, /app/);
  const scaStatus = href(res, "scaStatus");
  assert.equal((await bank.tpp.get(scaStatus)).body.scaStatus, "received");
  const acted = await bank.browser().post("/sandbox/app/bob/approve", {});
  assert.equal(acted.status, 200, acted.html);
  assert.equal(JSON.parse(acted.html).resourceId, res.body.basketId);
  assert.equal((await bank.tpp.get(scaStatus)).body.scaStatus, "finalised");
  await carriedOut(res.body.basketId, items);
});

test("embedded, started by the TPP: Client-Explicit-Authorisation-Preferred, then a password",
  async () => {
    const items = await bobsItems("4.20");
    const res = await bank.tpp.post(BASKETS, items,
      { ...prefer("embedded", "bob"), "Client-Explicit-Authorisation-Preferred": "true" });
    assert.equal(res.status, 201, res.text);
    const start = href(res, "startAuthorisationWithPsuAuthentication");
    assert.equal(start, `${BASKETS}/${res.body.basketId}/authorisations`);
    const started = await bank.tpp.post(start, { psuData: { password: demoPsu("bob").password } },
      prefer("embedded", "bob"));
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.scaStatus, "scaMethodSelected");
    const { code } = await lastSmsCode(bank.browser(), "bob");
    const done = await bank.tpp.call("PUT", href(started, "authoriseTransaction"),
      { body: { scaAuthenticationData: code } });
    assert.equal(done.body.scaStatus, "finalised", done.text);
    await carriedOut(res.body.basketId, items);
  });

test("multi-level SCA: two /v2 payments needing two signatures; PATC after karl, done after jana",
  async () => {
    const corporate = (amount: string) => created(SCT, singlePayment({
      debtorAccount: { iban: NORDWIND_MAIN }, instructedAmount: { currency: "EUR", amount } }),
    { ...CLIENT, "PSU-Corporate-ID": "nordwind" });
    const paymentIds = [await corporate("7.00"), await corporate("8.00")];
    const res = await bank.tpp.post(BASKETS, { paymentIds }, CLIENT);
    assert.equal(res.status, 201, res.text);
    // With several authorisations, none is started at creation.
    assert.equal(res.body._links.scaRedirect, undefined);
    const self = `${BASKETS}/${res.body.basketId}`;
    const start = href(res, "startAuthorisation");
    const signOn = async (login: string) => {
      const started = await bank.tpp.post(start, undefined, CLIENT);
      assert.equal(started.status, 201, started.text);
      const browser = bank.browser();
      return confirm(browser, await reachReview(browser, href(started, "scaRedirect"), login));
    };
    assert.equal((await signOn("karl")).location, OK_URI);
    assert.equal(await statusOf(self), "PATC");
    for (const id of paymentIds) assert.equal(await statusOf(`${SCT}/${id}`), "RCVD");
    refused(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
    assert.equal((await signOn("jana")).location, OK_URI);
    assert.equal(await statusOf(self), "ACTC");
    for (const id of paymentIds) {
      assert.equal(await statusOf(`${SCT}/${id}`), "ACSC");
      assert.equal(await bookings(bank, id), 1);
    }
    assert.equal((await bank.tpp.get(`${self}/authorisations`)).body.authorisationIds.length, 2);
  });

test("cancellation: DELETE before the authorisation; the basket CANC, its items free, unchanged",
  async () => {
    const items = await bobsItems("5.00");
    const res = await bank.tpp.post(BASKETS, items, CLIENT);
    const self = `${BASKETS}/${res.body.basketId}`;
    const payment = `${SCT}/${items.paymentIds[0]}`;
    refused(await bank.tpp.post(`${payment}/authorisations`, undefined, CLIENT), 400,
      "RESOURCE_BLOCKED");
    const deleted = await bank.tpp.call("DELETE", self);
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(await statusOf(self), "CANC");
    refused(await bank.tpp.call("DELETE", self), 409, "STATUS_INVALID");
    assert.equal((await bank.tpp.get(href(res, "scaStatus"))).body.scaStatus, "failed");
    // The deleted basket's link no longer opens; the items are free for a basket of their own.
    assert.equal((await bank.browser().get(href(res, "scaRedirect"))).status, 400);
    assert.equal(await statusOf(payment), "RCVD");
    const again = await bank.tpp.post(BASKETS, items, CLIENT);
    assert.equal(again.status, 201, again.text);
  });

test("a /v1 item in a /v2 basket and a /v2 item in a /v1 basket are refused; nothing changes",
  async () => {
    const v1Payment = (await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN })))
      .paymentId;
    const v1Consent = (await createConsent(bank.tpp, consentBody({
      access: { accounts: [{ iban: BOB_MAIN }] } }))).consentId;
    const v2 = await bobsItems("6.00");
    const payment = refused(await bank.tpp.post(BASKETS,
      { paymentIds: [v2.paymentIds[0], v1Payment] }, CLIENT), 400, "RESOURCE_UNKNOWN");
    assert.equal(payment.path, "paymentIds[1]");
    assert.match(payment.text, /created through \/v1; use it through \/v1 only/);
    const consent = refused(await bank.tpp.post(BASKETS,
      { paymentIds: v2.paymentIds, consentIds: [v1Consent] }, CLIENT), 400, "CONSENT_UNKNOWN");
    assert.equal(consent.path, "consentIds[0]");
    assert.match(consent.text, /through \/v1/);
    const v1Baskets = "/psd2/v1/signing-baskets";
    for (const body of [{ paymentIds: v2.paymentIds }, { consentIds: v2.consentIds }]) {
      const res = await bank.tpp.post(v1Baskets, body, CREATION_HEADERS);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.tppMessages[0].text, /through \/v2/);
    }
    // Nothing refused held anything: each interface's items go in a basket of their own.
    const ofV2 = await bank.tpp.post(BASKETS, v2, CLIENT);
    assert.equal(ofV2.status, 201, ofV2.text);
    const ofV1 = await bank.tpp.post(v1Baskets, { paymentIds: [v1Payment],
      consentIds: [v1Consent] }, CREATION_HEADERS);
    assert.equal(ofV1.status, createdStatus(bank.tpp), ofV1.text);
    // A basket is unknown through the other interface, saying where it lives.
    const wrongWay = await bank.tpp.get(`${v1Baskets}/${ofV2.body.basketId}`);
    assert.equal(wrongWay.status, 404, wrongWay.text);
    assert.match(wrongWay.body.tppMessages[0].text, /through \/v2/);
    for (const path of ["", "/status", "/authorisations"]) {
      assert.match(refused(await bank.tpp.get(`${BASKETS}/${ofV1.body.basketId}${path}`), 404,
        "RESOURCE_UNKNOWN").text, /through \/v1/);
    }
    refused(await bank.tpp.call("DELETE", `${BASKETS}/${ofV1.body.basketId}`), 404,
      "RESOURCE_UNKNOWN");
    assert.equal(await statusOf(`${v1Baskets}/${ofV1.body.basketId}`), "RCVD");
  });

test("bad baskets get Berlin Group errors and change nothing", async () => {
  const items = await bobsItems("6.50");
  refused(await bank.tpp.post(BASKETS, {}, CLIENT), 400, "REFERENCE_MIX_INVALID");
  const twice = refused(await bank.tpp.post(BASKETS,
    { paymentIds: [items.paymentIds[0], items.paymentIds[0]] }, CLIENT), 400,
  "REFERENCE_MIX_INVALID");
  assert.equal(twice.path, "paymentIds[1]");
  // The bank's baskets hold payments and consents only.
  refused(await bank.tpp.post(BASKETS, { ...items, subscriptionIds: ["s-1"] }, CLIENT), 400,
    "FORMAT_ERROR");
  refused(await bank.tpp.post(BASKETS, items, { ...CLIENT, "PSU-IP-Address": null }), 400,
    "FORMAT_ERROR");
  refused(await bank.tpp.post(BASKETS, items, { ...CLIENT, "Client-Redirect-URI": null }), 400,
    "FORMAT_ERROR");
  const unknown = refused(await bank.tpp.post(BASKETS, { paymentIds: ["0".repeat(32)] }, CLIENT),
    400, "RESOURCE_UNKNOWN");
  assert.equal(unknown.path, "paymentIds[0]");
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-777777" });
  refused(await other.post(BASKETS, items, CLIENT), 400, "RESOURCE_UNKNOWN");
  const decided = await created(SCT, singlePayment({ debtorAccount: { iban: ALICE_MAIN } }));
  await bank.tpp.call("DELETE", `${SCT}/${decided}`);
  const status = refused(await bank.tpp.post(BASKETS,
    { paymentIds: [items.paymentIds[0], decided] }, CLIENT), 409, "REFERENCE_STATUS_INVALID");
  assert.equal(status.path, "paymentIds[1]");
  refused(await bank.tpp.get(`${BASKETS}/${"f".repeat(32)}`), 404, "RESOURCE_UNKNOWN");
  // None of it held an item: the same items make a basket now.
  const fine = await bank.tpp.post(BASKETS, items, CLIENT);
  assert.equal(fine.status, 201, fine.text);
  const self = `${BASKETS}/${fine.body.basketId}`;
  refused(await other.get(self), 404, "RESOURCE_UNKNOWN");
  refused(await other.call("DELETE", self), 404, "RESOURCE_UNKNOWN");
  assert.equal(await statusOf(self), "RCVD");
  // Its link opens the bank's login page: nothing was spent on it.
  await open(bank.browser(), href(fine, "scaRedirect"));
});
