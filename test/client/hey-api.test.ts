/**
 * A second, independent client generator (@hey-api/openapi-ts, no Java) reads the bank's own
 * published document: the SDK it writes compiles under strict TypeScript together with a use of
 * it, and that use completes a payment and a consent against the bank (the PSU authorising on
 * the bank's pages), every answer checked against the Berlin Group file. Generated into a
 * temporary directory on every run, never committed.
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { createClient } from "@hey-api/openapi-ts";
import ts from "typescript";
import {
  ALICE_MAIN, bgConsentBody, bgPaymentBody, confirm, OK_URI, reachReview,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let dir: string;
before(async () => {
  bank = await startBank({ env: { API_PROFILE: "berlin-group" } });
  dir = await mkdtemp(join(tmpdir(), "psd2-hey-api-"));
});
after(async () => {
  await bank.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the test drives through the generated SDK; written as a TPP developer would. */
const USE = `
import { client } from "./sdk/client.gen.js";
import {
  createConsent, getAccountList, getBalances, getConsentStatus, getPaymentInitiationStatus,
  initiatePaymentSepaCreditTransfers,
} from "./sdk/sdk.gen.js";
import type {
  CreateConsentData, GetAccountListData, InitiatePaymentSepaCreditTransfersData,
} from "./sdk/types.gen.js";

const id = () => crypto.randomUUID();

// Checked against the headers the document declares: one it left out would not compile.
type CreationHeaders =
  InitiatePaymentSepaCreditTransfersData["headers"] & CreateConsentData["headers"];
const creation = () => ({
  "X-Request-ID": id(), "PSU-IP-Address": "192.0.2.10", "TPP-Redirect-URI": "${OK_URI}",
}) satisfies CreationHeaders;

export function configure(baseUrl: string, fetch: typeof globalThis.fetch): void {
  client.setConfig({ baseUrl, fetch });
}

export async function initiate(body: InitiatePaymentSepaCreditTransfersData["body"]) {
  const created = await initiatePaymentSepaCreditTransfers({ body, headers: creation() });
  return { status: created.response.status, paymentId: created.data?.paymentId ?? "",
    scaRedirect: created.data?._links?.scaRedirect?.href ?? "" };
}

export async function paymentStatus(paymentId: string) {
  const answer = await getPaymentInitiationStatus({
    path: { product: "sepa-credit-transfers", paymentId }, headers: { "X-Request-ID": id() },
  });
  return answer.data?.transactionStatus;
}

export async function register(body: CreateConsentData["body"]) {
  const created = await createConsent({ body, headers: creation() });
  return { status: created.response.status, consentId: created.data?.consentId ?? "",
    scaRedirect: created.data?._links?.scaRedirect?.href ?? "" };
}

export async function readWithin(consentId: string) {
  const status = await getConsentStatus({
    path: { consentId }, headers: { "X-Request-ID": id() },
  });
  const headers = {
    "X-Request-ID": id(), "Consent-ID": consentId,
  } satisfies GetAccountListData["headers"];
  const list = await getAccountList({ headers });
  const first = list.data?.accounts?.[0];
  const balances = await getBalances({
    path: { accountId: first?.resourceId ?? "" }, headers: { ...headers, "X-Request-ID": id() },
  });
  return { consentStatus: status.data?.consentStatus, iban: first?.iban,
    balances: balances.data?.balances?.length ?? 0 };
}
`;

const json = (bytes: Buffer | undefined) =>
  (bytes && bytes.length > 0 ? JSON.parse(bytes.toString()) : undefined);

/**
 * The generated SDK's fetch over the TPP's QWAC (Node's fetch cannot present a client
 * certificate); every exchange passes the test bank's checks (Berlin Group file, serialization).
 */
function mtlsFetch(agent: Agent): typeof globalThis.fetch {
  return async (input, init) => {
    const sent = new Request(input, init);
    const body = sent.body ? Buffer.from(await sent.arrayBuffer()) : undefined;
    const url = new URL(sent.url);
    const requestHeaders = Object.fromEntries(sent.headers);
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: sent.method, agent, headers: requestHeaders }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const answer = Buffer.concat(chunks);
          bank.tpp.check?.({
            method: sent.method, path: url.pathname + url.search, requestHeaders,
            requestBody: json(body), status, headers: res.headers, body: json(answer),
          });
          const headers = Object.entries(res.headers)
            .map(([name, value]): [string, string] => [name, String(value)]);
          resolve(new Response(status === 204 ? null : answer, { status, headers }));
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  };
}

/** Compiles the generated SDK and the use of it; returns the diagnostics. */
async function compile(): Promise<string[]> {
  await writeFile(join(dir, "use.ts"), USE);
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const sources = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".ts"));
  const program = ts.createProgram(sources.map((file) => join(dir, file)), {
    strict: true, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [], skipLibCheck: true, outDir: join(dir, "out"), rootDir: dir,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  return diagnostics.map((d) =>
    `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

test("@hey-api/openapi-ts: its client completes a payment and a consent at the bank", async () => {
  const document = (await bank.tpp.get("/psd2/v1/openapi.json")).body;
  await createClient({
    input: document, output: { path: join(dir, "sdk") }, logs: { level: "silent" },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
  });
  const sdk = await readFile(join(dir, "sdk", "sdk.gen.ts"), "utf8");
  // Named after the Berlin Group file's operationIds.
  assert.match(sdk, /export const initiatePaymentSepaCreditTransfers = /);
  assert.match(sdk, /export const getPaymentInitiationStatus = /);
  assert.deepEqual(await compile(), []);
  await writeFile(join(dir, "out", "package.json"), JSON.stringify({ type: "module" }));
  const use = await import(pathToFileURL(join(dir, "out", "use.js")).href);
  const [cert, key] = await Promise.all([
    readFile(bank.certs.tppCert), readFile(bank.certs.tppKey),
  ]);
  const agent = new Agent({ ca: bank.ca, cert, key, keepAlive: true });
  try {
    use.configure(bank.apiUrl, mtlsFetch(agent));
    const payment = await use.initiate(bgPaymentBody());
    assert.equal(payment.status, 201);
    const browser = bank.browser();
    const approval = await reachReview(browser, payment.scaRedirect, "alice");
    const authorised = await confirm(browser, approval);
    assert.equal(authorised.location, OK_URI);
    assert.notEqual(await use.paymentStatus(payment.paymentId), "RCVD");

    const consent = await use.register(bgConsentBody());
    assert.equal(consent.status, 201);
    const psu = bank.browser();
    const review = await reachReview(psu, consent.scaRedirect, "alice");
    const granted = await confirm(psu, review, [ALICE_MAIN]);
    assert.equal(granted.location, OK_URI);
    const read = await use.readWithin(consent.consentId);
    assert.equal(read.consentStatus, "valid");
    assert.equal(read.iban, ALICE_MAIN);
    assert.ok(read.balances > 0);
  } finally {
    agent.destroy();
  }
});
