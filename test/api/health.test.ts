/**
 * The load balancer's probes: /health and /ready without a client certificate on both listeners,
 * /ready failing while PostgreSQL is unreachable and recovering with it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { postgresUnavailable, setPostgresReachable } from "../support/engines.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient } from "../support/tpp-client.js";

let bank: TestBank;

describe("health and readiness", { skip: postgresUnavailable ?? false }, () => {
  before(async () => { bank = await startBank({ engine: "postgres" }); });
  after(async () => {
    await setPostgresReachable(bank.database.databaseUrl, true);
    await bank.close();
  });

  /** A client without a certificate, as a load balancer's health check. */
  const probe = (url: string) => new TppClient(url, { ca: bank.ca });

  test("both listeners answer /health and /ready without a client certificate", async () => {
    for (const url of [bank.apiUrl, bank.authUrl]) {
      const client = probe(url);
      assert.deepEqual((await client.get("/health")).body, { status: "UP" });
      const ready = await client.get("/ready");
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(ready.body, { status: "UP" });
      client.close();
    }
  });

  test("without a certificate the API itself still refuses", async () => {
    const client = probe(bank.apiUrl);
    const res = await client.get("/psd2/v1/accounts");
    assert.equal(res.status, 401, res.text);
    client.close();
  });

  test("/ready is 503 while the database is unreachable and 200 once it is back", async () => {
    const client = probe(bank.apiUrl);
    await setPostgresReachable(bank.database.databaseUrl, false);
    const down = await client.get("/ready");
    assert.equal(down.status, 503, down.text);
    assert.deepEqual(down.body, { status: "DOWN" });
    assert.equal((await client.get("/health")).status, 200);
    await setPostgresReachable(bank.database.databaseUrl, true);
    assert.equal((await client.get("/ready")).status, 200);
    client.close();
  });
});
