/**
 * Account information over real TLS and SQLite: details, balances, transactions with paging,
 * transaction details, and the consent rules that gate them (grants, frequencyPerDay, the
 * 90-day window). The bank's clock follows real time plus an offset the tests move forward.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createConsents } from "../../src/domain/consent/registration.js";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import type { Deps } from "../../src/domain/deps.js";
import { addDays, dateInZone } from "../../src/lib/clock.js";
import {
  ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, BOB_MAIN, consentBody, createConsent, CREATION_HEADERS,
  inProfile, linkOf, optionalLink,
} from "../support/flows.js";
import { DEMO_BANK_CODE } from "../../src/ledger/demo-data.js";
import { makeIban } from "../../src/lib/iban.js";
import { demoPsu } from "../support/psu.js";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import { presentersFor } from "../../src/api/profile.js";
import { transactionsResponse } from "../../src/api/schemas.js";
import { startBank, type TestBank } from "../support/start-app.js";

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const today = () => dateInZone(clock.now(), "Europe/Berlin");
let bank: TestBank;
before(async () => { bank = await startBank({ clock }); });
after(async () => { await bank.close(); });

type Res = { status: number; body: any; text: string };

const cents = (amount: string) => BigInt(amount.replace(".", ""));

function refusal(res: Res, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

const read = (consentId: string, path: string, headers: Record<string, string> = {}, tpp = bank.tpp) =>
  tpp.get(`/psd2/v1${path}`, { "Consent-ID": consentId, ...headers });

async function accountIds(consentId: string, tpp = bank.tpp): Promise<Map<string, string>> {
  const res = await read(consentId, "/accounts", { "PSU-IP-Address": "192.0.2.1" }, tpp);
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
    assert.equal(res.body.transactions.pending ?? null, null);
    seen.push(...res.body.transactions.booked);
    assert.equal(linkOf(bank.tpp, res.body.transactions._links.first).includes("pageIndex=0"), true);
    next = optionalLink(bank.tpp, res.body.transactions._links.next);
    pages += 1;
  }
  assert.ok(pages >= 3, `expected several pages, got ${pages}`);
  const refs = seen.map((t) => Number(t.entryReference));
  for (let i = 1; i < refs.length; i += 1) assert.equal(refs[i], (refs[i - 1] ?? 0) + 1);
  assert.ok(seen.every((t) => t.bookingDate >= from && /^-?\d+\.\d{2}$/.test(t.transactionAmount.amount)));
  for (let i = 1; i < seen.length; i += 1) {
    assert.equal(cents(seen[i].balanceAfterTransaction.balanceAmount.amount),
      cents(seen[i - 1].balanceAfterTransaction.balanceAmount.amount) + cents(seen[i].transactionAmount.amount));
  }
  const last = seen.at(-1);
  const balances = await read(aliceConsent, `/accounts/${aliceMainId}/balances`, psu);
  const balance = (type: string) => cents(balances.body.balances.find((b: { balanceType: string }) => b.balanceType === type)
    .balanceAmount.amount);
  const booked = cents(last.balanceAfterTransaction.balanceAmount.amount);
  const pending = await read(aliceConsent, `/accounts/${aliceMainId}/transactions?dateFrom=${today()}&bookingStatus=pending`, psu);
  assert.equal(pending.status, 200, pending.text);
  assert.equal(pending.body.transactions.booked ?? null, null);
  const announced = pending.body.transactions.pending;
  assert.ok(announced.length > 0 && announced.every((t: { entryReference?: string }) => t.entryReference === undefined));
  const pendingSum = announced.reduce((s: bigint, t: { transactionAmount: { amount: string } }) =>
    s + cents(t.transactionAmount.amount), 0n);
  assert.equal(balance("expected"), booked + pendingSum, "expected: booked plus pending");
  assert.equal(balance("interimAvailable"), booked + pendingSum, "pending debits are not available");

  const one = await read(aliceConsent, `/accounts/${aliceMainId}/transactions/${last.transactionId}`, psu);
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.transactionsDetails, last);
  const delta = await read(aliceConsent,
    `/accounts/${aliceMainId}/transactions?entryReferenceFrom=${refs.at(-3)}&bookingStatus=both`, psu);
  assert.equal(delta.status, 200, delta.text);
  assert.deepEqual(delta.body.transactions.booked.map((t: { entryReference: string }) => t.entryReference),
    refs.slice(-2).map(String));
  assert.deepEqual(delta.body.transactions.pending, announced, "pending ones come with the first page");
});

test("a page's body, joined from each entry's kept text or kept whole, is what the route's schema writes", async () => {
  const profile = presentersFor(bank.tpp.profile);
  const serialize = SerializerSelector()({}, {})(
    { schema: profile.schema(transactionsResponse) } as never) as (value: unknown) => string;
  const page = `/accounts/${aliceMainId}/transactions?dateFrom=${addDays(today(), -89)}&bookingStatus=both&withBalance=true`;
  for (const turn of ["first", "kept", "whole body kept"]) {
    const res = await read(aliceConsent, page, psu);
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8$/);
    assert.ok(res.body.transactions.booked.length > 1);
    assert.equal(res.text, serialize(res.body), `${turn} time`);
  }
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

test("availableAccounts consents grant the list only; allAccountsWithOwnerName adds the owner", async () => {
  const withOwner = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ access: { availableAccountsWithBalance: "allAccountsWithOwnerName" } }));
  const list = await read(withOwner, "/accounts?withBalance=true", psu);
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.accounts.map((a: { ownerName: string }) => a.ownerName), ["Bob Meyer"]);
  assert.ok(list.body.accounts.every((a: { balances: unknown[] }) => a.balances.length === 3));
  const id = list.body.accounts[0].resourceId;
  refusal(await read(withOwner, `/accounts/${id}`, psu), 401, "CONSENT_INVALID");
  refusal(await read(withOwner, `/accounts/${id}/balances`, psu), 401, "CONSENT_INVALID");

  const plain = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ access: { availableAccounts: "allAccounts" } }));
  const names = await read(plain, "/accounts", psu);
  assert.equal(names.status, 200, names.text);
  assert.equal("ownerName" in names.body.accounts[0], false, "no owner name unless asked for");
  refusal(await read(plain, "/accounts?withBalance=true", psu), 401, "CONSENT_INVALID");
  refusal(await read(plain, `/accounts/${names.body.accounts[0].resourceId}?withBalance=true`, psu),
    401, "CONSENT_INVALID");
});

test("details with withBalance need granted balances", async () => {
  const body = consentBody({ access: { accounts: [BOB_MAIN], transactions: [BOB_MAIN] } });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN], body);
  const id = (await accountIds(consentId)).get(BOB_MAIN) ?? "";
  const details = await read(consentId, `/accounts/${id}`, psu);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.account.balances ?? null, null);
  refusal(await read(consentId, `/accounts/${id}?withBalance=true`, psu), 401, "CONSENT_INVALID");
});

test("a refused read does not use up frequencyPerDay", async () => {
  const body = consentBody({ access: { accounts: [BOB_MAIN], transactions: [BOB_MAIN] }, frequencyPerDay: 1 });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN], body);
  const id = (await accountIds(consentId)).get(BOB_MAIN) ?? "";
  const list = `/accounts/${id}/transactions?dateFrom=${addDays(today(), -30)}&bookingStatus=booked`;
  refusal(await read(consentId, `${list}&withBalance=true`), 401, "CONSENT_INVALID");
  refusal(await read(consentId, `/accounts/${id}/transactions/00000000-0000-0000-0000-000000000000`), 404, "RESOURCE_UNKNOWN");
  const res = await read(consentId, list);
  assert.equal(res.status, 200, res.text);
  refusal(await read(consentId, list), 429, "ACCESS_EXCEEDED");
  const one = res.body.transactions.booked[0].transactionId;
  assert.equal((await read(consentId, `/accounts/${id}/transactions/${one}`)).status, 200);
});

test("frequencyPerDay counts apart per account and per consent", async () => {
  const carol = demoPsu("carol").accounts.map((a) => makeIban("DE", DEMO_BANK_CODE + a.accountNumber));
  const [first = "", second = ""] = carol;
  const carolConsent = await authorisedConsent(bank.tpp, bank.browser(), "carol", [first, second],
    consentBody({ frequencyPerDay: 1 }));
  const ids = await accountIds(carolConsent);
  const one = `/accounts/${ids.get(first) ?? ""}/balances`;
  assert.equal((await read(carolConsent, one)).status, 200);
  refusal(await read(carolConsent, one), 429, "ACCESS_EXCEEDED");
  assert.equal((await read(carolConsent, `/accounts/${ids.get(second) ?? ""}/balances`)).status, 200,
    "another account counts apart");

  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN], consentBody({ frequencyPerDay: 1 }));
  const main = `/accounts/${(await accountIds(consentId)).get(BOB_MAIN) ?? ""}/balances`;
  assert.equal((await read(consentId, main)).status, 200);
  refusal(await read(consentId, main), 429, "ACCESS_EXCEEDED");
  const other = await bank.tppWith({ name: "Third AISP", organizationIdentifier: "PSDDE-BAFIN-999999" });
  const otherConsent = await authorisedConsent(other, bank.browser(), "bob", [BOB_MAIN], consentBody({ frequencyPerDay: 1 }));
  assert.equal((await other.get(`/psd2/v1${main}`, { "Consent-ID": otherConsent })).status, 200,
    "another consent on the same account counts apart");
  refusal(await other.get(`/psd2/v1${main}`, { "Consent-ID": otherConsent }), 429, "ACCESS_EXCEEDED");
});

test("GET /consents/{id} shows the access as the PSU granted it; DELETE ends it", async () => {
  const body = consentBody({
    access: { accounts: [], balances: [], transactions: [] }, validUntil: "9999-12-31", frequencyPerDay: 9,
  });
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_SAVINGS], body);
  const res = await bank.tpp.get(`/psd2/v1/consents/${consentId}`);
  assert.equal(res.status, 200, res.text);
  const ref = [{ iban: ALICE_SAVINGS, currency: "EUR" }];
  assert.deepEqual(res.body, inProfile(bank.tpp, {
    access: {
      accounts: ref, balances: ref, transactions: ref,
      availableAccounts: null, availableAccountsWithBalance: null, allPsd2: null,
    },
    recurringIndicator: true, validUntil: addDays(today(), 180), frequencyPerDay: 4,
    lastActionDate: today(), consentStatus: "valid",
  }));
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
    CREATION_HEADERS);
  refusal(res, 400, "FORMAT_ERROR");
  assert.equal(res.body.tppMessages[0].path, "frequencyPerDay");
});

test("bad transaction queries are refused with the Berlin Group codes", async () => {
  const base = `/accounts/${aliceMainId}/transactions`;
  const cases: [string, number, string][] = [
    ["?bookingStatus=booked", 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}&bookingStatus=all`, 400, "PARAMETER_NOT_SUPPORTED"],
    [`?dateFrom=${today()}&bookingStatus=sometimes`, 400, "FORMAT_ERROR"],
    [`?dateFrom=${today()}&bookingStatus=booked&deltaList=true`, 400, "FORMAT_ERROR"],
    ["?bookingStatus=booked&deltaList=yes", 400, "FORMAT_ERROR"],
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

/**
 * A TPP bob never passed SCA for: at the demo TPP a new consent is a renewal without SCA (RTS
 * art. 10a), which opens no hour of older history.
 */
