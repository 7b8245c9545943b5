#!/usr/bin/env node
/**
 * The psd2-bank command line: start (default), migrate, seed, tpp-cert, tpp block/unblock, audit.
 * Parses argv, calls app.ts and the store, prints for people; nothing else lives here.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { API_BASE, buildApp, openAdministration, type App } from "./app.js";
import { accountCommand, ACCOUNT_USAGE } from "./cli/accounts.js";
import { availability, printConfig } from "./cli/operations.js";
import { operatorMistake, type Administration } from "./cli/output.js";
import { psuCommand, PSU_USAGE } from "./cli/psus.js";
import { resourceCommand, RESOURCE_USAGE } from "./cli/resources.js";
import { auditCommand, tppCommand, TPP_USAGE } from "./cli/tpps.js";
import { startDemoTpp } from "./demo-tpp/server.js";
import { ConfigError, loadConfig, loadConfigFile, type Config } from "./config.js";
import { demoPsuLines } from "./ledger/demo-guide.js";
import { generateDataSet } from "./ledger/data-set.js";
import { seedDemoData } from "./ledger/demo-data.js";
import { systemClock } from "./lib/clock.js";
import { makeIban } from "./lib/iban.js";
import { hashPassword } from "./sca/passwords.js";
import { openStore } from "./store/db.js";
import type { PspRole } from "./tpp/certificate.js";
import { issueTppCertificate, loadKeyAndCertificate, type DevCertificatePaths } from "./tpp/dev-ca.js";

const USAGE = `Usage: psd2-bank [--config FILE] <command> [options]

  --config FILE         settings from a JSON file of setting names to values; the environment wins

Commands:
  start                 start the TPP API and the PSU pages (default)
  config                print the effective configuration, secrets masked (--json for scripts)
  migrate               apply database migrations and exit
  seed                  seed the demo PSUs and accounts into an empty database
  generate              a large data set for scale tests: PSUs with one account and booked history each
      --psus N              how many PSUs (default 1000)
      --transactions N      how many transactions in all (default 1000000)
      --seed N              the data set's seed; logins are s<seed>-0000000 ... (default 1)
  tpp-cert              issue a TPP certificate (QWAC form) from the development CA
      --name NAME           organisation name (required)
      --roles R1,R2         PSP_AS, PSP_PI, PSP_AI, PSP_IC (default: all four)
      --org-id ID           organizationIdentifier (default: PSDDE-BAFIN-<random>)
      --domains D1,D2       subjectAltName DNS names (default: localhost)
      --out DIR             where to write tpp.crt and tpp.key (required)
${PSU_USAGE}
${ACCOUNT_USAGE}
${TPP_USAGE}
${RESOURCE_USAGE}
  demo-tpp              the bank and a demo TPP web app (shop checkout, budgeting) on localhost
      --port N              the demo TPP's port (default 8080)
      --api-url URL         use a bank that is already running instead of starting one
  availability          per-endpoint availability and response times of a running instance
      --url URL             its metrics (default: http://ADMIN_HOST:ADMIN_PORT/metrics)
      --json                print JSON instead of a table

Settings come from the environment (see README): API_PORT, AUTH_PORT, DATA_DIR, DATABASE_URL, ...`;

const ROLES: readonly PspRole[] = ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"];

function fail(message: string): never {
  process.stderr.write(`psd2-bank: ${message}\n`);
  process.exit(2);
}

function banner(app: App, urls: { apiUrl: string; authUrl: string }): string {
  const ready = `
psd2-bank is ready, ${Math.round(process.uptime() * 1000)} ms after the process started (${app.config.mode} mode, ${app.store.engine})
  TPP API     ${urls.apiUrl}${API_BASE}   (client certificate required)
  PSU pages   ${urls.authUrl}
`;
  const certs = app.certificates;
  return certs && app.config.seedDemoData ? ready + sandboxGuide(certs, urls) : ready;
}

function sandboxGuide(certs: DevCertificatePaths, urls: { apiUrl: string; authUrl: string }): string {
  const creditor = makeIban("DE", "500100001000000002");
  const debtor = makeIban("DE", "500100001000000001");
  const psus = demoPsuLines().map((line) => `    ${line}`).join("\n");
  return `  Certificates in ${certs.dir}: ca.crt, tpp.crt, tpp.key
  Demo PSUs:
${psus}
  Try it:
    curl -s --cacert ${certs.caCert} --cert ${certs.tppCert} --key ${certs.tppKey} \\
      -H "X-Request-ID: $(node -p 'crypto.randomUUID()')" -H "Content-Type: application/json" \\
      -H "TPP-Redirect-URI: ${urls.authUrl}/sandbox/tpp/ok" -H "TPP-Nok-Redirect-URI: ${urls.authUrl}/sandbox/tpp/nok" \\
      -d '{"debtorAccount":"${debtor}","creditorAccount":"${creditor}","creditorName":"Alice Savings","instructedAmount":{"currency":"EUR","amount":12.5},"remittanceInformationUnstructured":"Order 42"}' \\
      ${urls.apiUrl}${API_BASE}/payments/sepa-credit-transfers
    then open _links.scaRedirect in a browser and log in as alice.
`;
}

async function start(config: Config): Promise<{ apiUrl: string }> {
  // Handlers go in before the first await: a SIGTERM during start-up must still end with exit 0.
  let app: App | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (app) {
      app.api.log.info({ signal }, "stopping: draining in-flight requests");
      await app.close();
    }
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  app = await buildApp(config);
  const urls = await app.listen();
  process.stdout.write(banner(app, urls));
  return urls;
}

async function demoTpp(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: "string" }, "api-url": { type: "string" } } });
  if (config.mode !== "sandbox") fail("demo-tpp runs in sandbox mode only");
  const port = Number(values.port ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a TCP port, got ${values.port}`);
  const apiUrl = values["api-url"] ?? (await start(config)).apiUrl;
  const certDir = join(config.dataDir, "certs");
  const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certDir, f))))
    .catch(() => fail(`no demo certificates in ${certDir}: run "npm start" once first`));
  const demo = await startDemoTpp({
    apiUrl, identity: { ca: ca!, cert: cert!, key: key! }, host: "127.0.0.1", port,
    debtorIban: makeIban("DE", "500100001000000001"), merchantIban: makeIban("DE", "500100003000000001"),
  });
  process.stdout.write(`\nDemo TPP at ${demo.url} using the bank at ${apiUrl}\n`
    + "  Shop checkout (payment):     " + `${demo.url}/shop\n`
    + "  Budget (account information): " + `${demo.url}/budget\n`
    + "  Log in at the bank as one of the demo PSUs above (alice / alice-demo).\n");
}

async function generate(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: { psus: { type: "string" }, transactions: { type: "string" }, seed: { type: "string" } },
  });
  const count = (name: string, raw: string | undefined, fallback: number, max: number) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max) fail(`--${name} must be a whole number from 1 to ${max}`);
    return value;
  };
  // Its PSUs share a published password, and its bulk load relaxes fsync until the end.
  if (config.mode !== "sandbox") fail("generate runs in sandbox mode only: its PSUs share a known password");
  const psus = count("psus", values.psus, 1000, 10_000_000);
  const transactions = count("transactions", values.transactions, 1_000_000, 100_000_000);
  const seed = count("seed", values.seed, 1, 1_000_000);
  const store = await openStore(config);
  const started = Date.now();
  let shown = -1;
  try {
    const result = await generateDataSet({
      store, clock: systemClock, timeZone: config.timeZone, bankCode: config.bankCode, bic: config.bankBic,
      psus, transactions, seed, passwordHash: await hashPassword("generated-demo"),
      progress(done, total) {
        const percent = Math.floor((100 * done) / total / 10) * 10;
        if (percent > shown) process.stdout.write(`  ${percent} % (${done} of ${total} bookings)\n`);
        shown = percent;
      },
    });
    process.stdout.write(`Generated ${psus} PSUs (${result.firstLogin} ... ${result.lastLogin}, password `
      + `generated-demo) with ${result.transactions} bookings in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  } catch (error) {
    if (error instanceof RangeError) fail(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

async function tppCert(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: {
      name: { type: "string" }, roles: { type: "string" }, "org-id": { type: "string" },
      domains: { type: "string" }, out: { type: "string" },
    },
  });
  if (!values.name) fail("tpp-cert needs --name");
  if (!values.out) fail("tpp-cert needs --out DIR");
  const roles = (values.roles ?? ROLES.join(",")).split(",").map((r) => r.trim());
  const unknown = roles.filter((r) => !ROLES.includes(r as PspRole));
  if (unknown.length > 0) fail(`unknown role(s) ${unknown.join(", ")}; use ${ROLES.join(", ")}`);
  const orgId = values["org-id"] ?? `PSDDE-BAFIN-${randomBytes(3).toString("hex").toUpperCase()}`;
  if (!/^PSD[A-Z]{2}-[A-Z]{2,8}-.+$/.test(orgId)) fail(`--org-id must look like PSDDE-BAFIN-123456, got ${orgId}`);
  const certDir = join(config.dataDir, "certs");
  const ca = await loadKeyAndCertificate(join(certDir, "ca.crt"), join(certDir, "ca.key"))
    .catch(() => fail(`no development CA in ${certDir}: run "npm start" once first`));
  const issued = await issueTppCertificate(ca, {
    name: values.name, organizationIdentifier: orgId, roles: roles as PspRole[],
    domains: values.domains ? values.domains.split(",") : undefined,
  });
  const out = resolve(values.out);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "tpp.crt"), issued.certPem);
  await writeFile(join(out, "tpp.key"), issued.keyPem, { mode: 0o600 });
  process.stdout.write(`Issued "${values.name}" (${orgId}, roles ${roles.join(", ")}):\n`
    + `  ${join(out, "tpp.crt")}\n  ${join(out, "tpp.key")}\n`);
}

async function administer(config: Config, command: (admin: Administration) => Promise<void>): Promise<void> {
  const admin = await openAdministration(config);
  try {
    await command(admin);
  } finally {
    await admin.close();
  }
}

/** Takes the global --config option out of argv, wherever it stands. */
function configFrom(argv: string[]): { config: () => Config; args: string[] } {
  const args = [...argv];
  const at = args.findIndex((a) => a === "--config" || a.startsWith("--config="));
  if (at < 0) return { config: () => loadConfig(), args };
  const [flag = ""] = args.splice(at, 1);
  const path = flag.includes("=") ? flag.slice("--config=".length) : args.splice(at, 1)[0];
  if (!path) fail("--config needs a file");
  return { config: () => loadConfigFile(path), args };
}

