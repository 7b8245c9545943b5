/**
 * The published OpenAPI document of /v2: the openFinance files' operations (schemas/openfinance/)
 * for exactly the routes the bank serves under /psd2/v2, each under its served path, with the
 * files' parameters, bodies and answers; valid for an independent validator; its HTML page
 * self-contained. Linted beside /v1's in openapi-lint.test.ts.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { parse } from "yaml";
import { routesServed } from "../support/served-routes.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

const FOLDER = fileURLToPath(new URL("../../../schemas/openfinance/", import.meta.url));
const DOCUMENT = "/psd2/v2/openapi.json";

type Json = Record<string, any>;
const files: Record<string, Json> = Object.fromEntries(readdirSync(FOLDER).filter((n) => n.endsWith(".yaml"))
  .map((name) => [name, parse(readFileSync(join(FOLDER, name), "utf8"))]));
const fileOperation = (file: string, path: string, method: string) => files[file]!.paths[path][method];
const CONSENT_FILE = Object.keys(files).find((n) => n.includes("_Consent_"))!;

let bank: TestBank;
let document: Json;
before(async () => {
  bank = await startBank();
  const res = await bank.tpp.get(DOCUMENT);
  assert.equal(res.status, 200, res.text);
  document = res.body;
});
after(async () => { await bank.close(); });

const operations = () => Object.entries(document.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })));

test("every /v2 route served is published, and every published operation is served", () => {
  // Besides the document itself: a download link's target, followed as an answer's
  // _links.download gives it (AIS 2.4.1 has no operation for it).
  const served = routesServed(bank).filter((route) => route.includes(" /psd2/v2/")
    && !/\/(openapi\.json|reference)$/.test(route) && !route.includes("/transactions/download/"));
  const published = operations()
    .map(({ path, method }) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`).sort();
  assert.ok(published.length >= 16, published.join("\n"));
  assert.deepEqual(published, served);
});

test("valid OpenAPI 3.1 for an independent validator; licensed and attributed as the files ask", async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(validator.version, "3.1");
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(document.info.license.identifier, "CC-BY-4.0");
  assert.match(document.info.description, /Berlin Group/);
  // The files of the operations served: AIS and Consent at least, each one the project keeps.
  const named = document.info["x-openfinance-files"].map((f: Json) => f.file);
  assert.ok(named.every((file: string) => files[file]), named.join());
  assert.ok(["AIS", "Consent"].every((kind) => named.some((file: string) => file.includes(`_${kind}_`))), named.join());
  assert.equal(document.servers[0].url, bank.apiUrl);
});

test("each operation is its file's: parameters, body and answers; a generic segment the route fixes is written out", () => {
  const create = document.paths["/psd2/v2/consents/account-access"].post;
  const theirs = fileOperation(CONSENT_FILE, "/v2/consents/account-access", "post");
  assert.equal(create.operationId, theirs.operationId);
  assert.deepEqual(create.requestBody, theirs.requestBody);
  assert.deepEqual(create.responses, theirs.responses);
  const names = create.parameters.map((p: Json) => p.name);
  for (const header of ["X-Request-ID", "Digest", "x-jws-signature", "Client-Redirect-URI",
    "Client-Notification-URI", "Client-Notification-Content-Preferred"]) {
    assert.ok(names.includes(header), header);
  }
  const status = document.paths["/psd2/v2/consents/account-access/{consentId}/status"].get;
  const generic = fileOperation(CONSENT_FILE, "/v2/consents/{consent-category}/{consentId}/status", "get");
  assert.equal(status.operationId, `${generic.operationId}AccountAccess`);
  assert.deepEqual(status.parameters.filter((p: Json) => p.in === "path").map((p: Json) => p.name), ["consentId"]);
  // Every path parameter is declared on its operation, and every declared one is in the path.
  for (const { path, method, op } of operations()) {
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    const declared = op.parameters.filter((p: Json) => p.in === "path").map((p: Json) => p.name).sort();
    assert.deepEqual(declared, inPath, `${method} ${path}`);
  }
  const ids = operations().map(({ op }) => op.operationId);
  assert.equal(new Set(ids).size, ids.length);
});

test("the signing baskets are the BASK file's operations, their authorisations its generic ones", () => {
  const bask = Object.keys(files).find((n) => n.includes("_BASK_"))!;
  assert.ok(document.info["x-openfinance-files"].some((f: Json) => f.file === bask));
  const ops = (path: string) => document.paths[`/psd2/v2/signing-baskets${path}`] ?? {};
  assert.deepEqual([ops("").post, ops("/{basketId}").get, ops("/{basketId}").delete,
    ops("/{basketId}/status").get].map((op: Json | undefined) => op?.operationId),
  ["establishSigningBasket", "getSigningBasket", "deleteSigningBasket", "getSigningBasketStatus"]);
  assert.deepEqual(ops("").post.requestBody, fileOperation(bask, "/v2/signing-baskets", "post").requestBody);
  // The generic path's own {resourceId}, and the category the route fixes, in the name.
  const authorisations = ops("/{resourceId}/authorisations");
  assert.equal(authorisations.post?.operationId, "startAuthorisationProcessSigningBasketsAuthorisations");
  assert.equal(authorisations.get?.operationId, "getAuthorisationSubResourcesSigningBasketsAuthorisations");
  assert.deepEqual(Object.keys(ops("/{resourceId}/authorisations/{authorisationId}")).sort(), ["get", "put"]);
});

test("every component referenced is published; the files define the ones they share alike", () => {
  const text = JSON.stringify(document);
  for (const [, kind, name] of text.matchAll(/"#\/components\/([^/"]+)\/([^/"]+)"/g)) {
    assert.ok(document.components[kind!]?.[name!], `${kind}/${name}`);
  }
  const seen = new Map<string, string>();
  for (const [file, doc] of Object.entries(files)) {
    for (const [kind, all] of Object.entries(doc.components as Json)) {
      for (const [name, definition] of Object.entries(all as Json)) {
        const key = `${kind}/${name}`;
        const before = seen.get(key);
        if (before !== undefined) assert.equal(JSON.stringify(definition), before, `${key} in ${file}`);
        seen.set(key, JSON.stringify(definition));
      }
    }
  }
});

test("secured as the bank checks: the TPP's certificate on every operation, the OAuth bearer optional", () => {
  const { securitySchemes } = document.components;
  assert.equal(securitySchemes.tppCertificate.type, "mutualTLS");
  assert.equal(securitySchemes.BearerAuthOAuth.type, "http");
  const certificate = { tppCertificate: [] };
  for (const { op } of operations()) {
    assert.deepEqual(op.security, [certificate, { ...certificate, BearerAuthOAuth: [] }]);
  }
});

test("the reference page lists the operations, without scripts or external assets", async () => {
  const res = await bank.tpp.get("/psd2/v2/reference");
  assert.equal(res.status, 200);
  assert.doesNotMatch(String(res.headers["content-security-policy"]), /unsafe/);
  assert.match(res.text, /POST <code>\/psd2\/v2\/consents\/account-access<\/code>/);
  assert.doesNotMatch(res.text, /<script|src=|https?:\/\//);
});

test("a bank without v2 (API_VERSIONS=v1) publishes no /v2 document", async (t) => {
  const v1 = await startOwnBank(t, { env: { API_VERSIONS: "v1" } });
  assert.equal((await v1.tpp.get(DOCUMENT)).status, 404);
});
