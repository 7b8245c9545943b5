/**
 * The published OpenAPI document is generated from the routes: every route the API listener
 * serves is in it and every operation in it is served, in both profiles; the HTML reference page
 * is self-contained under a strict CSP.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient } from "../support/tpp-client.js";

let spec: TestBank;
let bg: TestBank;
before(async () => {
  spec = await startBank();
  bg = await startBank({ env: { API_PROFILE: "berlin-group" } });
});
after(async () => { await Promise.all([spec.close(), bg.close()]); });

/**
 * "GET /psd2/v1/accounts/{}" for every route in Fastify's printed route tree. Parameter names
 * are blanked: where two routes share a parameter node the tree prints "{product}|{paymentId}".
 */
function servedRoutes(bank: TestBank): string[] {
  const served: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of bank.app.api.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│├└─\s]*)(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const path = (stack[stack.length - 1]?.path ?? "") + match[2];
    stack.push({ depth, path });
    for (const method of (match[3] ?? "").split(", ").filter((m) => m !== "" && m !== "HEAD")) {
      served.push(`${method} ${path.replace(/:[A-Za-z0-9_|:-]+/g, "{}")}`);
    }
  }
  return served.sort();
}

function documented(document: { paths: Record<string, Record<string, unknown>> }): [string, string][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method): [string, string] => [method.toUpperCase(), path]));
}

for (const [name, bank] of [["spec", () => spec], ["berlin-group", () => bg]] as const) {
  test(`${name}: every route served is documented, and every documented operation is served`, async () => {
    const res = await bank().tpp.get("/psd2/v1/openapi.json");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.openapi, "3.1.0");
    assert.equal(res.body.info["x-api-profile"], name);
    const operations = documented(res.body);
    assert.ok(operations.length > 20);
    for (const [method, path] of operations) {
      const url = path.replace(/\{([^}]+)\}/g, ":$1");
      assert.ok(bank().app.api.hasRoute({ method, url }), `${method} ${url} is documented but not served`);
    }
    const blanked = operations.map(([method, path]) => `${method} ${path.replace(/\{[^}]+\}/g, "{}")}`).sort();
    assert.deepEqual(blanked, servedRoutes(bank()));
  });

  test(`${name}: every read of the TPP API documents the body of its answer`, async () => {
    const { body } = await bank().tpp.get("/psd2/v1/openapi.json");
    const reads = Object.entries(body.paths as Record<string, Record<string, any>>)
      .filter(([, item]) => item.get?.["x-psd2-role"]);
    assert.ok(reads.length > 20);
    const undocumented = reads.filter(([, item]) =>
      item.get.responses["200"]?.content?.["application/json"]?.schema?.properties === undefined);
    assert.deepEqual(undocumented.map(([path]) => path), []);
    const transactions = reads.find(([path]) => path.endsWith("/{accountId}/transactions"));
    const links = transactions?.[1].get.responses["200"].content["application/json"].schema
      .properties.transactions.properties._links;
    // The spec's page links are strings or null; Berlin Group's {"href"} objects, absent when none.
    if (name === "spec") assert.deepEqual(links.properties.next, { type: ["string", "null"] });
    else assert.equal(links.additionalProperties.properties.href.type, "string");
  });
}

test("the documents differ only in wire shapes: 200 and string links vs 201 and href links", async () => {
  const [a, b] = await Promise.all([spec.tpp.get("/psd2/v1/openapi.json"), bg.tpp.get("/psd2/v1/openapi.json")]);
  const create = (doc: any) => doc.paths["/psd2/v1/payments/{product}"].post;
  const refusals = ["400", "401", "403", "404", "413", "415", "429", "500"];
  assert.deepEqual(Object.keys(create(a.body).responses).sort(), ["200", ...refusals]);
  assert.deepEqual(Object.keys(create(b.body).responses).sort(), ["201", ...refusals]);
  const bgCreated = create(b.body).responses["201"];
  assert.ok(bgCreated.headers.Location);
  assert.equal(bgCreated.content["application/json"].schema.properties._links.additionalProperties.properties.href.type, "string");
  assert.equal(create(a.body).responses["200"].content["application/json"].schema.properties.scaMethods.type, "null");
  assert.equal(create(b.body).requestBody.content["application/json"].schema.required.includes("creditorName"), true);
  assert.equal(create(a.body)["x-psd2-role"], "PSP_PI");
});

test("the reference page lists the operations, without scripts or external assets", async () => {
  const res = await bg.tpp.get("/psd2/v1/reference");
  assert.equal(res.status, 200);
  assert.match(String(res.headers["content-type"]), /^text\/html/);
  const csp = String(res.headers["content-security-policy"]);
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /unsafe/);
  assert.match(res.text, /POST <code>\/psd2\/v1\/consents<\/code>/);
  assert.match(res.text, /GET <code>\/psd2\/v1\/accounts\/\{accountId\}\/transactions<\/code>/);
  assert.doesNotMatch(res.text, /<script|src=|https?:\/\//);
});

test("the document is behind mTLS like the API, but any TPP role may read it, without X-Request-ID", async () => {
  const noRoles = await spec.tppWith({ roles: ["PSP_IC"] });
  assert.equal((await noRoles.get("/psd2/v1/openapi.json")).status, 200);
  assert.equal((await spec.tpp.get("/psd2/v1/reference", { "X-Request-ID": null })).status, 200);
  const anonymous = new TppClient(spec.apiUrl, { ca: spec.ca });
  try {
    const refused = await anonymous.get("/psd2/v1/openapi.json", { "X-Request-ID": null });
    assert.equal(refused.status, 401, refused.text);
  } finally {
    anonymous.close();
  }
});
