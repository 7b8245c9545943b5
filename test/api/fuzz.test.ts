/**
 * Fuzzing over real TLS. Random headers and bodies on every endpoint; and requests generated from
 * the routes' JSON schemas (src/api/schemas.ts), valid first, then mutated one field or header at
 * a time: wrong types, boundary lengths, unicode, huge numbers, missing and duplicated headers.
 * Every answer is a success or a Berlin Group error, never a 500, and a refused request leaves
 * the ledger (postings per account), the consents and the payments as they were. Seeded: FUZZ_SEED
 * repeats a run; a failure prints its seed.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { accountReference, amount, consentBody, paymentInitiationBody } from "../../src/api/schemas.js";
import { ALICE_MAIN, ALICE_SAVINGS, authorisedConsent, BOB_MAIN, EXTERNAL_IBAN, OK_URI, NOK_URI } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppResponse } from "../support/tpp-client.js";

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

let bank: TestBank;
let consentId: string;
let accountId: string;
let paymentId: string;
before(async () => {
  bank = await startBank();
  consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN, ALICE_SAVINGS]);
  const list = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
  accountId = list.body.accounts[0].resourceId;
  const created = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", {
    debtorAccount: ALICE_MAIN, creditorAccount: EXTERNAL_IBAN, creditorName: "Shop", instructedAmount: { currency: "EUR", amount: "1.00" },
  }, { "TPP-Redirect-URI": OK_URI });
  paymentId = created.body.paymentId;
});
after(async () => { await bank.close(); });

function assertBerlinGroup(res: TppResponse, what: string): void {
  assert.ok(res.status < 500, `${what} → ${res.status} ${res.text}`);
  if (res.status < 400) return;
  const messages = res.body?.tppMessages;
  assert.ok(Array.isArray(messages) && messages.length > 0, `${what} → ${res.status} ${res.text}`);
  for (const m of messages) {
    assert.ok(m.category === "ERROR" && typeof m.code === "string" && typeof m.text === "string", `${what} → ${res.text}`);
  }
}

const ID = randomUUID();
const ENDPOINTS: [string, string][] = [
  ["POST", "/psd2/v1/payments/sepa-credit-transfers"], ["GET", `/psd2/v1/payments/sepa-credit-transfers/${ID}`],
  ["GET", `/psd2/v1/payments/sepa-credit-transfers/${ID}/status`], ["DELETE", `/psd2/v1/payments/sepa-credit-transfers/${ID}`],
  ["POST", "/psd2/v1/consents"], ["GET", `/psd2/v1/consents/${ID}`], ["GET", `/psd2/v1/consents/${ID}/status`],
  ["DELETE", `/psd2/v1/consents/${ID}`], ["GET", "/psd2/v1/accounts"], ["GET", `/psd2/v1/accounts/${ID}/balances`],
  ["GET", `/psd2/v1/accounts/${ID}/transactions`], ["POST", "/psd2/v1/funds-confirmations"],
];
const HEADER_NAMES = [
  "X-Request-ID", "Consent-ID", "PSU-ID", "PSU-IP-Address", "TPP-Redirect-URI", "TPP-Nok-Redirect-URI",
  "TPP-Redirect-Preferred", "Accept", "Digest", "Signature", "TPP-Signature-Certificate", "Content-Type",
];
/** Header values Node will send: visible ASCII and spaces. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.constant(randomUUID()), fc.constant("application/json"), fc.constant("https://tpp.example/ok"),
);
const anyBody = fc.oneof(fc.json(), fc.string({ maxLength: 200 }), fc.jsonValue().map((v) => JSON.stringify(v)));

test("random headers and bodies on every endpoint never produce a 500 or a non-Berlin-Group body", async (t) => {
  t.diagnostic(`FUZZ_SEED=${FUZZ_SEED} repeats this run`);
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...ENDPOINTS), fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue), anyBody,
    async ([method, path], headers, rawBody) => {
      const res = await bank.tpp.call(method, path, { headers, rawBody: method === "POST" ? rawBody : undefined });
      assertBerlinGroup(res, `${method} ${path}`);
    }), { numRuns: 150, seed: FUZZ_SEED });
});

// ---- Requests from the route schemas ----

interface Schema {
  type?: string | readonly string[];
  properties?: Record<string, Schema>;
  required?: readonly string[];
  items?: Schema;
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  pattern?: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SEPA_CHAR = fc.constantFrom(..."abcXYZ0189/-?:().,'+ ".split(""));
const futureDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const ibanRef = (ibans: string[]) => fc.oneof(fc.constantFrom(...ibans),
  fc.constantFrom(...ibans).map((iban) => ({ iban, currency: "EUR" })));

/**
 * Valid values where a field's rules go beyond its schema (IBAN check digits, the PSU's own
 * accounts, amounts, dates, consent combinations); every other field follows its schema.
 */
