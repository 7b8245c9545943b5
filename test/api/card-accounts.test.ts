/**
 * Card accounts over real TLS and SQLite: the list, details, balances and card transactions in
 * Berlin Group 1.3 shapes, granted by consents like accounts (bank-offered with the PSU's choice,
 * dedicated by masked PAN, allPsd2), and the errors for what a consent does not grant.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, authorisedConsent, BOB_MAIN, cancel, confirm, consentBody, createConsent, CREATION_HEADERS, enterCode,
  inProfile, linkOf, logIn, NOK_URI, open, optionalLink, reachReview,
} from "../support/flows.js";
import { codeFor } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

const ALICE_CARD = "525412******3241";
const BOB_CARD = "492181******7714";
const psu = { "PSU-IP-Address": "192.0.2.1" };
const today = () => dateInZone(new Date(), "Europe/Berlin");

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

type Res = { status: number; body: any; text: string };

function refusal(res: Res, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

const read = (consentId: string, path: string, headers: Record<string, string> = psu) =>
  bank.tpp.get(`/psd2/v1${path}`, { "Consent-ID": consentId, ...headers });

async function cardId(consentId: string, maskedPan: string): Promise<string> {
  const res = await read(consentId, "/card-accounts");
  assert.equal(res.status, 200, res.text);
  const card = res.body.cardAccounts.find((c: { maskedPan: string }) => c.maskedPan === maskedPan);
  assert.ok(card, res.text);
  return card.resourceId;
}

const cents = (amount: string) => BigInt(amount.replace(".", ""));

let allPsd2 = "";
let aliceCard = "";

test("an allPsd2 consent lists the PSU's card with its masked PAN and credit limit", async () => {
  allPsd2 = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN, ALICE_CARD],
    consentBody({ access: { allPsd2: "allAccountsWithOwnerName" } }));
  const res = await read(allPsd2, "/card-accounts?withBalance=true");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.cardAccounts.length, 1);
  const card = res.body.cardAccounts[0];
  aliceCard = card.resourceId;
  const { balances: _, ...withoutBalances } = card;
  assert.deepEqual(withoutBalances, inProfile(bank.tpp, {
    resourceId: aliceCard, maskedPan: ALICE_CARD, currency: "EUR", ownerName: "Alice Schmidt",
    name: "Mastercard Gold", product: "Mastercard Gold", debitAccounting: false, status: "enabled",
    usage: "PRIV", details: null, creditLimit: { currency: "EUR", amount: "5000.00" }, _links: null,
  }));
  assert.deepEqual(card.balances.map((b: { balanceType: string; creditLimitIncluded: boolean }) =>
    [b.balanceType, b.creditLimitIncluded]),
  [["closingBooked", false], ["expected", false], ["interimAvailable", true]]);
  const accounts = await read(allPsd2, "/accounts");
  assert.deepEqual(accounts.body.accounts.map((a: { iban: string }) => a.iban), [ALICE_MAIN],
    "a card is not a payment account");
  assert.equal(accounts.body.accounts[0].ownerName, "Alice Schmidt");
});

test("details and balances of the card; available credit is the limit plus the balance", async () => {
  const details = await read(allPsd2, `/card-accounts/${aliceCard}`);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.cardAccount.maskedPan, ALICE_CARD);
  assert.equal(details.body.cardAccount.balances ?? null, null);
  const res = await read(allPsd2, `/card-accounts/${aliceCard}/balances`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.cardAccount, { maskedPan: ALICE_CARD, currency: "EUR" });
  const of = (type: string) => res.body.balances.find((b: { balanceType: string }) => b.balanceType === type);
  assert.equal(of("closingBooked").referenceDate, addDays(today(), -1));
  assert.equal(cents(of("interimAvailable").balanceAmount.amount),
    cents(of("expected").balanceAmount.amount) + 500_000n);
});

test("card transactions page through the whole history; the balance is the sum of what is listed",
  async () => {
    let next: string | null = `/card-accounts/${aliceCard}/transactions?dateFrom=${addDays(today(), -400)}`
      + "&bookingStatus=booked&itemsPerPage=50";
    const seen: any[] = [];
    while (next) {
      const res = await read(allPsd2, next.replace("/psd2/v1", ""));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.cardAccount, { maskedPan: ALICE_CARD, currency: "EUR" });
      assert.equal(res.body.debitAccounting, false);
      assert.equal(res.body.cardTransactions.pending ?? null, null);
      seen.push(...res.body.cardTransactions.booked);
      const links = res.body.cardTransactions._links;
      assert.equal(linkOf(bank.tpp, links.cardAccount), `/psd2/v1/card-accounts/${aliceCard}`);
      next = optionalLink(bank.tpp, links.next);
    }
    assert.ok(seen.length > 100, `only ${seen.length} card transactions`);
    assert.equal(new Set(seen.map((t) => t.cardTransactionId)).size, seen.length, "no duplicates");
    const purchase = seen.find((t) => (t.originalAmount ?? null) !== null);
    assert.ok(purchase, "a purchase abroad");
    assert.notEqual(purchase.originalAmount.currency, "EUR");
    assert.equal(purchase.currencyExchange[0].sourceCurrency, purchase.originalAmount.currency);
    assert.equal(purchase.maskedPAN, ALICE_CARD);
    assert.match(purchase.merchantCategoryCode, /^\d{4}$/);
    assert.ok(purchase.transactionDate < purchase.bookingDate);
    assert.equal(typeof purchase.cardAcceptorAddress.townName, "string");
    assert.match(purchase.transactionAmount.amount, /^-\d+\.\d{2}$/);
    const sum = seen.reduce((s, t) => s + cents(t.transactionAmount.amount), 0n);
    const pending = await read(allPsd2, `/card-accounts/${aliceCard}/transactions?dateFrom=${today()}`
      + "&bookingStatus=pending&withBalance=true");
    assert.equal(pending.status, 200, pending.text);
    assert.equal(pending.body.cardTransactions.booked ?? null, null);
    const announced = pending.body.cardTransactions.pending;
    assert.equal(announced.length, 2);
    assert.ok(announced.every((t: { maskedPAN: string; transactionDate: string }) =>
      t.maskedPAN === ALICE_CARD && t.transactionDate === today()));
    const of = (type: string) => pending.body.balances.find((b: { balanceType: string }) => b.balanceType === type);
    const pendingSum = announced.reduce((s: bigint, t: { transactionAmount: { amount: string } }) =>
      s + cents(t.transactionAmount.amount), 0n);
    assert.equal(cents(of("expected").balanceAmount.amount), sum + pendingSum, "expected: plus the pending ones");
  });

test("bad card transaction queries get the Berlin Group codes", async () => {
  const base = `/card-accounts/${aliceCard}/transactions`;
  refusal(await read(allPsd2, `${base}?bookingStatus=booked`), 400, "FORMAT_ERROR");
  refusal(await read(allPsd2, `${base}?dateFrom=${addDays(today(), 3)}&bookingStatus=booked`), 400, "PERIOD_INVALID");
  refusal(await read(allPsd2, `${base}?dateFrom=${today()}&bookingStatus=information`),
    400, "PARAMETER_NOT_SUPPORTED");
  refusal(await read(allPsd2, `${base}?dateFrom=${today()}&bookingStatus=booked&itemsPerPage=501`), 400, "FORMAT_ERROR");
});

test("a card not granted is refused, an account id is no card, another TPP knows no such consent",
  async () => {
    const bob = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN, BOB_CARD]);
    const bobCard = await cardId(bob, BOB_CARD);
    refusal(await read(bob, `/card-accounts/${aliceCard}`), 401, "CONSENT_INVALID");
    refusal(await read(bob, `/card-accounts/${aliceCard}/balances`), 401, "CONSENT_INVALID");
    refusal(await read(allPsd2, `/card-accounts/${bobCard}/transactions?dateFrom=${today()}&bookingStatus=booked`),
      401, "CONSENT_INVALID");
    const accounts = await read(allPsd2, "/accounts");
    const aliceMain = accounts.body.accounts[0].resourceId;
    refusal(await read(allPsd2, `/card-accounts/${aliceMain}`), 404, "RESOURCE_UNKNOWN");
    refusal(await read(allPsd2, `/accounts/${aliceCard}`), 404, "RESOURCE_UNKNOWN");
    const other = await bank.tppWith({ name: "Other AISP", organizationIdentifier: "PSDDE-BAFIN-888888" });
    refusal(await other.get(`/psd2/v1/card-accounts/${aliceCard}`, { "Consent-ID": allPsd2, ...psu }),
      400, "CONSENT_UNKNOWN");
    refusal(await other.get("/psd2/v1/card-accounts", { "Consent-ID": allPsd2, ...psu }), 400, "CONSENT_UNKNOWN");
  });

test("a dedicated consent names a card by masked PAN and grants exactly what it lists", async () => {
  const body = consentBody({
    access: { accounts: [{ maskedPan: ALICE_CARD }], balances: [{ maskedPan: ALICE_CARD }] },
  });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_CARD], body);
  const id = await cardId(consentId, ALICE_CARD);
  assert.equal((await read(consentId, `/card-accounts/${id}/balances`)).status, 200);
  refusal(await read(consentId, `/card-accounts/${id}/transactions?dateFrom=${today()}&bookingStatus=booked`),
    401, "CONSENT_INVALID");
  assert.deepEqual((await read(consentId, "/accounts")).body.accounts, []);
  const details = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  const ref = [{ maskedPan: ALICE_CARD, currency: "EUR" }];
  assert.deepEqual(details.body.access, inProfile(bank.tpp, {
    accounts: ref, balances: ref, transactions: [],
    availableAccounts: null, availableAccountsWithBalance: null, allPsd2: null,
  }));
});

test("a dedicated consent may name a card by its PAN: it is granted as by its masked PAN", async () => {
  const body = consentBody({
    access: { accounts: [{ pan: "5254120000013241" }], balances: [{ pan: "5254120000013241" }] },
  });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_CARD], body);
  const id = await cardId(consentId, ALICE_CARD);
  assert.equal((await read(consentId, `/card-accounts/${id}/balances`)).status, 200);
  const details = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  assert.deepEqual(details.body.access.accounts, [{ maskedPan: ALICE_CARD, currency: "EUR" }]);
});

test("an account reference the bank does not support is refused naming the field", async () => {
  const refused = async (access: object, status: number, code: string, path: string) => {
    const res = await bank.tpp.post("/psd2/v1/consents", consentBody({ access }), CREATION_HEADERS);
    refusal(res, status, code);
    assert.equal(res.body.tppMessages[0].path, path, res.text);
  };
  await refused({ accounts: [{ pan: "5254120000013240" }] }, 400, "FORMAT_ERROR",
    "access.accounts[0].pan");
  await refused({ accounts: [{ pan: "5254120000999993" }] }, 400, "RESOURCE_UNKNOWN",
    "access.accounts[0].pan");
  await refused({ accounts: [{ pan: "5254120000013241", maskedPan: ALICE_CARD }] }, 400,
    "FORMAT_ERROR", "access.accounts[0].pan");
  await refused({ accounts: [{ bban: "370400440532013000" }] }, 400, "FORMAT_ERROR",
    "access.accounts[0].bban");
  await refused({ accounts: [ALICE_MAIN], balances: [{ msisdn: "+491701234567" }] }, 400,
    "FORMAT_ERROR", "access.balances[0].msisdn");
});

test("a masked PAN the PSU does not hold is an error on the review and the consent ends rejected",
  async () => {
    const { consentId, scaRedirect } = await createConsent(bank.tpp,
      consentBody({ access: { accounts: [{ maskedPan: BOB_CARD }] } }));
    const browser = bank.browser();
    const login = await open(browser, scaRedirect);
    const code = await browser.follow(await logIn(browser, login, "alice", "alice-demo"));
    const review = await browser.follow(await enterCode(browser, code, await codeFor(browser, "alice")));
    assert.match(review.html, /not yours: 492181\*\*\*\*\*\*7714\./, review.html);
    assert.doesNotMatch(review.html, /action="\/sca\/confirm"/);
    assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus, "rejected");
    assert.equal((await confirm(browser, review, [BOB_CARD])).status, 400, "a forced confirm changes nothing");
    assert.equal((await cancel(browser, review)).location, NOK_URI, "cancel leads back to the TPP");

    const bad = await bank.tpp.post("/psd2/v1/consents",
      consentBody({ access: { accounts: [{ maskedPan: "5254-12-3241" }] } }), CREATION_HEADERS);
    refusal(bad, 400, "FORMAT_ERROR");
    assert.equal(bad.body.tppMessages[0].path, "access.accounts[0].maskedPan");
  });

test("on a bank-offered consent the PSU shares a card's balances but not its transactions", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp,
    consentBody({ access: { accounts: [], balances: [], transactions: [] } }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "alice");
  assert.match(review.html, /name="balances" value="525412\*{6}3241">/, "offered, not pre-ticked");
  const done = await confirm(browser, review, [ALICE_MAIN, ALICE_CARD],
    { balances: [ALICE_CARD], transactions: [ALICE_MAIN] });
  assert.equal(done.status, 200, done.html);
  const details = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  assert.deepEqual(details.body.access.balances, [{ maskedPan: ALICE_CARD, currency: "EUR" }]);
  assert.deepEqual(details.body.access.transactions, [{ iban: ALICE_MAIN, currency: "EUR" }]);
  const id = await cardId(consentId, ALICE_CARD);
  assert.equal((await read(consentId, `/card-accounts/${id}/balances`)).status, 200);
  refusal(await read(consentId, `/card-accounts/${id}/transactions?dateFrom=${today()}&bookingStatus=booked`),
    401, "CONSENT_INVALID");
  const accounts = await read(consentId, "/accounts");
  const main = accounts.body.accounts[0].resourceId;
  refusal(await read(consentId, `/accounts/${main}/balances`), 401, "CONSENT_INVALID");
  assert.equal((await read(consentId, `/accounts/${main}/transactions?dateFrom=${today()}&bookingStatus=booked`)).status,
    200);
});

test("card reads without the PSU count per card endpoint against frequencyPerDay", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_CARD],
    consentBody({ frequencyPerDay: 1 }));
  const id = await cardId(consentId, BOB_CARD);
  assert.equal((await read(consentId, `/card-accounts/${id}/balances`, {})).status, 200);
  refusal(await read(consentId, `/card-accounts/${id}/balances`, {}), 429, "ACCESS_EXCEEDED");
  assert.equal((await read(consentId, `/card-accounts/${id}`, {})).status, 200, "details count apart");
  assert.equal((await read(consentId, "/card-accounts", {})).status, 200, "the list counts apart");
  refusal(await read(consentId, "/card-accounts", {}), 429, "ACCESS_EXCEEDED");
});
