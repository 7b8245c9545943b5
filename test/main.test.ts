import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { X509Certificate } from "node:crypto";
import { parseTppCertificate } from "../src/tpp/certificate.js";
import { TppClient } from "./support/tpp-client.js";

const MAIN = fileURLToPath(new URL("../src/main.js", import.meta.url));
let dataDir: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, DATA_DIR: dataDir }, encoding: "utf8",
  });
}

before(async () => { dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-cli-")); });
after(async () => { await rm(dataDir, { recursive: true, force: true }); });

test("start prints the URLs, the demo PSUs and a curl call, serves, and stops on SIGTERM", async () => {
  const [apiPort, authPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN, "start"], {
    env: {
      ...process.env, DATA_DIR: dataDir, API_PORT: String(apiPort), AUTH_PORT: String(authPort),
      ADMIN_PORT: String(adminPort), LOG_LEVEL: "warn",
    },
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => { if (out.includes("Try it:") && out.includes("scaRedirect")) resolve(); });
    child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  assert.match(out, new RegExp(`https://localhost:${apiPort}/psd2/v1`));
  assert.match(out, new RegExp(`https://localhost:${authPort}`));
  assert.match(out, /alice\s+password alice-demo/);
  assert.match(out, /curl -s --cacert/);
  const certs = join(dataDir, "certs");
  const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certs, f))));
  const client = new TppClient(`https://localhost:${apiPort}`, { ca: ca!, cert: cert!, key: key! });
  const unknown = await client.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  assert.equal(unknown.status, 404);
  client.close();
  const figures = cli(["availability", "--url", `http://127.0.0.1:${adminPort}/metrics`, "--json"]);
  assert.equal(figures.status, 0, figures.stderr);
  assert.deepEqual(JSON.parse(figures.stdout).map((f: { operation: string; requests: number; availabilityPercent: number }) =>
    [f.operation, f.requests, f.availabilityPercent]), [["GET /psd2/v1/payments/:paymentId/status", 1, 100]]);
  const people = cli(["availability", "--url", `http://127.0.0.1:${adminPort}/metrics`]);
  assert.match(people.stdout, /^endpoint\s+requests\s+availability\s+mean\s+p95\n/);
  const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  assert.equal(await exit, 0);
});

test("availability names the unreachable metrics address and exits non-zero", () => {
  const result = cli(["availability", "--url", "http://127.0.0.1:9/metrics"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /cannot read http:\/\/127\.0\.0\.1:9\/metrics/);
});

test("tpp-cert issues a QWAC-form certificate with the asked roles from the development CA", async () => {
  const out = join(dataDir, "other-tpp");
  const result = cli(["tpp-cert", "--name", "Other TPP", "--roles", "PSP_AI", "--org-id", "PSDFR-ACPR-42", "--out", out]);
  assert.equal(result.status, 0, result.stderr);
  const pem = await readFile(join(out, "tpp.crt"));
  const parsed = parseTppCertificate(new Uint8Array(new X509Certificate(pem).raw));
  assert.ok(parsed.ok);
  assert.equal(parsed.identity.name, "Other TPP");
  assert.equal(parsed.identity.id, "PSDFR-ACPR-42");
  assert.deepEqual(parsed.identity.roles, ["PSP_AI"]);
  const ca = new X509Certificate(await readFile(join(dataDir, "certs", "ca.crt")));
  assert.ok(new X509Certificate(pem).checkIssued(ca));
});

test("tpp-cert refuses an unknown role and a missing --out with a clear message", () => {
  const badRole = cli(["tpp-cert", "--name", "X", "--roles", "PSP_XX", "--out", join(dataDir, "x")]);
  assert.notEqual(badRole.status, 0);
  assert.match(badRole.stderr, /unknown role\(s\) PSP_XX/);
  const noOut = cli(["tpp-cert", "--name", "X"]);
  assert.notEqual(noOut.status, 0);
  assert.match(noOut.stderr, /--out/);
});

test("a wrong setting stops the start with a message naming it", () => {
  const result = spawnSync(process.execPath, [MAIN, "start"], {
    env: { ...process.env, DATA_DIR: dataDir, API_PORT: "eighty" }, encoding: "utf8",
  });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /API_PORT must be a non-negative integer/);
});

test("config prints the effective settings from file and environment, the database password masked", async () => {
  const file = join(dataDir, "settings.json");
  await writeFile(file, JSON.stringify({ API_PORT: 9443, BANK_NAME: "From File", DATABASE_URL: "postgres://u:hunter2@db/x" }));
  const result = spawnSync(process.execPath, [MAIN, "--config", file, "config", "--json"], {
    env: { ...process.env, DATA_DIR: dataDir, BANK_NAME: "From Env" }, encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  const shown = JSON.parse(result.stdout);
  assert.equal(shown.apiPort, 9443);
  assert.equal(shown.bankName, "From Env", "the environment overrides the file");
  assert.equal(shown.databaseUrl, "postgres://u:********@db/x");
  assert.doesNotMatch(result.stdout, /hunter2/);
  const people = cli(["config"]);
  assert.match(people.stdout, /^setting\s+value\n/);
  assert.match(people.stdout, /\napiPort\s+8443\n/);
});

test("a configuration file names every unknown or wrong setting in one message", async () => {
  const file = join(dataDir, "wrong.json");
  await writeFile(file, JSON.stringify({ API_PORTT: 1, AUTH_PORT: "x", BANK_NAME: { nested: true } }));
  const result = cli([`--config=${file}`, "config"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /API_PORTT in .* is not a setting of psd2-bank/);
  assert.match(result.stderr, /AUTH_PORT must be a non-negative integer, got "x"/);
  assert.match(result.stderr, /BANK_NAME in .* must be a string, number or boolean/);
  const missing = cli(["--config", join(dataDir, "absent.json"), "config"]);
  assert.match(missing.stderr, /Cannot read the configuration file .*absent\.json/);
});

test("demo-tpp starts the bank and the demo TPP in one process, and stops on SIGTERM", async () => {
  const [apiPort, authPort, adminPort, demoPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN, "demo-tpp", "--port", String(demoPort)], {
    env: {
      ...process.env, DATA_DIR: dataDir, API_PORT: String(apiPort), AUTH_PORT: String(authPort),
      ADMIN_PORT: String(adminPort), PUBLIC_API_URL: `https://localhost:${apiPort}`, LOG_LEVEL: "warn",
    },
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => { if (out.includes("Demo TPP at")) resolve(); });
    child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  assert.match(out, /psd2-bank is ready/);
  assert.match(out, new RegExp(`Demo TPP at http://localhost:${demoPort} using the bank at https://localhost:${apiPort}`));
  const shop = await fetch(`http://127.0.0.1:${demoPort}/shop`);
  assert.equal(shop.status, 200);
  const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  assert.equal(await exit, 0);
});