const SEMANTIC: Record<string, fc.Arbitrary<Json>> = {
  debtorAccount: ibanRef([ALICE_MAIN, ALICE_SAVINGS]),
  creditorAccount: ibanRef([EXTERNAL_IBAN, BOB_MAIN]),
  account: ibanRef([ALICE_MAIN, BOB_MAIN]),
  instructedAmount: fc.record({
    currency: fc.constant("EUR"),
    amount: fc.oneof(fc.integer({ min: 1, max: 99_999 }).map((c) => (c / 100).toFixed(2)), fc.integer({ min: 1, max: 500 })),
  }),
  creditorAddress: fc.constant({ street: "Hauptstr.", buildingNumber: "1", city: "Berlin", postalCode: "10115", country: "DE" }),
  requestedExecutionDate: fc.integer({ min: 1, max: 60 }).map(futureDate),
  creditorAgent: fc.constant("COBADEFFXXX"),
  access: fc.constantFrom<Json>(
    { accounts: [], balances: [], transactions: [], availableAccounts: "allAccounts", allPsd2: "allAccounts" },
    { accounts: [ALICE_MAIN], balances: [ALICE_MAIN], transactions: [ALICE_MAIN] },
    { availableAccounts: "allAccounts" },
  ),
  recurringIndicator: fc.constant(true),
  validUntil: fc.integer({ min: 1, max: 90 }).map(futureDate),
  frequencyPerDay: fc.integer({ min: 1, max: 4 }),
};

/** A value that satisfies `schema` and the bank's rules, the optional fields sometimes left out. */
function valid(schema: Schema, name = ""): fc.Arbitrary<Json> {
  const semantic = SEMANTIC[name];
  if (semantic) return semantic;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (type) {
    case "object": {
      const props = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      return fc.tuple(...props.map(([key, sub]) => (required.has(key) ? valid(sub, key) : fc.option(valid(sub, key), { nil: undefined }))))
        .map((values) => Object.fromEntries(props.flatMap(([key], i) => (values[i] === undefined ? [] : [[key, values[i]!]]))));
    }
    case "integer":
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.constant([]);
    default:
      return fc.string({ unit: SEPA_CHAR, minLength: 1, maxLength: Math.min(schema.maxLength ?? 35, 35) })
        .map((s) => (s.trim() === "" ? "x" : s));
  }
}

/** Every field path in `schema`, nested objects included. */
function fieldPaths(schema: Schema, prefix: string[] = []): { path: string[]; schema: Schema }[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, sub]) =>
    [{ path: [...prefix, key], schema: sub }, ...fieldPaths(sub, [...prefix, key])]);
}

const HUGE = [1e308, -1e308, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e-9, -0.01];
const HUGE_TEXT = ["1e400", "99999999999999999999999999.99", "-0.00", "0.001", "1,00", "NaN", "Infinity", " 1.00"];
const UNICODE = ["Zürich €", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀", "مرحبا", "\u202Eevil", "a\u0000b", "e\u0301", "\uFEFF", "\uD800"];

/** Values that break one field: other types, lengths at and past the limit, unicode, huge numbers. */
function mutation(schema: Schema): fc.Arbitrary<Json | undefined> {
  const max = schema.maxLength ?? 70;
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom<Json>(null, true, 42, -1, "text", [], {}, [1, "a"], { nested: { deep: [] } }),
    fc.constantFrom<Json>("a".repeat(max), "a".repeat(max + 1), "", " ", "9".repeat(max + 1)),
    fc.constantFrom<Json>(...UNICODE),
    fc.string({ unit: "grapheme", maxLength: max + 5 }),
    fc.constantFrom<Json>(...HUGE, ...HUGE_TEXT),
  );
}

