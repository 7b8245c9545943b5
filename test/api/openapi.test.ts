/**
 * The published OpenAPI document is generated from the routes: every route the API listener
 * serves is in it and every operation in it is served, in both profiles; the HTML reference page
 * is self-contained under a strict CSP. What third-party tools need of it (issue 19): an
 * independent OpenAPI validator accepts it, it declares every header the bank reads and every
 * status it answers; and of the bank: empty bodies accepted where the operation takes none,
 * PSU-IP-Address judged alike in both profiles.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { bgPaymentBody, CREATION_HEADERS, createPayment, paymentBody } from "../support/flows.js";
import { routesServed } from "../support/served-routes.js";
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
 * The routes documented here: the authorisation server's endpoints are described by its own
 * metadata (RFC 8414), the /v2 interface's by its own document (v2-openapi.test.ts).
 */
const servedRoutes = (bank: TestBank) => routesServed(bank)
  .filter((route) => !route.includes(" /oauth/") && !route.includes(" /psd2/v2/"));

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
    const served = servedRoutes(bank());
    // An initiation is documented per product: its concrete path is served by the {product} route.
    const serving = (method: string, path: string) => {
      const blanked = `${method} ${path.replace(/\{[^}]+\}/g, "{}")}`;
      return served.includes(blanked) ? blanked : served.find((route) => new RegExp(
        `^${route.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\}/g, "[^/]+")}$`).test(blanked));
    };
    for (const [method, path] of operations) {
      assert.ok(serving(method, path), `${method} ${path} is documented but not served`);
    }
    const covered = new Set(operations.map(([method, path]) => serving(method, path)));
    assert.deepEqual([...covered].sort(), served);
  });

  test(`${name}: every read of the TPP API documents the body of its answer`, async () => {
    const { body } = await bank().tpp.get("/psd2/v1/openapi.json");
    const reads = Object.entries(body.paths as Record<string, Record<string, any>>)
      .filter(([, item]) => item.get?.["x-psd2-role"]);
    assert.ok(reads.length > 20);
    // A read answering only files (a download link's) documents each of its media types.
    const undocumented = reads.filter(([, item]) => {
      const content = item.get.responses["200"]?.content ?? {};
      return content["application/json"]?.schema?.properties === undefined
        && content["application/xml"]?.schema?.description === undefined;
    });
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
  const create = (doc: any) => doc.paths["/psd2/v1/payments/sepa-credit-transfers"].post;
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

type Operation = {
  parameters: { name: string; in: string; required: boolean }[];
  responses: Record<string, any>;
  "x-psd2-role"?: string;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function documentOf(bank: TestBank): Promise<Document> {
  const res = await bank.tpp.get("/psd2/v1/openapi.json");
  assert.equal(res.status, 200, res.text);
  return res.body as Document;
}

const headersOf = (operation: Operation | undefined) =>
  (operation?.parameters ?? []).filter((p) => p.in === "header");

for (const [name, bank] of [["spec", () => spec], ["berlin-group", () => bg]] as const) {
  test(`${name}: the document is valid OpenAPI 3.1 for an independent validator`, async () => {
    const document = await documentOf(bank());
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(validator.version, "3.1");
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  test(`${name}: every header the bank reads on an operation is declared on it`, async () => {
    const { paths } = await documentOf(bank());
    const reads = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })));
    for (const { path, op } of reads.filter((r) => /\/(card-)?accounts/.test(r.path))) {
      const consentId = headersOf(op).find((p) => p.name === "Consent-ID");
      assert.equal(consentId?.required, true, `Consent-ID on ${path}`);
    }
    for (const { path, method, op } of reads.filter((r) => r.op["x-psd2-role"])) {
      const names = headersOf(op).map((p) => p.name);
      for (const header of ["X-Request-ID", "PSU-IP-Address", "PSU-ID", "Digest", "Signature",
        "TPP-Signature-Certificate"]) {
        assert.ok(names.includes(header), `${header} on ${method} ${path}`);
      }
      for (const [status, answer] of Object.entries(op.responses)) {
        assert.ok(answer.headers?.["X-Request-ID"], `X-Request-ID on ${method} ${path} ${status}`);
      }
      assert.ok(op.responses["429"]?.headers?.["Retry-After"], `Retry-After on ${method} ${path}`);
    }
    const creation = paths["/psd2/v1/payments/sepa-credit-transfers"]!.post!;
    const names = headersOf(creation).map((p) => `${p.name}${p.required ? "!" : ""}`);
    for (const header of ["TPP-Redirect-URI!", "TPP-Nok-Redirect-URI",
      "TPP-Explicit-Authorisation-Preferred", "TPP-Redirect-Preferred", "TPP-Decoupled-Preferred",
      "PSU-Accept-Language"]) {
      assert.ok(names.includes(header), `${header} on payment creation: ${names.join(", ")}`);
    }
    const start = paths["/psd2/v1/consents/{consentId}/authorisations"]!.post!;
    assert.ok(headersOf(start).some((p) => p.name === "PSU-Accept-Language"));
    if (name === "berlin-group") {
      assert.ok(creation.responses["201"].headers.Location);
      assert.ok(creation.responses["201"].headers["ASPSP-SCA-Approach"]);
      assert.ok(start.responses["201"].headers.Location);
    }
  });

  test(`${name}: cancellation and authorisation answers are documented, with schemas`, async () => {
    const tpp = bank().tpp;
    const path = "/psd2/v1/payments/sepa-credit-transfers";
    const body = name === "spec" ? paymentBody() : bgPaymentBody();
    const { paymentId } = await createPayment(tpp, body);
    const answers: [string, string, number][] = [];
    type Headers = Record<string, string | null>;
    const answer = async (method: string, url: string, headers: Headers = {}) => {
      const res = await tpp.call(method, url, { headers });
      answers.push([method.toLowerCase(), url, res.status]);
      return res;
    };
    await answer("POST", `${path}/${paymentId}/cancellation-authorisations`);
    await answer("DELETE", `${path}/${paymentId}`);
    await answer("DELETE", `${path}/${paymentId}`);
    await answer("POST", `${path}/${paymentId}/authorisations`);
    // The Berlin Group checker of test banks refuses to send a request without X-Request-ID.
    const withoutId: Headers = name === "spec" ? { "X-Request-ID": null } : {};
    // Without X-Request-ID (spec) or, without a body (an update of the PSU's identification may
    // come without one), of an authorisation that does not exist (berlin-group).
    await answer("PUT", `${path}/${paymentId}/authorisations/x`, withoutId);
    assert.deepEqual(answers.map(([, , status]) => status),
      [405, 204, 405, 409, name === "spec" ? 400 : 404]);
    const { paths } = await documentOf(bank());
    for (const [method, url, status] of answers) {
      const template = url.replace(paymentId, "{paymentId}")
        .replace("sepa-credit-transfers", "{product}").replace(/\/x$/, "/{authorisationId}");
      const documented = paths[template]?.[method]?.responses[String(status)];
      assert.ok(documented, `${method} ${template} ${status} is not documented`);
      const schema = documented.content?.["application/json"].schema;
      if (status >= 400) assert.ok(schema.properties.tppMessages);
    }
  });
}

test("an empty JSON body is accepted where no body is needed, refused where one is", async () => {
  const tpp = spec.tpp;
  const path = "/psd2/v1/payments/sepa-credit-transfers";
  const { paymentId } = await createPayment(tpp);
  const started = await tpp.call("POST", `${path}/${paymentId}/authorisations`, { rawBody: "" });
  assert.equal(started.status, 201, started.text);
  const noType = await tpp.call("POST", `${path}/${paymentId}/authorisations`, {});
  assert.equal(noType.status, 201, noType.text);
  const deleted = await tpp.call("DELETE", `${path}/${paymentId}`, { rawBody: "" });
  assert.equal(deleted.status, 204, deleted.text);
  const refused = await tpp.call("POST", path, { rawBody: "", headers: CREATION_HEADERS });
  assert.equal(refused.status, 400, refused.text);
  assert.deepEqual(refused.body.tppMessages, [
    { category: "ERROR", code: "FORMAT_ERROR", path: "body", text: "A JSON body is required." },
  ]);
});

test("a malformed PSU-IP-Address is refused alike in both profiles, wherever read", async () => {
  const malformed = { ...CREATION_HEADERS, "PSU-IP-Address": "not-an-address" };
  const expected = [{
    category: "ERROR", code: "FORMAT_ERROR", path: "PSU-IP-Address",
    text: "PSU-IP-Address is not well-formed.",
  }];
  for (const bank of [spec, bg]) {
    const path = "/psd2/v1/payments/sepa-credit-transfers";
    const created = await bank.tpp.post(path, paymentBody(), malformed);
    assert.equal(created.status, 400, created.text);
    assert.deepEqual(created.body.tppMessages, expected);
  }
  const { paymentId } = await createPayment(spec.tpp);
  const statusPath = `/psd2/v1/payments/${paymentId}/status`;
  const status = await spec.tpp.get(statusPath, { "PSU-IP-Address": "1.2.3" });
  assert.equal(status.status, 400, status.text);
  assert.deepEqual(status.body.tppMessages, expected);
  const accounts = await spec.tpp.get("/psd2/v1/accounts",
    { "Consent-ID": "x", "PSU-IP-Address": "::g" });
  assert.deepEqual(accounts.body.tppMessages, expected);
  const v6 = await spec.tpp.get(statusPath, { "PSU-IP-Address": "2001:db8::1" });
  assert.equal(v6.status, 200, v6.text);
});
