/**
 * The published document as API portals and client generators take it (issue 34): the linter
 * portals run (@redocly/cli, recommended rules) finds no error in either profile nor in /v2's,
 * and only the warnings docs/tpp-guide.md lists with their reasons; every operation is named (the Berlin Group
 * file's operationIds where it has the operation) and secured (the TPP's certificate; the OAuth
 * bearer as the bank checks it); the server is the API's URL; the product paths an initiation is
 * documented under are those the bank takes, each in its one media type.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { parse } from "yaml";
import { BERLIN_GROUP_OPERATION_IDS } from "../../src/api/openapi-operations.js";
import { CREATION_HEADERS, createPayment } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

type Operation = { operationId?: string; security?: Record<string, string[]>[] };
type Document = {
  servers: { url: string }[]; info: { license: { identifier: string } };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string }> };
};
interface Problem { ruleId: string; severity: string; message: string; location: { pointer: string }[] }

let spec: TestBank;
let bg: TestBank;
let dir: string;
before(async () => {
  spec = await startBank({ env: { OAUTH_BEARER_REQUIRED: "true" } });
  bg = await startBank({ env: { API_PROFILE: "berlin-group" } });
  dir = await mkdtemp(join(tmpdir(), "psd2-lint-"));
});
after(async () => {
  await Promise.all([spec.close(), bg.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function documentOf(bank: TestBank, version = "v1"): Promise<Document> {
  const res = await bank.tpp.get(`/psd2/${version}/openapi.json`);
  assert.equal(res.status, 200, res.text);
  return res.body as Document;
}

/** `redocly lint` as a portal's pipeline runs it: no network, its exit code left to us. */
async function lint(document: Document, name: string): Promise<Problem[]> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document));
  const cli = join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [cli, "lint", file, "--format=json", "--max-problems=1000"],
      { env, maxBuffer: 64 * 1024 * 1024 }, (error, out) => {
        if (out) resolve(out); else reject(error ?? new Error("redocly wrote nothing"));
      });
  });
  return (JSON.parse(stdout) as { problems: Problem[] }).problems;
}

/** The rules of a docs/tpp-guide.md table of the warnings kept, with the reason for each. */
async function warningsKept(marker = "<!-- redocly warnings kept -->"): Promise<string[]> {
  const guide = await readFile(join(ROOT, "docs/tpp-guide.md"), "utf8");
  const table = guide.split(marker)[1] ?? "";
  return [...table.split("\n\n")[1]?.matchAll(/^\| `([a-z0-9.-]+)` \|/gm) ?? []]
    .map((m) => m[1]!).sort();
}

for (const [name, bank] of [["spec", () => spec], ["berlin-group", () => bg]] as const) {
  test(`${name}: redocly lint (recommended) finds no error, and only the warnings docs/tpp-guide.md keeps`, async () => {
    const problems = await lint(await documentOf(bank()), name);
    const errors = problems.filter((p) => p.severity === "error");
    assert.deepEqual(errors.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer}`), []);
    const warned = [...new Set(problems.map((p) => p.ruleId))].sort();
    assert.deepEqual(warned, await warningsKept());
  });

  test(`${name}: every operation has a unique operationId and a security requirement`, async () => {
    const { paths } = await documentOf(bank());
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    const ids = operations.map((op) => op.operationId);
    assert.ok(ids.every((id) => typeof id === "string" && /^[A-Za-z0-9]+$/.test(id)), ids.join());
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(operations.every((op) => Array.isArray(op.security)));
  });
}

test("v2: redocly lint (recommended) finds no error, and only the warnings docs/tpp-guide.md keeps for v2", async () => {
  const problems = await lint(await documentOf(spec, "v2"), "v2");
  const errors = problems.filter((p) => p.severity === "error");
  assert.deepEqual(errors.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer}`), []);
  const warned = [...new Set(problems.map((p) => p.ruleId))].sort();
  assert.deepEqual(warned, await warningsKept("<!-- redocly warnings kept for v2 -->"));
});

