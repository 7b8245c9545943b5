import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createDevCa, issueTppCertificate } from "../../src/tpp/dev-ca.js";
import {
  ALICE_MAIN, consentBody, EXTERNAL_IBAN, paymentBody, REDIRECTS,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient, type CallOptions, type TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const CONSENTS = "/psd2/v1/consents";
const HOUR_MS = 3_600_000;
const inAWeek = new Date(Date.now() + 7 * 24 * HOUR_MS).toISOString().slice(0, 10);

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

/** Asserts a Berlin Group refusal: JSON, exactly one ERROR message with a non-empty text. */
function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers["content-type"]), /^application\/json/, res.text);
  assert.doesNotMatch(res.text, /<html/i);
  assert.deepEqual(Object.keys(res.body ?? {}), ["tppMessages"], res.text);
  assert.equal(res.body.tppMessages.length, 1, res.text);
  const [message] = res.body.tppMessages;
  const keys = Object.keys(message).filter((k) => k !== "path");
  assert.deepEqual(keys.sort(), ["category", "code", "text"], res.text);
  assert.equal(message.category, "ERROR");
  assert.equal(message.code, code, res.text);
  assert.equal(typeof message.text, "string");
  assert.ok(message.text.length > 0, "empty text");
  if (path === undefined) assert.equal(message.path, undefined, res.text);
  else assert.equal(message.path, path, res.text);
}

