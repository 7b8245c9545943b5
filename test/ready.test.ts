import assert from "node:assert/strict";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { test } from "node:test";
import { createTestDatabase, postgresSkip } from "./support/postgres.js";
import { startBank } from "./support/start-app.js";

async function probe(adminUrl: string, path: string) {
  const response = await fetch(`${adminUrl}${path}`);
  return { status: response.status, body: await response.json() };
}

/** A TCP proxy to the PostgreSQL server that the test can cut and restore, as a network would. */
async function cuttableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = (port: number) => new Promise<number>((resolve) => {
    server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => s.destroy());
        s.on("close", () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    }).listen(port, "127.0.0.1", () => {
      const address = server?.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
  const port = await open(0);
  return {
    port,
    cut: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    }),
    restore: () => open(port),
  };
}

test("health answers UP and ready answers READY on the admin listener, not on the TPP API", async () => {
  const bank = await startBank();
  try {
    assert.deepEqual(await probe(bank.adminUrl, "/health"), { status: 200, body: { status: "UP" } });
    assert.deepEqual(await probe(bank.adminUrl, "/ready"), { status: 200, body: { status: "READY" } });
    assert.equal((await bank.tpp.get("/ready")).status, 404);
  } finally {
    await bank.close();
  }
});

test("ready fails while the database is unreachable and recovers when it is back", { skip: await postgresSkip() }, async () => {
  const database = await createTestDatabase();
  const proxy = await cuttableProxy(new URL(database.url));
  const url = new URL(database.url);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  const bank = await startBank({ env: { DATABASE_URL: url.toString() } }).catch(async (error: unknown) => {
    await proxy.cut();
    await database.drop();
    throw error;
  });
  try {
    assert.equal((await probe(bank.adminUrl, "/ready")).status, 200);
    await proxy.cut();
    assert.deepEqual(await probe(bank.adminUrl, "/ready"),
      { status: 503, body: { status: "NOT_READY", reason: "database unreachable" } });
    assert.equal((await probe(bank.adminUrl, "/health")).status, 200, "alive, just not ready");
    await proxy.restore();
    assert.equal((await probe(bank.adminUrl, "/ready")).status, 200);
  } finally {
    await bank.close();
    await proxy.cut();
    await database.drop();
  }
});
