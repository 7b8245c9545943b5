/**
 * No client holds a connection for long (issue 19): on both listeners a request head that never
 * ends, a body that never arrives and an idle keep-alive connection are closed once their
 * timeout passes (408 where an answer is still possible), while other clients are served; beyond
 * MAX_CONNECTIONS a listener closes new connections. Real TLS sockets, small timeouts.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request } from "node:https";
import { connect as connectTcp, type Socket } from "node:net";
import { connect, type TLSSocket } from "node:tls";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

const TIMEOUTS = {
  REQUEST_TIMEOUT_SECONDS: "2", HEADERS_TIMEOUT_SECONDS: "1", KEEP_ALIVE_TIMEOUT_SECONDS: "1",
};

let bank: TestBank;
before(async () => { bank = await startBank({ env: TIMEOUTS }); });
after(async () => { await bank.close(); });

type Listener = "api" | "auth";
const urlOf = (at: TestBank, listener: Listener) =>
  new URL(listener === "api" ? at.apiUrl : at.authUrl);

/** A raw TLS connection to a listener; the TPP's certificate where the API needs one. */
async function open(at: TestBank, listener: Listener): Promise<TLSSocket> {
  const { hostname, port } = urlOf(at, listener);
  const qwac = { cert: readFileSync(at.certs.tppCert), key: readFileSync(at.certs.tppKey) };
  const socket = connect({
    host: hostname, port: Number(port), ca: at.ca, servername: hostname,
    ...(listener === "api" ? qwac : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("secureConnect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** What the server sent until it closed the connection, and how long after `since` it closed. */
function closing(socket: TLSSocket, since: number): Promise<{ text: string; seconds: number }> {
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => socket.once("close", () => resolve({
    text: Buffer.concat(chunks).toString("utf8"), seconds: (Date.now() - since) / 1000,
  })));
}

/** When the first bytes of an answer arrive. */
const answered = (socket: TLSSocket) =>
  new Promise<number>((resolve) => socket.once("data", () => resolve(Date.now())));

/** Another client's whole request, on its own connection: it must be answered meanwhile. */
function served(at: TestBank, listener: Listener): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL("/health", urlOf(at, listener));
    const req = request(url, { ca: at.ca, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A body that never completes where the listener reads one (API: JSON, PSU pages: a form). */
const SLOW_BODY: Record<Listener, string> = {
  api: "POST /psd2/v1/consents HTTP/1.1\r\nHost: localhost\r\n"
    + "X-Request-ID: 2f1f1b9e-8c4b-4a53-9b1b-1f5b8c3d7e10\r\n"
    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"access\":",
  auth: "POST /sca/login HTTP/1.1\r\nHost: localhost\r\n"
    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nlogin=al",
};

for (const listener of ["api", "auth"] as const) {
  test(`${listener}: endless head: 408, closed after HEADERS_TIMEOUT_SECONDS`, async () => {
    const socket = await open(bank, listener);
    const closed = closing(socket, Date.now());
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
    assert.equal(await served(bank, listener), 200);
    const { text, seconds } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /, text);
    assert.ok(seconds >= 0.9 && seconds < 3, `closed after ${seconds} s`);
  });

  test(`${listener}: endless body: 408, closed after REQUEST_TIMEOUT_SECONDS`, async () => {
    const socket = await open(bank, listener);
    const closed = closing(socket, Date.now());
    socket.write(SLOW_BODY[listener]);
    assert.equal(await served(bank, listener), 200);
    const { text, seconds } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /, text);
    if (listener === "api") assert.match(text, /"code":"FORMAT_ERROR"/);
    assert.ok(seconds >= 1.9 && seconds < 4, `closed after ${seconds} s`);
  });

  test(`${listener}: an idle keep-alive closes after KEEP_ALIVE_TIMEOUT_SECONDS`, async () => {
    const socket = await open(bank, listener);
    const answer = answered(socket);
    const start = Date.now();
    const closed = closing(socket, start);
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const idleFrom = (await answer - start) / 1000;
    assert.equal(await served(bank, listener), 200);
    const { text, seconds } = await closed;
    assert.match(text, /^HTTP\/1\.1 200 /, text);
    const idle = seconds - idleFrom;
    assert.ok(idle >= 0.8 && idle < 3, `closed after ${idle} s idle`);
  });
}

test("beyond MAX_CONNECTIONS new connections are closed; those held are served", async (t) => {
  const small = await startOwnBank(t, { env: { MAX_CONNECTIONS: "2" } });
  for (const listener of ["api", "auth"] as const) {
    const held = [await open(small, listener), await open(small, listener)];
    await assert.rejects(open(small, listener));
    const answer = closing(held[0]!, Date.now());
    held[0]!.end("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert.match((await answer).text, /^HTTP\/1\.1 200 /);
    for (const socket of held) socket.destroy();
  }
});

/** A slowloris client's connection from `localAddress`: TCP only, no TLS handshake ever. */
function halfOpen(at: TestBank, listener: Listener, localAddress: string): Promise<Socket> {
  const socket = connectTcp({ host: "127.0.0.1", port: Number(urlOf(at, listener).port), localAddress });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** A whole request from another address (127.0.0.2, also loopback on Linux). */
function servedFrom(at: TestBank, listener: Listener, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1", port: urlOf(at, listener).port, path: "/health", servername: "localhost",
      ca: at.ca, agent: false, localAddress,
    }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

test("slowloris: one address holds MAX_CONNECTIONS_PER_ADDRESS half-open connections until the header deadline; another address is served",
  async (t) => {
    const small = await startOwnBank(t, { env: { ...TIMEOUTS, MAX_CONNECTIONS: "60", MAX_CONNECTIONS_PER_ADDRESS: "20" } });
    for (const listener of ["api", "auth"] as const) {
      const start = Date.now();
      const attack = await Promise.all(Array.from({ length: 80 }, () => halfOpen(small, listener, "127.0.0.1")));
      const closes = attack.map((socket) => new Promise<number>((resolve) => {
        socket.on("error", () => undefined);
        socket.once("close", () => resolve(Date.now()));
      }));
      assert.equal(await servedFrom(small, listener, "127.0.0.2"), 200, listener);
      const closedAt = (await Promise.all(closes)).map((at) => (at - start) / 1000).sort((a, b) => a - b);
      // 60 at once, the 20 held ones at HEADERS_TIMEOUT_SECONDS (1 s) without a handshake.
      assert.ok(closedAt[59]! < 0.9, `${listener}: the 60 beyond the limit closed after ${closedAt[59]} s`);
      assert.ok(closedAt[60]! >= 0.9 && closedAt[79]! < 3, `${listener}: the held closed after ${closedAt[60]}-${closedAt[79]} s`);
    }
  });

test("the connection settings have their documented defaults; settings out of bounds are refused", () => {
  const defaults = loadConfig({});
  assert.deepEqual([defaults.requestTimeoutSeconds, defaults.headersTimeoutSeconds,
    defaults.keepAliveTimeoutSeconds, defaults.maxConnections, defaults.maxConnectionsPerAddress],
  [30, 10, 5, 1000, 100]);
  for (const env of [{ HEADERS_TIMEOUT_SECONDS: "31" }, { HEADERS_TIMEOUT_SECONDS: "0" },
    { KEEP_ALIVE_TIMEOUT_SECONDS: "0" }, { MAX_CONNECTIONS: "0" }]) {
    assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError
      && e.message.includes(Object.keys(env)[0] ?? "?"), JSON.stringify(env));
  }
});