async function storedRows(): Promise<{ payments: number; consents: number }> {
  const count = async (table: "payments" | "consents") => {
    const row = await bank.app.store.db.selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { payments: await count("payments"), consents: await count("consents") };
}

interface Row {
  name: string;
  url: string;
  request: CallOptions;
  status: number;
  code: string;
  path?: string;
}

const validBody = (url: string) => (url === SCT ? paymentBody() : consentBody());

function row(name: string, url: string, request: CallOptions, path?: string, status = 400): Row {
  return { name, url, request, status, code: "FORMAT_ERROR", path };
}

/** A row whose request is a valid creation with one header changed (null: not sent). */
function headerRow(url: string, name: string, headers: Record<string, string | null>,
  path: string): Row {
  return row(name, url, { body: validBody(url), headers }, path);
}

function rawRow(url: string, name: string, rawBody: string, status: number, path?: string,
  headers: Record<string, string> = {}): Row {
  return row(name, url, { rawBody, headers }, path, status);
}

function paymentRow(name: string, over: Record<string, unknown>, path: string): Row {
  return row(name, SCT, { body: paymentBody(over) }, path);
}

function consentRow(name: string, over: Record<string, unknown>, path: string): Row {
  return row(name, CONSENTS, { body: consentBody(over) }, path);
}

const amount = (value: unknown, currency = "EUR") =>
  ({ instructedAmount: { currency, amount: value } });

function commonRows(url: string): Row[] {
  const tag = url === SCT ? "payment" : "consent";
  const ok = "https://tpp.example/";
  const bigBody = JSON.stringify({ ...validBody(url), pad: "x".repeat(65 * 1024) });
  return [
    headerRow(url, `${tag}: missing X-Request-ID`, { "X-Request-ID": null }, "X-Request-ID"),
    headerRow(url, `${tag}: X-Request-ID not a UUID`, { "X-Request-ID": "req-1" }, "X-Request-ID"),
    headerRow(url, `${tag}: missing TPP-Redirect-URI`, { "TPP-Redirect-URI": null },
      "TPP-Redirect-URI"),
    headerRow(url, `${tag}: TPP-Redirect-URI not https`,
      { "TPP-Redirect-URI": "http://tpp.example/ok" }, "TPP-Redirect-URI"),
    headerRow(url, `${tag}: TPP-Redirect-URI relative`, { "TPP-Redirect-URI": "/ok" },
      "TPP-Redirect-URI"),
    headerRow(url, `${tag}: TPP-Redirect-URI over 500 characters`,
      { "TPP-Redirect-URI": ok + "a".repeat(501 - ok.length) }, "TPP-Redirect-URI"),
    rawRow(url, `${tag}: malformed JSON`, "{\"access\":", 400, "body"),
    rawRow(url, `${tag}: empty body`, "", 400, "body"),
    row(`${tag}: no body at all`, url, {}, "body"),
    rawRow(url, `${tag}: Content-Type text/plain`, JSON.stringify(validBody(url)), 415,
      "Content-Type", { "Content-Type": "text/plain" }),
    rawRow(url, `${tag}: body over 64 KiB`, bigBody, 413),
  ];
}

const ROWS: Row[] = [
  ...commonRows(SCT),
  paymentRow("missing creditorName", { creditorName: undefined }, "creditorName"),
  paymentRow("missing instructedAmount", { instructedAmount: undefined }, "instructedAmount"),
  paymentRow("missing debtorAccount", { debtorAccount: undefined }, "debtorAccount"),
  paymentRow("unknown field", { chargeBearer: "SLEV" }, "chargeBearer"),
  paymentRow("IBAN with a wrong checksum", { creditorAccount: "DE88370400440532013000" },
    "creditorAccount"),
  paymentRow("IBAN of an unknown country", { creditorAccount: "XX89370400440532013000" },
    "creditorAccount"),
  paymentRow("amount 0", amount(0), "instructedAmount.amount"),
  paymentRow("negative amount", amount(-5), "instructedAmount.amount"),
  paymentRow("amount with 3 decimals", amount(12.505), "instructedAmount.amount"),
  paymentRow("amount \"abc\"", amount("abc"), "instructedAmount.amount"),
  paymentRow("amount over 999999999.99", amount("1000000000.00"), "instructedAmount.amount"),
  paymentRow("currency \"EU\"", amount(12.5, "EU"), "instructedAmount.currency"),
  paymentRow("currency USD (SEPA is EUR)", amount(12.5, "USD"), "instructedAmount.currency"),
  paymentRow("creditorName over 70 characters", { creditorName: "M".repeat(71) }, "creditorName"),
  paymentRow("remittance with non-SEPA characters",
    { remittanceInformationUnstructured: "Bestellung Nr. 42 für 5 €" },
    "remittanceInformationUnstructured"),
  paymentRow("creditorAddress.country XX",
    { creditorAddress: { city: "Berlin", country: "XX" } }, "creditorAddress.country"),
  paymentRow("debtor account not held at this bank",
    { debtorAccount: EXTERNAL_IBAN, creditorAccount: ALICE_MAIN }, "debtorAccount"),
  paymentRow("IBAN one character short for its country",
    { creditorAccount: "DE8937040044053201300" }, "creditorAccount"),
  paymentRow("account object with a wrong IBAN",
    { creditorAccount: { iban: "DE88370400440532013000" } }, "creditorAccount.iban"),
  paymentRow("account object with currency \"EURO\"",
    { debtorAccount: { iban: ALICE_MAIN, currency: "EURO" } }, "debtorAccount.currency"),
  paymentRow("account object with an unknown field",
    { debtorAccount: { iban: ALICE_MAIN, bban: "x" } }, "debtorAccount.bban"),
  paymentRow("account given as a number", { creditorAccount: 42 }, "creditorAccount"),
  paymentRow("creditorName a number", { creditorName: 42 }, "creditorName"),
  paymentRow("creditorName blank", { creditorName: "   " }, "creditorName"),
  paymentRow("amount a boolean", amount(true), "instructedAmount.amount"),
  paymentRow("amount with an exponent", amount("1e3"), "instructedAmount.amount"),
  paymentRow("currency missing", { instructedAmount: { amount: "1.00" } },
    "instructedAmount.currency"),
  paymentRow("instructedAmount with an unknown field",
    { instructedAmount: { currency: "EUR", amount: "1.00", fee: "0" } }, "instructedAmount.fee"),
  paymentRow("creditorAgent not a BIC", { creditorAgent: "NOTABIC" }, "creditorAgent"),
  paymentRow("a payment from an account to itself", { creditorAccount: ALICE_MAIN },
    "creditorAccount"),
  paymentRow("remittance over 140 characters",
    { remittanceInformationUnstructured: "r".repeat(141) }, "remittanceInformationUnstructured"),
  paymentRow("endToEndIdentification over 35 characters",
    { endToEndIdentification: "e".repeat(36) }, "endToEndIdentification"),
  paymentRow("Berlin Group address with country XX",
    { creditorAddress: { streetName: "Main", townName: "Paris", postCode: "75", country: "XX" } },
    "creditorAddress.country"),
  paymentRow("creditorAddress without country", { creditorAddress: { city: "Berlin" } },
    "creditorAddress.country"),
  paymentRow("creditorAddress with an unknown field",
    { creditorAddress: { country: "DE", planet: "Earth" } }, "creditorAddress.planet"),
  paymentRow("requestedExecutionDate in the past", { requestedExecutionDate: "2020-01-01" },
    "requestedExecutionDate"),
  paymentRow("requestedExecutionDate not a date", { requestedExecutionDate: "2099-02-30" },
    "requestedExecutionDate"),
  rawRow(SCT, "body a JSON array", "[]", 400, "body"),
  { name: "instant payment with a future date",
    url: "/psd2/v1/payments/instant-sepa-credit-transfers",
    request: { body: paymentBody({ requestedExecutionDate: inAWeek }) }, status: 403,
    code: "PRODUCT_INVALID", path: "requestedExecutionDate" },
  { name: "unknown payment product", url: "/psd2/v1/payments/target-2-payments",
    request: { body: paymentBody() }, status: 404, code: "PRODUCT_UNKNOWN" },
  { name: "cross-border product not offered",
    url: "/psd2/v1/payments/cross-border-credit-transfers",
    request: { body: paymentBody() }, status: 404, code: "PRODUCT_UNKNOWN" },
  ...commonRows(CONSENTS),
  consentRow("validUntil in the past", { validUntil: "2020-01-01" }, "validUntil"),
  consentRow("validUntil not a date", { validUntil: "31.12.2099" }, "validUntil"),
  consentRow("frequencyPerDay 0", { frequencyPerDay: 0 }, "frequencyPerDay"),
  consentRow("access with named accounts and allPsd2",
    { access: { accounts: [ALICE_MAIN], allPsd2: "allAccounts" } }, "access"),
  consentRow("access {}", { access: {} }, "access"),
];

test("every creation request breaking one rule is refused in Berlin Group form, storing nothing",
  async (t) => {
    for (const row of ROWS) {
      await t.test(row.name, async () => {
        const stored = await storedRows();
        const headers = { ...REDIRECTS, ...row.request.headers };
        const res = await bank.tpp.call("POST", row.url, { ...row.request, headers });
        assert.notEqual(res.status, 500, res.text);
        assertRefusal(res, row.status, row.code, row.path);
        assert.deepEqual(await storedRows(), stored, "a refused request stored something");
      });
    }
  });

/** A client with its own TLS identity (or none), closed after the test. */
async function withClient(
  tls: { cert?: string; key?: string }, use: (client: TppClient) => Promise<void>,
) {
  const client = new TppClient(bank.apiUrl, { ca: bank.ca, ...tls });
  try {
    await use(client);
  } finally {
    client.close();
  }
}

async function assertCertificateRefused(client: TppClient, code: string) {
  const res = await client.post(SCT, paymentBody(), REDIRECTS);
  assertRefusal(res, 401, code);
  assertRefusal(await client.get("/psd2/v1/accounts", { "Consent-ID": randomUUID() }), 401, code);
}

test("a call without a client certificate is 401 CERTIFICATE_MISSING", async () => {
  await withClient({}, (client) => assertCertificateRefused(client, "CERTIFICATE_MISSING"));
});

test("a certificate from another CA is 401 CERTIFICATE_INVALID", async () => {
  const foreignCa = await createDevCa("Foreign Test CA");
  const issued = await issueTppCertificate(foreignCa, {
    name: "Foreign TPP", organizationIdentifier: "PSDDE-BAFIN-333333", roles: ["PSP_PI", "PSP_AI"],
  });
  await withClient({ cert: issued.certPem, key: issued.keyPem },
    (client) => assertCertificateRefused(client, "CERTIFICATE_INVALID"));
});

test("a certificate without the PSD2 QC statement is 401 CERTIFICATE_INVALID", async () => {
  const client = await bank.tppWith({
    organizationIdentifier: "PSDDE-BAFIN-444444", withoutQcStatement: true,
  });
  await assertCertificateRefused(client, "CERTIFICATE_INVALID");
});

test("an expired certificate is 401 CERTIFICATE_EXPIRED", async () => {
  const now = Date.now();
  const client = await bank.tppWith({
    organizationIdentifier: "PSDDE-BAFIN-555555",
    notBefore: new Date(now - 48 * HOUR_MS), notAfter: new Date(now - 24 * HOUR_MS),
  });
  await assertCertificateRefused(client, "CERTIFICATE_EXPIRED");
});

test("an unknown path is a 404 in JSON", async () => {
  assertRefusal(await bank.tpp.get("/psd2/v1/no-such-thing"), 404, "RESOURCE_UNKNOWN");
  assertRefusal(await bank.tpp.get("/index.html"), 404, "RESOURCE_UNKNOWN");
});

test("a method a known path does not take is 405 SERVICE_INVALID with Allow, changing nothing",
  async () => {
    const before = await storedRows();
    const put = await bank.tpp.call("PUT", CONSENTS, { body: consentBody() });
    assertRefusal(put, 405, "SERVICE_INVALID");
    assert.equal(put.headers.allow, "POST");
    const { paymentId } = (await bank.tpp.post(SCT, paymentBody(), REDIRECTS)).body;
    const patch = await bank.tpp.call("PATCH", `${SCT}/${paymentId}`);
    assertRefusal(patch, 405, "SERVICE_INVALID");
    assert.equal(patch.headers.allow, "DELETE, GET, HEAD");
    assert.equal((await storedRows()).consents, before.consents);
    assertRefusal(await bank.tpp.call("PUT", "/psd2/v1/no-such-thing"), 404, "RESOURCE_UNKNOWN");
  });

test("a malformed X-Request-ID is refused and not echoed back", async () => {
  const res = await bank.tpp.get("/psd2/v1/accounts", { "X-Request-ID": "<script>1</script>" });
  assertRefusal(res, 400, "FORMAT_ERROR", "X-Request-ID");
  assert.equal(res.headers["x-request-id"], undefined);
  const id = randomUUID();
  assert.equal((await bank.tpp.get("/psd2/v1/accounts", { "X-Request-ID": id })).headers["x-request-id"], id,
    "a well-formed one is echoed");
});

test("account reads without Consent-ID are 400 FORMAT_ERROR on Consent-ID", async () => {
  assertRefusal(await bank.tpp.get("/psd2/v1/accounts"), 400, "FORMAT_ERROR", "Consent-ID");
});

test("account reads with an unknown Consent-ID are 400 CONSENT_UNKNOWN", async () => {
  const res = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": randomUUID() });
  assertRefusal(res, 400, "CONSENT_UNKNOWN", "Consent-ID");
});

test("withBalance=maybe is 400 FORMAT_ERROR on withBalance", async () => {
  const res = await bank.tpp.get("/psd2/v1/accounts?withBalance=maybe",
    { "Consent-ID": randomUUID() });
  assertRefusal(res, 400, "FORMAT_ERROR", "withBalance");
});
