/**
 * Account information over real TLS and SQLite: details, balances, transactions with paging,
 * transaction details, and the consent rules that gate them (grants, frequencyPerDay, the
 * 90-day window). The bank's clock follows real time plus an offset the tests move forward.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createConsents } from "../../src/domain/consents.js";
import type { Deps } from "../../src/domain/deps.js";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, BOB_MAIN, consentBody, createConsent,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const today = () => dateInZone(clock.now(), "Europe/Berlin");
let bank: TestBank;
before(async () => { bank = await startBank({ clock }); });
after(async () => { await bank.close(); });

type Res = { status: number; body: any; text: string };

function refusal(res: Res, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

const read = (consentId: string, path: string, headers: Record<string, string> = {}) =>
  bank.tpp.get(`/psd2/v1${path}`, { "Consent-ID": consentId, ...headers });

async function accountIds(consentId: string): Promise<Map<string, string>> {
  const res = await read(consentId, "/accounts", { "PSU-IP-Address": "192.0.2.1" });
  assert.equal(res.status, 200, res.text);
  return new Map(res.body.accounts.map((a: { iban: string; resourceId: string }) => [a.iban, a.resourceId]));
}

const psu = { "PSU-IP-Address": "192.0.2.1" };
let aliceConsent = "";
let aliceMainId = "";

test("an allPsd2 consent reads details, balances and a transaction", async () => {
  aliceConsent = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN]);
  aliceMainId = (await accountIds(aliceConsent)).get(ALICE_MAIN) ?? "";
  const details = await read(aliceConsent, `/accounts/${aliceMainId}?withBalance=true`, psu);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.account.iban, ALICE_MAIN);
  assert.deepEqual(details.body.account.balances.map((b: { balanceType: string }) => b.balanceType),
    ["closingBooked", "expected", "interimAvailable"]);
  const balances = await read(aliceConsent, `/accounts/${aliceMainId}/balances`, psu);
  assert.equal(balances.status, 200, balances.text);
  assert.deepEqual(balances.body.account, { iban: ALICE_MAIN, currency: "EUR" });
  const closing = balances.body.balances.find((b: { balanceType: string }) => b.balanceType === "closingBooked");
  assert.equal(closing.referenceDate, addDays(today(), -1));
});

test("paging walks the whole history without gaps or duplicates; balances match the postings", async () => {
  const from = addDays(today(), -89);
  let next: string | null = `/accounts/${aliceMainId}/transactions?dateFrom=${from}&bookingStatus=booked&itemsPerPage=25`;
  const seen: any[] = [];
  let pages = 0;
  while (next) {
    const res = await read(aliceConsent, next.replace("/psd2/v1", ""), psu);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transactions.pending, null);
    seen.push(...res.body.transactions.booked);
    assert.equal(res.body.transactions._links.first.includes("pageIndex=0"), true);
    next = res.body.transactions._links.next;
    pages += 1;
  }
  assert.ok(pages >= 3, `expected several pages, got ${pages}`);
  const refs = seen.map((t) => Number(t.entryReference));
  for (let i = 1; i < refs.length; i += 1) assert.equal(refs[i], (refs[i - 1] ?? 0) + 1);
  assert.ok(seen.every((t) => t.bookingDate >= from && /^-?\d+\.\d{2}$/.test(t.transactionAmount.amount)));
  for (let i = 1; i < seen.length; i += 1) {
    const cents = (s: string) => BigInt(s.replace(".", ""));
    assert.equal(cents(seen[i].balanceAfterTransaction.balanceAmount.amount),
      cents(seen[i - 1].balanceAfterTransaction.balanceAmount.amount) + cents(seen[i].transactionAmount.amount));
  }
  const last = seen.at(-1);
  const balances = await read(aliceConsent, `/accounts/${aliceMainId}/balances`, psu);
  const interim = balances.body.balances.find((b: { balanceType: string }) => b.balanceType === "interimAvailable");
  assert.equal(interim.balanceAmount.amount, last.balanceAfterTransaction.balanceAmount.amount);

  const one = await read(aliceConsent, `/accounts/${aliceMainId}/transactions/${last.transactionId}`, psu);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.transactionsDetails, last);
  const delta = await read(aliceConsent,
    `/accounts/${aliceMainId}/transactions?entryReferenceFrom=${refs.at(-3)}&bookingStatus=both`, psu);
  assert.equal(delta.status, 200, delta.text);
  assert.deepEqual(delta.body.transactions.booked.map((t: { entryReference: string }) => t.entryReference),
    refs.slice(-2).map(String));
  assert.deepEqual(delta.body.transactions.pending, []);
});

test("a transaction of another account is unknown, an account outside the consent is refused", async () => {
  refusal(await read(aliceConsent, `/accounts/${aliceMainId}/transactions/00000000-0000-0000-0000-000000000000`, psu),
    404, "RESOURCE_UNKNOWN");
  const bobConsent = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  refusal(await read(bobConsent, `/accounts/${aliceMainId}/balances`, psu), 401, "CONSENT_INVALID");
  refusal(await read(bobConsent, `/accounts/${aliceMainId}/transactions?dateFrom=${today()}&bookingStatus=booked`, psu),
    401, "CONSENT_INVALID");
});

test("a dedicated consent grants exactly the balances and transactions it names", async () => {
  const body = consentBody({ access: { accounts: [ALICE_MAIN], balances: [ALICE_SAVINGS], transactions: [ALICE_MAIN] } });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN, ALICE_SAVINGS], body);
  const ids = await accountIds(consentId);
  const main = ids.get(ALICE_MAIN) ?? "";
  const savings = ids.get(ALICE_SAVINGS) ?? "";
  const q = `?dateFrom=${addDays(today(), -10)}&bookingStatus=booked`;
  assert.equal((await read(consentId, `/accounts/${main}/transactions${q}`, psu)).status, 200);
  refusal(await read(consentId, `/accounts/${main}/balances`, psu), 401, "CONSENT_INVALID");
  refusal(await read(consentId, `/accounts/${main}/transactions${q}&withBalance=true`, psu), 401, "CONSENT_INVALID");
  assert.equal((await read(consentId, `/accounts/${savings}/balances`, psu)).status, 200);
  refusal(await read(consentId, `/accounts/${savings}/transactions${q}`, psu), 401, "CONSENT_INVALID");
});

test("GET /consents/{id} shows the access as the PSU granted it; DELETE ends it", async () => {
  const body = consentBody({
    access: { accounts: [], balances: [], transactions: [] }, validUntil: "9999-12-31", frequencyPerDay: 9,
  });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_SAVINGS], body);
  const res = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  assert.equal(res.status, 200, res.text);
  const ref = [{ iban: ALICE_SAVINGS, currency: "EUR" }];
  assert.deepEqual(res.body, {
    access: {
      accounts: ref, balances: ref, transactions: ref,
      availableAccounts: null, availableAccountsWithBalance: null, allPsd2: null,
    },
    recurringIndicator: true, validUntil: addDays(today(), 180), frequencyPerDay: 4,
    lastActionDate: today(), consentStatus: "valid",
  });
  const other = await bank.tppWith({ name: "Other AISP", organizationIdentifier: "PSDDE-BAFIN-777777" });
  refusal(await other.get(`/psd2/v1/consents/${consentId}`), 403, "CONSENT_UNKNOWN");
  assert.equal((await other.call("DELETE", `/psd2/v1/consents/${consentId}`, {})).status, 403);
  const deleted = await bank.tpp.call("DELETE", `/psd2/v1/consents/${consentId}`, {});
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus, "terminatedByTpp");
  refusal(await read(consentId, "/accounts", psu), 401, "CONSENT_EXPIRED");
});

test("a one-off consent must ask for one read a day", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody({ recurringIndicator: false, frequencyPerDay: 2 }),
    { "TPP-Redirect-URI": "https://tpp.example/ok" });
  refusal(res, 400, "FORMAT_ERROR");
  assert.equal(res.body.tppMessages[0].path, "frequencyPerDay");
});

test("bad transaction queries are refused with the Berlin Group codes", async () => {
  const base = `/accounts/${aliceMainId}/transactions`;
  const cases: [string, number, string][] = [
    ["?bookingStatus=booked", 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}&bookingStatus=information`, 400, "PARAMETER_NOT_SUPPORTED"],
    [`?dateFrom=${today()}&bookingStatus=sometimes`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}&bookingStatus=booked&deltaList=true`, 400, "PARAMETER_NOT_SUPPORTED"],
    [`?dateFrom=2025-02-30&bookingStatus=booked`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}&dateTo=${addDays(today(), -1)}&bookingStatus=booked`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${addDays(today(), 2)}&bookingStatus=booked`, 400, "PERIOD_INVALID"],
    [`?dateFrom=${today()}&bookingStatus=booked&itemsPerPage=0`, 400, "FORMAT_ERROR"],
  ];
  for (const [query, status, code] of cases) refusal(await read(aliceConsent, base + query, psu), status, code);
});

test("frequencyPerDay counts reads without the PSU per account and endpoint, per bank day", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ frequencyPerDay: 2 }));
  const bobId = (await accountIds(consentId)).get(BOB_MAIN) ?? "";
  const balances = `/accounts/${bobId}/balances`;
  assert.equal((await read(consentId, balances)).status, 200);
  assert.equal((await read(consentId, balances)).status, 200);
  refusal(await read(consentId, balances), 429, "ACCESS_EXCEEDED");
  assert.equal((await read(consentId, balances, psu)).status, 200, "the PSU's own reads do not count");
  assert.equal((await read(consentId, `/accounts/${bobId}`)).status, 200, "another endpoint counts apart");
  const day = today();
  while (today() === day) offsetMs += 15 * 60_000;
  assert.equal((await read(consentId, balances)).status, 200, "a new bank day starts a new count");
});

test("history older than 90 days only within an hour of the PSU's authentication", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  const bobId = (await accountIds(consentId)).get(BOB_MAIN) ?? "";
  const old = `/accounts/${bobId}/transactions?dateFrom=${addDays(today(), -200)}&bookingStatus=booked`;
  const fresh = await read(consentId, old, psu);
  assert.equal(fresh.status, 200, fresh.text);
  assert.ok(fresh.body.transactions.booked.length > 0);
  offsetMs += 61 * 60 * 1000;
  refusal(await read(consentId, old, psu), 400, "PERIOD_INVALID");
  const delta = await read(consentId, `/accounts/${bobId}/transactions?entryReferenceFrom=1&bookingStatus=booked&itemsPerPage=1`, psu);
  assert.equal(delta.status, 200, delta.text);
  assert.ok(delta.body.transactions.booked[0].bookingDate >= addDays(today(), -90), "delta reads are cut at 90 days");
});

test("a consent never authorised within 30 minutes is rejected", async () => {
  const { consentId } = await createConsent(bank.tpp);
  offsetMs += 29 * 60_000;
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus, "received");
  offsetMs += 2 * 60_000;
  assert.equal((await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus, "rejected");
});

test("a new recurring consent of the PSU at the same TPP ends the older one", async () => {
  const older = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  const newer = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
  const status = async (id: string) => (await bank.tpp.get(`/psd2/v1/consents/${id}/status`)).body.consentStatus;
  assert.equal(await status(older), "terminatedByTpp");
  assert.equal(await status(newer), "valid");
});

test("the sweep expires lapsed consents and rejects stale ones without a read", async () => {
  const store = bank.app.store;
  const settings = { timeZone: "Europe/Berlin", consentValidityDaysMax: 180, frequencyPerDayMax: 4 };
  const consents = createConsents({ store, clock, settings } as unknown as Deps);
  const valid = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ validUntil: addDays(today(), 1) }));
  const { consentId: waiting } = await createConsent(bank.tpp);
  offsetMs += 3 * 86_400_000;
  const swept = await consents.sweepConsents();
  assert.ok(swept.expired >= 1 && swept.rejected >= 1, JSON.stringify(swept));
  const row = async (id: string) => (await store.consents.find(store.db, id))?.status;
  assert.equal(await row(valid), "expired");
  assert.equal(await row(waiting), "rejected");
});
