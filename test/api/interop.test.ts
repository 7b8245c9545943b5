/**
 * What third-party tools need of the bank (issue 19): a published document that an independent
 * OpenAPI validator accepts, declaring every header the bank reads and every status it answers;
 * empty bodies accepted where the operation takes none; PSU-IP-Address judged alike in both
 * profiles.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { bgPaymentBody, CREATION_HEADERS, createPayment, paymentBody } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let spec: TestBank;
let bg: TestBank;
before(async () => {
  spec = await startBank();
  bg = await startBank({ env: { API_PROFILE: "berlin-group" } });
});
after(async () => { await Promise.all([spec.close(), bg.close()]); });

type Operation = { parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, any> };
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
    for (const { path, method, op } of reads.filter((r) => r.op["x-psd2-role" as keyof Operation])) {
      const names = headersOf(op).map((p) => p.name);
      for (const header of ["X-Request-ID", "PSU-IP-Address", "PSU-ID", "Digest", "Signature",
        "TPP-Signature-Certificate"]) {
        assert.ok(names.includes(header), `${header} on ${method} ${path}`);
      }
      for (const [status, answer] of Object.entries(op.responses)) {
        assert.ok(answer.headers?.["X-Request-ID"], `X-Request-ID answered on ${method} ${path} ${status}`);
      }
      assert.ok(op.responses["429"]?.headers?.["Retry-After"], `Retry-After on ${method} ${path}`);
    }
    const creation = paths["/psd2/v1/payments/{product}"]!.post!;
    const names = headersOf(creation).map((p) => `${p.name}${p.required ? "!" : ""}`);
    for (const header of ["TPP-Redirect-URI!", "TPP-Nok-Redirect-URI", "TPP-Explicit-Authorisation-Preferred",
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

  test(`${name}: the answers of cancellation and authorisation are documented with their schemas`, async () => {
    const tpp = bank().tpp;
    const path = "/psd2/v1/payments/sepa-credit-transfers";
    const { paymentId } = await createPayment(tpp, name === "spec" ? paymentBody() : bgPaymentBody());
    const answers: [string, string, number][] = [];
    const answer = async (method: string, url: string, headers: Record<string, string | null> = {}) => {
      const res = await tpp.call(method, url, { headers });
      answers.push([method.toLowerCase(), url, res.status]);
      return res;
    };
    await answer("POST", `${path}/${paymentId}/cancellation-authorisations`);
    await answer("DELETE", `${path}/${paymentId}`);
    await answer("DELETE", `${path}/${paymentId}`);
    await answer("POST", `${path}/${paymentId}/authorisations`);
    // The Berlin Group checker of test banks refuses to send a request without X-Request-ID.
    const withoutId: Record<string, string | null> = name === "spec" ? { "X-Request-ID": null } : {};
    await answer("PUT", `${path}/${paymentId}/authorisations/x`, withoutId);
    assert.deepEqual(answers.map(([, , status]) => status), [405, 204, 405, 409, name === "spec" ? 400 : 405]);
    const { paths } = await documentOf(bank());
    for (const [method, url, status] of answers) {
      const template = url.replace(paymentId, "{paymentId}").replace("sepa-credit-transfers", "{product}")
        .replace(/\/x$/, "/{authorisationId}");
      const documented = paths[template]?.[method]?.responses[String(status)];
      assert.ok(documented, `${method} ${template} ${status} is not documented`);
      if (status >= 400) assert.ok(documented.content["application/json"].schema.properties.tppMessages);
    }
  });
}

test("an empty JSON body is accepted where the operation takes none, refused where it needs one", async () => {
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

test("a malformed PSU-IP-Address is refused alike in both profiles, wherever it is read", async () => {
  const malformed = { ...CREATION_HEADERS, "PSU-IP-Address": "not-an-address" };
  const expected = [{
    category: "ERROR", code: "FORMAT_ERROR", path: "PSU-IP-Address", text: "PSU-IP-Address is not well-formed.",
  }];
  for (const bank of [spec, bg]) {
    const created = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(), malformed);
    assert.equal(created.status, 400, created.text);
    assert.deepEqual(created.body.tppMessages, expected);
  }
  const { paymentId } = await createPayment(spec.tpp);
  const status = await spec.tpp.get(`/psd2/v1/payments/${paymentId}/status`, { "PSU-IP-Address": "1.2.3" });
  assert.equal(status.status, 400, status.text);
  assert.deepEqual(status.body.tppMessages, expected);
  const accounts = await spec.tpp.get("/psd2/v1/accounts", { "Consent-ID": "x", "PSU-IP-Address": "::g" });
  assert.deepEqual(accounts.body.tppMessages, expected);
  const v6 = await spec.tpp.get(`/psd2/v1/payments/${paymentId}/status`, { "PSU-IP-Address": "2001:db8::1" });
  assert.equal(v6.status, 200, v6.text);
});