test("operationIds are the Berlin Group file's where it has the operation", async () => {
  const file = parse(await readFile(join(ROOT, "test", "fixtures", "berlin-group-psd2-api.yaml"),
    "utf8")) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const theirs = Object.entries(file.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([, op]) => op.operationId).map(([method, op]): [string, string] => {
      const shape = path.replace(/^\/v1\//, "").replace("{payment-service}", "{service}")
        .replace("{payment-product}", "{product}").replace(/\{(?!service\}|product\})[^}]+\}/g, "{}");
      return [`${method.toUpperCase()} ${shape}`, op.operationId!];
    }));
  assert.deepEqual(BERLIN_GROUP_OPERATION_IDS, Object.fromEntries(theirs));
  const { paths } = await documentOf(bg);
  assert.equal(paths["/psd2/v1/payments/{product}/{paymentId}/status"]?.get?.operationId,
    "getPaymentInitiationStatus");
  assert.equal(paths["/psd2/v1/periodic-payments/{product}/{paymentId}"]?.delete?.operationId,
    "cancelPeriodicPayment");
  assert.equal(paths["/psd2/v1/accounts"]?.get?.operationId, "getAccountList");
  assert.equal(paths["/psd2/v1/payments/sepa-credit-transfers"]?.post?.operationId,
    "initiatePaymentSepaCreditTransfers");
});

test("security: the certificate everywhere but the probes; OAUTH_BEARER_REQUIRED as the bank applies it", async () => {
  const document = await documentOf(spec);
  assert.equal(document.servers[0]?.url, spec.apiUrl);
  assert.equal(document.info.license.identifier, "Apache-2.0");
  const { securitySchemes } = document.components;
  assert.equal(securitySchemes.tppCertificate?.type, "mutualTLS");
  assert.equal(securitySchemes.BearerAuthOAuth?.type, "http");
  const { paths } = document;
  const certificate = { tppCertificate: [] };
  const both = { tppCertificate: [], BearerAuthOAuth: [] };
  assert.deepEqual(paths["/health"]?.get?.security, []);
  assert.deepEqual(paths["/psd2/v1/openapi.json"]?.get?.security, [certificate]);
  // A creation names no consent or payment yet: a token is optional (checked when sent).
  const create = "/psd2/v1/payments/sepa-credit-transfers";
  assert.deepEqual(paths[create]?.post?.security, [certificate, both]);
  const status = "/psd2/v1/payments/{paymentId}/status";
  assert.deepEqual(paths[status]?.get?.security, [both]);
  assert.deepEqual(paths["/psd2/v1/accounts"]?.get?.security, [both]);
  // And the bank does as documented.
  const { paymentId } = await createPayment(spec.tpp);
  const refused = await spec.tpp.get(status.replace("{paymentId}", paymentId));
  assert.equal(refused.status, 401, refused.text);
  assert.equal(refused.body.tppMessages[0].code, "TOKEN_INVALID");
  // Without OAUTH_BEARER_REQUIRED the token is optional on every XS2A operation.
  const optional = (await documentOf(bg)).paths[status]?.get?.security;
  assert.deepEqual(optional, [certificate, both]);
});

test("an initiation is documented under each product the bank takes, in its one media type", async () => {
  // The spec bank: the Berlin Group file's 415 has no body, where the bank's (both profiles) does.
  const { paths } = await documentOf(spec);
  const creations = Object.entries(paths).filter(([path, item]) =>
    item.post && /^\/psd2\/v1\/(payments|periodic-payments|bulk-payments)\/[a-z][^/]*$/.test(path));
  assert.deepEqual(creations.map(([path]) => path).sort(), [
    "/psd2/v1/bulk-payments/instant-sepa-credit-transfers",
    "/psd2/v1/bulk-payments/pain.001-instant-sepa-credit-transfers",
    "/psd2/v1/bulk-payments/pain.001-sepa-credit-transfers",
    "/psd2/v1/bulk-payments/sepa-credit-transfers",
    "/psd2/v1/payments/instant-sepa-credit-transfers",
    "/psd2/v1/payments/pain.001-instant-sepa-credit-transfers",
    "/psd2/v1/payments/pain.001-sepa-credit-transfers",
    "/psd2/v1/payments/sepa-credit-transfers",
    "/psd2/v1/periodic-payments/instant-sepa-credit-transfers",
    "/psd2/v1/periodic-payments/sepa-credit-transfers",
  ]);
  for (const [path, item] of creations) {
    const media = Object.keys((item.post as { requestBody: { content: object } }).requestBody.content);
    assert.equal(media.length, 1, path);
    // An empty JSON object: a JSON product judges the body (400), an XML one refuses JSON (415).
    const res = await spec.tpp.post(path, {}, CREATION_HEADERS);
    assert.equal(res.status, media[0] === "application/json" ? 400 : 415, `${path}: ${res.text}`);
    assert.notEqual(res.body.tppMessages[0].code, "PRODUCT_UNKNOWN");
  }
  const unknown = await spec.tpp.post("/psd2/v1/payments/cross-border-credit-transfers", {},
    CREATION_HEADERS);
  assert.equal(unknown.body.tppMessages[0].code, "PRODUCT_UNKNOWN", unknown.text);
});