async function main(argv: string[]): Promise<void> {
  const { config: readConfig, args } = configFrom(argv);
  const [command = "start", ...rest] = args;
  if (command === "--help" || command === "help") return void process.stdout.write(`${USAGE}\n`);
  const config = readConfig();
  switch (command) {
    case "start":
      return void await start(config);
    case "config":
      return printConfig(config, rest);
    case "migrate": {
      let applied = 0;
      const store = await openStore({ ...config, onMigration: (name) => {
        applied += 1;
        process.stdout.write(`  applied ${name}\n`);
      } });
      await store.close();
      return void process.stdout.write(`The ${store.engine} database is up to date (${applied} migrations applied now).\n`);
    }
    case "seed": {
      const store = await openStore(config);
      const seeded = await seedDemoData({ store, clock: systemClock, timeZone: config.timeZone, bic: config.bankBic, hashPassword });
      await store.close();
      return void process.stdout.write(seeded ? "Seeded the demo bank.\n" : "The database already has PSUs; nothing seeded.\n");
    }
    case "generate":
      return generate(config, rest);
    case "tpp-cert":
      return tppCert(config, rest);
    case "demo-tpp":
      return demoTpp(config, rest);
    case "availability":
      return availability(config, rest);
    case "psu":
      return administer(config, (admin) => psuCommand(admin, rest));
    case "account":
      return administer(config, (admin) => accountCommand(admin, rest));
    case "tpp":
      return administer(config, (admin) => tppCommand(admin, rest));
    case "payment":
    case "consent":
      return administer(config, (admin) => resourceCommand(command, admin, rest));
    case "audit":
      return administer(config, (admin) => auditCommand(admin, rest));
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  const mistake = operatorMistake(error);
  if (mistake !== undefined) fail(mistake);
  process.stderr.write(`psd2-bank: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
