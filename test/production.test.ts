/** Production mode: the bank's own TLS material only, no development CA, no demo data, no sandbox routes. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureDevCertificates, issueTppCertificate, loadKeyAndCertificate } from "../src/tpp/dev-ca.js";
import { listenerPorts, runCli, startCli } from "./support/cli.js";
import { freshDatabase, onEachEngine, type EngineDatabase } from "./support/engines.js";
import { consentBody, REDIRECTS } from "./support/flows.js";
import { TppClient } from "./support/tpp-client.js";

let dir: string;
/** A CA that is not psd2-bank's, with a server certificate for localhost, made by openssl. */
let own: { TLS_CERT_FILE: string; TLS_KEY_FILE: string; TPP_TRUST_STORE_FILE: string };

function openssl(...args: string[]) {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "psd2-bank-production-"));
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
    "-subj", "/CN=Test QTSP Root/O=Test QTSP", "-keyout", "ca.key", "-out", "ca.crt");
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
    "-keyout", "server.key", "-out", "server.csr");
  await writeFile(join(dir, "san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
    "-extfile", "san.ext", "-out", "server.crt");
  own = { TLS_CERT_FILE: join(dir, "server.crt"), TLS_KEY_FILE: join(dir, "server.key"),
    TPP_TRUST_STORE_FILE: join(dir, "ca.crt") };
});
after(async () => { await rm(dir, { recursive: true, force: true }); });

const production = (extra: Record<string, string> = {}) => ({
  PSD2_MODE: "production", DATA_DIR: join(dir, "data"), ...extra,
});

test("production refuses to start without the bank's own TLS files, naming each", () => {
  const result = runCli(["start"], production());
  assert.equal(result.status, 2);
  assert.match(result.stderr, /production mode needs the bank's own TLS material: set TLS_CERT_FILE, TLS_KEY_FILE, TPP_TRUST_STORE_FILE/);
});

test("production refuses the development CA's certificates and demo data", async () => {
  const dev = await ensureDevCertificates(join(dir, "dev"), ["localhost"]);
  const withDev = runCli(["start"], production({
    TLS_CERT_FILE: dev.serverCert, TLS_KEY_FILE: dev.serverKey, TPP_TRUST_STORE_FILE: dev.caCert,
  }));
  assert.equal(withDev.status, 2);
  assert.match(withDev.stderr, /TLS_CERT_FILE, TPP_TRUST_STORE_FILE: production mode refuses certificates of the psd2-bank development CA/);
  const seeded = runCli(["start"], production({ ...own, SEED_DEMO_DATA: "true" }));
  assert.equal(seeded.status, 2);
  assert.match(seeded.stderr, /SEED_DEMO_DATA must not be true in production mode/);
  const unreadable = runCli(["start"], production({ ...own, TLS_KEY_FILE: join(dir, "absent.key") }));
  assert.match(unreadable.stderr, /TLS_KEY_FILE cannot be read/);
});

test("production refuses every sandbox-only command, and seed writes no demo PSU", () => {
  const commands = [["seed"], ["generate", "--psus", "1", "--transactions", "1"],
    ["tpp-cert", "--name", "X", "--out", join(dir, "x")], ["demo-tpp"]];
  for (const args of commands) {
    const result = runCli(args, production(own));
    assert.equal(result.status, 2, args[0]);
    assert.match(result.stderr, new RegExp(`${args[0]} runs in sandbox mode only`));
  }
  const listed = runCli(["psu", "list", "--json"], production(own));
  assert.deepEqual(JSON.parse(listed.stdout), []);
});

onEachEngine("production with demo PSUs in its database", (engine) => {
  let database: EngineDatabase;
  before(async () => { database = await freshDatabase(engine); });
  after(async () => { await database.remove(); });

  test("refuses to start, naming the command that removes them; starts once it ran", async () => {
    const onDatabase = { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl };
    // A database seeded in the sandbox (or by last round's seed), then used in production.
    assert.equal(runCli(["seed"], { ...onDatabase, LOG_LEVEL: "silent" }).status, 0);
    const env = { ...production(own), ...onDatabase };
    const refused = runCli(["start"], env);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^psd2-bank: the database holds \d+ demo or sandbox PSUs \(alice, \S+, \S+, \.\.\.\) .*"psd2-bank psu remove-demo" removes them\n$/);
    const removed = runCli(["psu", "remove-demo"], env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /Removed \d+ demo or sandbox PSUs: .*alice/);
    const left = JSON.parse(runCli(["psu", "list", "--json"], env).stdout) as { login: string; status: string }[];
    assert.ok(left.length > 0 && left.every((p) => p.login.startsWith("removed-") && p.status === "blocked"));
    const ports = await listenerPorts();
    const bank = await startCli(["start"], { ...env, ...ports }, "PSU pages");
    assert.equal(await bank.stop(), 0);
  });
});

test("production serves TPPs with QWACs of its trusted CA, without demo PSUs or sandbox routes", async () => {
  const ports = await listenerPorts();
  const bank = await startCli(["start"], production({
    ...own, ...ports, PUBLIC_API_URL: `https://localhost:${ports.API_PORT}`, PUBLIC_AUTH_URL: `https://localhost:${ports.AUTH_PORT}`,
  }), "PSU pages");
  try {
    assert.match(bank.output(), /production mode/);
    assert.doesNotMatch(bank.output(), /Demo PSUs|alice/);
    const sandboxRoutes = [
      ["GET", "/sandbox/sms/alice"], ["GET", "/sandbox/totp/alice"],
      ["POST", "/sandbox/app/alice/approve"],
    ] as const;
    for (const [method, path] of sandboxRoutes) {
      const { status, body } = await new Promise<{ status: number; body: string }>(
        (resolve, reject) => {
          const agent = new Agent({ ca: readFileSync(own.TPP_TRUST_STORE_FILE) });
          request(`https://localhost:${ports.AUTH_PORT}${path}`, { agent, method }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({
              status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          }).on("error", reject).end();
        });
      assert.equal(status, 404, `no sandbox routes in production: ${path}`);
      // The sandbox's own 404 (nothing waiting) would say so; production has no such route.
      assert.doesNotMatch(body, /decoupled request/, path);
    }
    const issuer = await loadKeyAndCertificate(join(dir, "ca.crt"), join(dir, "ca.key"));
    const qwac = await issueTppCertificate(issuer, {
      name: "Real TPP", organizationIdentifier: "PSDDE-BAFIN-424242", roles: ["PSP_AI"],
      domains: ["tpp.example"], // production checks the redirect URIs' host against these
    });
    const tpp = new TppClient(`https://localhost:${ports.API_PORT}`,
      { ca: readFileSync(own.TPP_TRUST_STORE_FILE), cert: qwac.certPem, key: qwac.keyPem });
    const consent = await tpp.post("/psd2/v1/consents", consentBody(), REDIRECTS);
    tpp.close();
    assert.equal(consent.status, 200, consent.text);
    assert.match(consent.body._links.scaRedirect, new RegExp(`^https://localhost:${ports.AUTH_PORT}/`));
  } finally {
    assert.equal(await bank.stop(), 0);
  }
});
