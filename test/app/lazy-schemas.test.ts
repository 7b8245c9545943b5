/** Tests for src/app/lazy-schemas.ts: route schemas compiled on first use, answers unchanged. */
import { test } from "node:test";
import assert from "node:assert/strict";
import Fastify, { type FastifyInstance } from "fastify";
import { schemasOnFirstUse } from "../../src/app/lazy-schemas.js";

/** A route with a header, a querystring, a body and a response schema. */
function withRoute(app: FastifyInstance, response: object): FastifyInstance {
  app.post("/things", {
    schema: {
      headers: { type: "object", required: ["X-Request-ID"],
        properties: { "X-Request-ID": { type: "string", minLength: 3 } } },
      querystring: { type: "object", properties: { limit: { type: "integer" } } },
      body: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
      response: { 200: response },
    },
  }, async (request) => ({ name: (request.body as { name: string }).name, secret: "not listed",
    limit: (request.query as { limit?: unknown }).limit }));
  return app;
}

const answer = { type: "object", properties: { name: { type: "string" }, limit: {} } };

test("start compiles no route schema: a broken one fails its own route only, when first called", async () => {
  const broken = { type: "object", properties: { name: { $ref: "#/definitions/missing" } } };
  const app = withRoute(Fastify(schemasOnFirstUse()), broken);
  app.get("/other", async () => ({ fine: true }));
  await app.ready();
  assert.equal((await app.inject({ url: "/other" })).statusCode, 200);
  const called = await app.inject({ method: "POST", url: "/things",
    headers: { "x-request-id": "abc" }, payload: { name: "n" } });
  assert.equal(called.statusCode, 500);
  await app.close();
});

test("a route compiled on first use validates and serialises as Fastify's default compilers do", async () => {
  for (const lazily of [true, false]) {
    const app = withRoute(Fastify(lazily ? schemasOnFirstUse() : {}), answer);
    const post = (headers: Record<string, string>, payload: object, url = "/things?limit=5") =>
      app.inject({ method: "POST", url, headers, payload });
    const ok = await post({ "X-Request-Id": "abc" }, { name: "n" });
    // Coerced from the query's text, as the PSU listener's defaults do; unlisted fields left out.
    assert.deepEqual(ok.json(), { name: "n", limit: 5 }, `lazily: ${lazily}`);
    const noHeader = await post({}, { name: "n" });
    assert.equal(noHeader.statusCode, 400);
    assert.match(noHeader.json().message, /^headers must have required property 'x-request-id'/);
    const shortHeader = await post({ "x-request-id": "a" }, { name: "n" });
    assert.match(shortHeader.json().message, /^headers\/x-request-id must NOT have fewer than 3/);
    const noName = await post({ "x-request-id": "abc" }, {});
    assert.match(noName.json().message, /^body must have required property 'name'/);
    const badLimit = await post({ "x-request-id": "abc" }, { name: "n" }, "/things?limit=x");
    assert.match(badLimit.json().message, /^querystring\/limit must be integer/);
    await app.close();
  }
});

test("the API listener's ajv options still hold: no coercion of a query's text", async () => {
  const app = withRoute(Fastify(schemasOnFirstUse({ coerceTypes: false })), answer);
  const answered = await app.inject({ method: "POST", url: "/things?limit=5",
    headers: { "x-request-id": "abc" }, payload: { name: "n" } });
  assert.equal(answered.statusCode, 400);
  assert.match(answered.json().message, /^querystring\/limit must be integer/);
  await app.close();
});