const newTpp = (id: string) => bank.tppWith({ organizationIdentifier: `PSDDE-BAFIN-${id}` });

test("history older than 90 days only within an hour of the PSU's authentication", async () => {
  const tpp = await newTpp("990268");
  const consentId = await authorisedConsent(tpp, bank.browser(), "bob", [BOB_MAIN]);
  const bobId = (await accountIds(consentId, tpp)).get(BOB_MAIN) ?? "";
  const old = `/accounts/${bobId}/transactions?dateFrom=${addDays(today(), -200)}&bookingStatus=booked`;
  const fresh = await read(consentId, old, psu, tpp);
  assert.equal(fresh.status, 200, fresh.text);
  assert.ok(fresh.body.transactions.booked.length > 0);
  offsetMs += 61 * 60 * 1000;
  refusal(await read(consentId, old, psu, tpp), 400, "PERIOD_INVALID");
  const delta = await read(consentId, `/accounts/${bobId}/transactions?entryReferenceFrom=1&bookingStatus=booked&itemsPerPage=1`, psu, tpp);
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
  const settings = { timeZone: "Europe/Berlin", consentValidityDaysMax: 180, frequencyPerDayMax: 4,
    consentAuthorisationMinutes: 30 };
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

test("a one-off consent reads each granted resource once, then expires", async () => {
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN],
    consentBody({ recurringIndicator: false, frequencyPerDay: 1 }));
  const bobId = (await accountIds(consentId)).get(BOB_MAIN) ?? "";
  refusal(await read(consentId, "/accounts", psu), 429, "ACCESS_EXCEEDED");
  assert.equal((await read(consentId, `/accounts/${bobId}/balances`, psu)).status, 200);
  refusal(await read(consentId, `/accounts/${bobId}/balances`, psu), 429, "ACCESS_EXCEEDED");
  const day = today();
  while (today() === day) offsetMs += 15 * 60_000;
  refusal(await read(consentId, `/accounts/${bobId}/balances`), 429, "ACCESS_EXCEEDED");
  assert.equal((await read(consentId, `/accounts/${bobId}`)).status, 200);
  const status = async () => (await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus;
  assert.equal(await status(), "valid", "transactions are still due");
  const last = await read(consentId, `/accounts/${bobId}/transactions?dateFrom=${today()}&bookingStatus=booked`);
  assert.equal(last.status, 200, last.text);
  assert.equal(await status(), "expired");
  refusal(await read(consentId, `/accounts/${bobId}`, psu), 401, "CONSENT_EXPIRED");
});

test("deltaList gives each transaction once, page by page, then what was booked since", async () => {
  const tpp = await newTpp("990332");
  const consentId = await authorisedConsent(tpp, bank.browser(), "bob", [BOB_MAIN]);
  const bobId = (await accountIds(consentId, tpp)).get(BOB_MAIN) ?? "";
  let next: string | null = `/accounts/${bobId}/transactions?deltaList=true&bookingStatus=booked&itemsPerPage=150`;
  const refs: number[] = [];
  let pages = 0;
  while (next) {
    const res = await read(consentId, next.replace("/psd2/v1", ""), psu, tpp);
    assert.equal(res.status, 200, res.text);
    refs.push(...res.body.transactions.booked.map((t: { entryReference: string }) => Number(t.entryReference)));
    next = optionalLink(tpp, res.body.transactions._links.next);
    pages += 1;
  }
  assert.ok(pages >= 2, `${pages} pages`);
  assert.deepEqual(refs, refs.map((_, i) => i + 1), "the whole history once, in order, within the hour");
  const delta = `/accounts/${bobId}/transactions?deltaList=true&bookingStatus=booked`;
  assert.deepEqual((await read(consentId, delta, psu, tpp)).body.transactions.booked, []);
  const core = createEmbeddedLedger({
    ledger: bank.app.store.ledger, clock, timeZone: "Europe/Berlin", bankCode: "50010000", bic: "DEMODEFFXXX",
  });
  await bank.app.store.transaction((tx) => core.adjustBalance(tx, bobId, "credit", 1_234n, "Gutschrift"));
  const since = await read(consentId, delta, psu, tpp);
  assert.deepEqual(since.body.transactions.booked.map((t: { entryReference: string; transactionAmount: { amount: string } }) =>
    [Number(t.entryReference), t.transactionAmount.amount]), [[refs.length + 1, "12.34"]]);
});

test("concurrent deltaList reads that answer the same page write its mark once", async () => {
  const tpp = await newTpp("990333");
  const consentId = await authorisedConsent(tpp, bank.browser(), "bob", [BOB_MAIN]);
  const bobId = (await accountIds(consentId, tpp)).get(BOB_MAIN) ?? "";
  const marks = bank.app.store.deltaMarks;
  const setAll = marks.setAll;
  const written: string[] = [];
  marks.setAll = async (tx, moved) => {
    written.push(...moved.filter((m) => m.consentId === consentId).map((m) => m.entryReference));
    return setAll.call(marks, tx, moved);
  };
  try {
    const delta = `/accounts/${bobId}/transactions?deltaList=true&bookingStatus=booked&itemsPerPage=2`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => read(consentId, delta, psu, tpp)));
    const lasts = answers.map((res) => {
      assert.equal(res.status, 200, res.text);
      return res.body.transactions.booked.at(-1)?.entryReference as string | undefined;
    }).filter((last) => last !== undefined);
    assert.ok(lasts.length > 0);
    assert.deepEqual([...written].sort(), [...new Set(lasts)].sort(), "one write per mark answered");
  } finally {
    marks.setAll = setAll;
  }
});
