import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { X509Certificate } from "node:crypto";
import { demoPsuLines } from "../src/ledger/demo-guide.js";
import { parseTppCertificate } from "../src/tpp/certificate.js";
import { freePort, listenerPorts, runCli, startCli } from "./support/cli.js";
import { TppClient } from "./support/tpp-client.js";

let dataDir: string;

function cli(args: string[]) {
  return runCli(args, { DATA_DIR: dataDir });
}

before(async () => { dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-cli-")); });
after(async () => { await rm(dataDir, { recursive: true, force: true }); });

test("start prints the URLs, the demo PSUs and a curl call, serves, and stops on SIGTERM", async () => {
  const ports = await listenerPorts();
  const [apiPort, authPort, adminPort] = [ports.API_PORT, ports.AUTH_PORT, ports.ADMIN_PORT];
  const bank = await startCli(["start"], { DATA_DIR: dataDir, ...ports }, "then open _links.scaRedirect");
  const out = bank.output();
  assert.match(out, new RegExp(`https://localhost:${apiPort}/psd2/v1`));
  assert.match(out, new RegExp(`https://localhost:${authPort}`));
  assert.match(out, /alice\s+password alice-demo/);
  for (const line of demoPsuLines()) assert.ok(out.includes(`    ${line}\n`), line);
  assert.match(out, /curl -s --cacert/);
  const certs = join(dataDir, "certs");
  const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certs, f))));
  assert.match(out, new RegExp(`\n {4}app users: GET https://localhost:${authPort}/sandbox/totp/<login> +\\(alice, carol, `));
  assert.match(out, new RegExp(`\n {4}SMS users: GET https://localhost:${authPort}/sandbox/sms/<login> +\\(bob, `));
  const pages = new TppClient(`https://localhost:${authPort}`, { ca: ca!, cert: cert!, key: key! });
  assert.match((await pages.get("/sandbox/totp/alice")).body.code, /^\d{6}$/, "the banner's code URL answers");
  // The bundle holds its templates' characters past ASCII as \u escapes (scripts/bundle.mjs).
  assert.match((await pages.get("/")).text, /<p>© /, "the page's footer as written");
  pages.close();
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
  assert.equal(await bank.stop(), 0);
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
  const result = runCli(["start"], { DATA_DIR: dataDir, API_PORT: "eighty" });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /API_PORT must be a non-negative integer/);
});

test("config prints the effective settings from file and environment, the database password masked", async () => {
  const file = join(dataDir, "settings.json");
  await writeFile(file, JSON.stringify({ API_PORT: 9443, BANK_NAME: "From File", DATABASE_URL: "postgres://u:hunter2@db/x" }));
  const result = runCli(["--config", file, "config", "--json"], { DATA_DIR: dataDir, BANK_NAME: "From Env" });
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
  await writeFile(file, JSON.stringify({
    API_PORTT: 1, AUTH_PORT: "x", BANK_NAME: { nested: true }, PSD2_MODE: "prod", SQLITE_SYNCHRONOUS: "off",
  }));
  const result = cli([`--config=${file}`, "config"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /API_PORTT in .* is not a setting of psd2-bank/);
  assert.match(result.stderr, /AUTH_PORT must be a non-negative integer, got "x"/);
  assert.match(result.stderr, /BANK_NAME in .* must be a string, number or boolean/);
  assert.match(result.stderr, /PSD2_MODE must be "sandbox" or "production", got "prod"/);
  assert.match(result.stderr, /SQLITE_SYNCHRONOUS must be "full" or "normal", got "off"/);
  const missing = cli(["--config", join(dataDir, "absent.json"), "config"]);
  assert.match(missing.stderr, /Cannot read the configuration file .*absent\.json/);
});

test("demo-tpp starts the bank and the demo TPP in one process, and stops on SIGTERM", async () => {
  const [ports, demoPort] = [await listenerPorts(), await freePort()];
  const demo = await startCli(["demo-tpp", "--port", String(demoPort)],
    { DATA_DIR: dataDir, ...ports, PUBLIC_API_URL: `https://localhost:${ports.API_PORT}` }, "Demo TPP at");
  assert.match(demo.output(), /psd2-bank is ready/);
  assert.match(demo.output(),
    new RegExp(`Demo TPP at http://localhost:${demoPort} using the bank at https://localhost:${ports.API_PORT}`));
  const shop = await fetch(`http://127.0.0.1:${demoPort}/shop`);
  assert.equal(shop.status, 200);
  assert.equal(await demo.stop(), 0);
});

test("migrate shows each migration as it applies it, and nothing when the database is up to date", async () => {
  const fresh = await mkdtemp(join(tmpdir(), "psd2-bank-migrate-"));
  try {
    const first = runCli(["migrate"], { DATA_DIR: fresh });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^ {2}applied 0001-initial\n(?: {2}applied \d{4}-[a-z-]+\n)* {2}applied 0007-audit-log\n/);
    assert.match(first.stdout, /The sqlite database is up to date \(\d+ migrations applied now\)/);
    const again = runCli(["migrate"], { DATA_DIR: fresh });
    assert.equal(again.stdout, "The sqlite database is up to date (0 migrations applied now).\n");
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
});

test("generate books a seeded data set with progress, and refuses the same seed twice", async () => {
  const fresh = await mkdtemp(join(tmpdir(), "psd2-bank-generate-"));
  try {
    const env = { DATA_DIR: fresh, SEED_DEMO_DATA: "false" };
    const result = runCli(["generate", "--psus", "30", "--transactions", "3000", "--seed", "7"], env);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^ {2}\d+ % \(\d+ of 3030 bookings\)\n/);
    assert.match(result.stdout, / {2}100 % \(3030 of 3030 bookings\)\n/);
    assert.match(result.stdout, /Generated 30 PSUs \(s7-0000000 \.\.\. s7-0000029, password generated-demo\) with 3030 bookings/);
    const accounts = JSON.parse(runCli(["account", "list", "--login", "s7-0000029", "--json"], env).stdout);
    assert.equal(accounts.length, 1);
    assert.match(accounts[0].iban, /^DE\d{2}500100009700000029$/);
    const again = runCli(["generate", "--psus", "1", "--transactions", "1", "--seed", "7"], env);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /a data set with seed 7 exists already/);
    assert.match(runCli(["generate", "--psus", "0"], env).stderr, /--psus must be a whole number from 1 to/);
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
});
