/**
 * The typed TPP client (client/): types generated from the bank's own published OpenAPI document
 * by client/generate.ts type-check a correct use and refuse wrong ones; the types the build writes
 * to client/types/ are those of the documents the bank serves; the client runs the payment and consent
 * creations against the bank, every exchange checked against the Berlin Group file.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import ts from "typescript";
import { generateTypes } from "../../client/generate.js";
import { ALICE_MAIN, bgConsentBody, bgPaymentBody, CREATION_HEADERS } from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import { berlinGroupClient } from "../support/typed-client.js";

const CLIENT = join(import.meta.dirname, "..", "..", "..", "client", "index.ts");

let bank: TestBank;
let dir: string;
before(async () => {
  bank = await startBank({ env: { API_PROFILE: "berlin-group" } });
  dir = await mkdtemp(join(tmpdir(), "psd2-client-"));
  const document = await bank.tpp.get("/psd2/v1/openapi.json");
  await writeFile(join(dir, "bank.ts"), await generateTypes(document.body));
});
after(async () => {
  await bank.close();
  await rm(dir, { recursive: true, force: true });
});

/** Type-checks `code` (an ES module using the client with the generated types); returns the errors. */
async function typeErrors(code: string, types = "bank"): Promise<string[]> {
  const file = join(dir, `use-${Math.random().toString(36).slice(2)}.mts`);
  await writeFile(file, `import { createClient } from ${JSON.stringify(CLIENT.replace(/\.ts$/, ".js"))};\n`
    + `import type { paths } from "./${types}.js";\nconst client = createClient<paths>({ baseUrl: "https://x", tls: { cert: "", key: "" } });\n${code}\n`);
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022, types: ["node"], skipLibCheck: true, typeRoots: [join(CLIENT, "..", "..", "node_modules", "@types")],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

test("the generated types accept a correct use of the client", async () => {
  const errors = await typeErrors(`
    const created = await client.request("post", "/psd2/v1/payments/sepa-credit-transfers", {
      body: { debtorAccount: { iban: "DE1" }, creditorAccount: { iban: "DE2" }, creditorName: "Shop",
        instructedAmount: { currency: "EUR", amount: "1.00" } },
    });
    if (created.status === 201) {
      const id: string | undefined = created.body.paymentId;
      const link: string | undefined = created.body._links?.scaRedirect?.href;
      console.log(id, link);
    }
    const accounts = await client.request("get", "/psd2/v1/accounts", { query: { withBalance: "true" }, headers: { "Consent-ID": "c" } });
    console.log(accounts.status);`);
  assert.deepEqual(errors, []);
});

test("the generated types refuse an unknown path, a wrong method, a wrong body and a wrong field", async () => {
  const refused = async (code: string, why: RegExp) => assert.match((await typeErrors(code)).join("\n"), why);
  // An unknown path offers no method at all.
  await refused(`await client.request("get", "/psd2/v1/nowhere", {});`, /'"get"' is not assignable to parameter of type 'never'/);
  await refused(`await client.request("delete", "/psd2/v1/accounts", {});`, /'"delete"' is not assignable/);
  await refused(`await client.request("post", "/psd2/v1/consents", {
    body: { access: {}, recurringIndicator: "yes", validUntil: "2030-01-01", frequencyPerDay: 4, combinedServiceIndicator: false } });`,
  /recurringIndicator|boolean/);
  await refused(`const r = await client.request("get", "/psd2/v1/consents/{consentId}/status", { path: { consentId: "c" } });
    if (r.status === 200) { const n: number | undefined = r.body.consentStatus; console.log(n); }`, /not assignable to type 'number/);
});

test("the types the build writes (client/types/) are those of the documents the bank serves", async (t) => {
  const spec = await startOwnBank(t, { env: { API_PROFILE: "spec" } });
  for (const [profile, at] of [["spec", spec], ["berlin-group", bank]] as const) {
    const file = join(CLIENT, "..", "types", `${profile}.ts`);
    const served = await generateTypes((await at.tpp.get("/psd2/v1/openapi.json")).body);
    assert.ok(await readFile(file, "utf8") === served,
      `client/types/${profile}.ts differs from the served document`);
  }
});

test("the client creates a payment and a consent at the bank; the answers conform to Berlin Group", async () => {
  // Every exchange is checked against the Berlin Group file (test/support/typed-client.ts).
  const client = berlinGroupClient(bank, CREATION_HEADERS);
  try {
    const created = await client.request("post", "/psd2/v1/payments/sepa-credit-transfers",
      { body: bgPaymentBody() });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const paymentId = created.status === 201 ? created.body.paymentId ?? "" : "";
    const status = await client.request("get", "/psd2/v1/payments/{product}/{paymentId}/status",
      { path: { product: "sepa-credit-transfers", paymentId } });
    assert.deepEqual(status.body, { transactionStatus: "RCVD" });
    const consent = await client.request("post", "/psd2/v1/consents", { body: bgConsentBody() });
    assert.equal(consent.status, 201, JSON.stringify(consent.body));
  } finally {
    client.close();
  }
});

test("v2: types generated from /psd2/v2/openapi.json type-check a consent creation; the client runs it", async () => {
  const document = await bank.tpp.get("/psd2/v2/openapi.json");
  const types = await generateTypes(document.body);
  await writeFile(join(dir, "bank-v2.ts"), types);
  const body = `{ access: { payments: [{ account: { iban: "DE1" }, rights: ["ais"] }] },
    consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4 }`;
  assert.deepEqual(await typeErrors(`await client.request("post", "/psd2/v2/consents/account-access", { body: ${body} });`, "bank-v2"), []);
  const wrong = await typeErrors(`await client.request("post", "/psd2/v2/consents/account-access", { body: { validUntil: "x" } });`, "bank-v2");
  assert.ok(wrong.length > 0);
  const { createClient } = await import("../../client/index.js");
  // Its types were checked above, from a module generated now; here it runs untyped.
  const client = createClient<Record<string, never>>({
    baseUrl: bank.apiUrl, observe: bank.tpp.check,
    tls: { cert: await readFile(bank.certs.tppCert), key: await readFile(bank.certs.tppKey), ca: bank.ca },
    headers: { "Client-Redirect-URI": "https://localhost/ok", "PSU-IP-Address": "192.0.2.1" },
  });
  const request = client.request as unknown as (method: string, path: string, init: object) =>
    Promise<{ status: number; body: unknown }>;
  const created = await request("post", "/psd2/v2/consents/account-access", { body: {
    access: { payments: [{ account: { iban: ALICE_MAIN }, rights: ["ais"] }] },
    consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
});