function withField(body: Json, path: string[], value: Json | undefined): Json {
  const copy = structuredClone(body) as Record<string, Json>;
  let node: Record<string, Json> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, Json>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

interface Route { name: string; method: string; path: () => string; headers: () => Record<string, string>; body?: Schema }

const fundsBody: Schema = {
  type: "object", required: ["account", "instructedAmount"],
  properties: { account: accountReference as Schema, instructedAmount: amount as Schema, payee: { type: "string", maxLength: 70 } },
};
const reading = () => ({ "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
const ROUTES: Route[] = [
  { name: "payment", method: "POST", path: () => "/psd2/v1/payments/sepa-credit-transfers",
    headers: () => ({ "TPP-Redirect-URI": OK_URI, "TPP-Nok-Redirect-URI": NOK_URI }), body: paymentInitiationBody as Schema },
  { name: "consent", method: "POST", path: () => "/psd2/v1/consents",
    headers: () => ({ "TPP-Redirect-URI": OK_URI }), body: consentBody as Schema },
  { name: "funds", method: "POST", path: () => "/psd2/v1/funds-confirmations", headers: () => ({}), body: fundsBody },
  { name: "accounts", method: "GET", path: () => "/psd2/v1/accounts?withBalance=true", headers: reading },
  { name: "transactions", method: "GET", headers: reading,
    path: () => `/psd2/v1/accounts/${accountId}/transactions?bookingStatus=booked&dateFrom=${futureDate(-30)}` },
  { name: "payment status", method: "GET", path: () => `/psd2/v1/payments/sepa-credit-transfers/${paymentId}/status`,
    headers: () => ({}) },
];

type HeaderMutation = { kind: "header"; name: string; value: string | string[] | null };
type BodyMutation = { kind: "body"; path: string[]; value: Json | undefined };

const HEADER_VALUES = fc.oneof(
  fc.constant(null), fc.constant("not-a-uuid"), fc.constant(""), fc.constant("x".repeat(300)),
  fc.constant("Zürich"), fc.tuple(fc.uuid(), fc.uuid()).map(([a, b]) => [a, b]),
  fc.constantFrom("999.999.999.999", "::1", "javascript:alert(1)", "http://", "application/xml"),
);

function mutationsOf(route: Route): fc.Arbitrary<HeaderMutation | BodyMutation | null> {
  const names = ["X-Request-ID", ...Object.keys(route.headers()), ...(route.body ? ["Content-Type"] : [])];
  const header = fc.record({ kind: fc.constant("header" as const), name: fc.constantFrom(...names), value: HEADER_VALUES });
  if (!route.body) return fc.oneof(fc.constant(null), header);
  const fields = fieldPaths(route.body);
  const body = fc.constantFrom(...fields).chain(({ path, schema }) =>
    mutation(schema).map((value): BodyMutation => ({ kind: "body", path, value })));
  return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: header }, { weight: 6, arbitrary: body });
}

/** What a refused request may not change: postings per ledger account, consents, payments. */
async function snapshot(): Promise<string> {
  const { db, ledger } = bank.app.store;
  const sums: string[] = [];
  for (const account of await ledger.allAccounts(db)) sums.push(`${account.id}:${await ledger.sumOfEntries(db, account.id)}`);
  const consents = await db.selectFrom("consents").select(["id", "status"]).orderBy("id").execute();
  const payments = await db.selectFrom("payments").select(["id", "status"]).orderBy("id").execute();
  return JSON.stringify({ sums, consents, payments });
}

async function send(route: Route, body: Json | undefined, change: HeaderMutation | null): Promise<TppResponse> {
  const headers: Record<string, string | string[] | null> = { ...route.headers() };
  if (change) headers[change.name] = change.value;
  return bank.tpp.call(route.method, route.path(), { headers, body });
}

const request = fc.constantFrom(...ROUTES).chain((route) =>
  fc.tuple(fc.constant(route), route.body ? valid(route.body) : fc.constant(undefined), mutationsOf(route)));

test("requests from the route schemas: valid ones succeed, mutated ones are refused cleanly and change nothing",
  async (t) => {
    t.diagnostic(`FUZZ_SEED=${FUZZ_SEED} repeats this run`);
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    await fc.assert(fc.asyncProperty(request, async ([route, body, change]) => {
      const what = `${route.name} ${JSON.stringify(change)} body ${JSON.stringify(body)}`;
      if (change === null) {
        const res = await send(route, body, null);
        assert.ok(res.status < 300, `valid ${what} → ${res.status} ${res.text}`);
        count("valid, accepted");
        return;
      }
      const before = await snapshot();
      const mutated = change.kind === "body" ? withField(body ?? {}, change.path, change.value) : body;
      const res = await send(route, mutated, change.kind === "header" ? change : null);
      assertBerlinGroup(res, what);
      count(`${change.kind} mutated, ${res.status < 400 ? "accepted" : `refused ${res.status} ${res.body.tppMessages[0].code}`}`);
      if (res.status >= 400) assert.equal(await snapshot(), before, `refused ${what} changed the bank`);
    }), { numRuns: 1000, seed: FUZZ_SEED });
    t.diagnostic([...tally].sort().map(([k, n]) => `${k}: ${n}`).join("; "));
    const refusals = [...tally].reduce((n, [k, c]) => (k.includes("refused") ? n + c : n), 0);
    assert.ok((tally.get("valid, accepted") ?? 0) > 0 && refusals >= 100, "the generators lost their spread");
  });
