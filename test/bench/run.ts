/**
 * `npm run bench`: psd2-bank under load over real TLS with the demo TPP's certificate, beside a
 * baseline measured in the same run with the same load generator and connections (a bare Fastify
 * HTTPS server with client certificates answering an accounts body of the same size). Writes
 * bench/results/latest.json and latest.md. Settings: BENCH_SECONDS (per scenario, default 10),
 * BENCH_CONNECTIONS (default 50), DATABASE_URL (PostgreSQL instead of the embedded SQLite).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { BrowserClient } from "../support/browser.js";
import { freePort, listenerPorts, runCli, startCli, type RunningCli } from "../support/cli.js";
import { consentBody, confirm, createConsent, createPayment, paymentBody, reachReview } from "../support/flows.js";
import { TppClient } from "../support/tpp-client.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface Result { scenario: string; requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number;
  non2xx: number; ratioToBaseline?: number }

interface Target { url: string; tls: { ca: Buffer; cert: Buffer; key: Buffer } }

async function load(scenario: string, target: Target, path: string, options: {
  method?: "GET" | "POST"; headers?: Record<string, string>; body?: string; freshRequestId?: boolean;
} = {}): Promise<Result> {
  const headers = { "x-request-id": randomUUID(), accept: "application/json", ...options.headers };
  const result = await autocannon({
    url: `${target.url}${path}`, method: options.method ?? "GET", headers, body: options.body,
    connections: CONNECTIONS, duration: SECONDS, tlsOptions: target.tls,
    // Creating resources needs a fresh X-Request-ID each time, or idempotency answers from its record.
    requests: options.freshRequestId
      ? [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, "x-request-id": randomUUID() } }) }]
      : undefined,
  });
  return {
    scenario, requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts, non2xx: result.non2xx,
  };
}

const FLOW_WORKERS = 4;

/**
 * PSUs for the whole-payment scenario, one per worker, each with an SMS device (TOTP would allow
 * one login per 30-second step) and an account with money, made with the operator's CLI.
 */
function flowPsus(dataDir: string): { login: string; iban: string }[] {
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: process.env.DATABASE_URL ?? "" };
  const cli = (...args: string[]) => {
    const result = runCli([...args, "--json"], env);
    if (result.status !== 0) throw new Error(`${args.join(" ")}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  return Array.from({ length: FLOW_WORKERS }, (_, i) => {
    const login = `bench-${i}`;
    cli("psu", "add", "--login", login, "--name", `Bench PSU ${i}`, "--password", `${login}-demo`);
    cli("psu", "enrol-device", login, "--kind", "sms", "--phone", `+4915100001${String(i).padStart(3, "0")}`);
    const { iban } = cli("account", "open", "--login", login);
    cli("account", "credit", iban, "1000.00");
    return { login, iban };
  });
}

/** Whole payments with every PSU step, one worker per PSU. */
async function fullPayments(bank: { tpp: TppClient; authUrl: string; ca: Buffer },
  psus: { login: string; iban: string }[]): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + SECONDS * 1000;
  const worker = async (psu: { login: string; iban: string }) => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const body = paymentBody({ debtorAccount: psu.iban, instructedAmount: { currency: "EUR", amount: "0.01" } });
        const { scaRedirect } = await createPayment(bank.tpp, body);
        const browser = new BrowserClient(bank.authUrl, bank.ca);
        await confirm(browser, await reachReview(browser, scaRedirect, psu.login));
        latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(psus.map(worker));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { scenario: "full payment with PSU steps (flows)", requestsPerSecond: latencies.length / SECONDS,
    p50Ms: at(0.5), p99Ms: at(0.99), errors, non2xx: 0 };
}

function peakRssMb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, "utf8").then((status) => Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function startBaseline(certs: string, body: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const bodyFile = join(certs, "..", "baseline-body.json");
  await writeFile(bodyFile, body);
  const child = spawn(process.execPath, [fileURLToPath(new URL("./baseline.js", import.meta.url)), String(port), certs, bodyFile]);
  await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => { if (d.toString().includes("ready")) resolve(); }));
  return { url: `https://localhost:${port}`, stop: () => child.kill("SIGTERM") };
}

function markdown(results: Result[], meta: Record<string, string | number>): string {
  const rows = results.map((r) => `| ${r.scenario} | ${r.requestsPerSecond.toFixed(0)} | ${r.ratioToBaseline === undefined ? "" :
    `${(100 * r.ratioToBaseline).toFixed(0)} %`} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors + r.non2xx} |`);
  return `# Benchmark results\n\n${Object.entries(meta).map(([k, v]) => `- ${k}: ${v}`).join("\n")}\n\n`
    + "| Scenario | Requests/s | Of baseline | p50 ms | p99 ms | Errors |\n|---|---|---|---|---|---|\n"
    + `${rows.join("\n")}\n`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-bench-"));
  const ports = await listenerPorts();
  const spawned = performance.now();
  let server: RunningCli | undefined;
  let baseline: { url: string; stop(): void } | undefined;
  try {
    server = await startCli(["start"], {
      DATA_DIR: dataDir, ...ports, LOG_LEVEL: "warn", DATABASE_URL: process.env.DATABASE_URL ?? "",
    }, "then open _links.scaRedirect");
    const readyMs = Math.round(performance.now() - spawned);
    const pid = Number(server.pid);
    const certs = join(dataDir, "certs");
    const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certs, f))));
    const tls = { ca: ca!, cert: cert!, key: key! };
    const bank = { url: `https://localhost:${ports.API_PORT}`, tls };
    const authUrl = `https://localhost:${ports.AUTH_PORT}`;
    const tpp = new TppClient(bank.url, tls);
    const consent = await createConsent(tpp, consentBody());
    const browser = new BrowserClient(authUrl, ca!);
    await confirm(browser, await reachReview(browser, consent.scaRedirect, "carol"),
      ["DE06500100003000000001", "DE76500100003000000002", "DE49500100003000000003"]);
    const accountHeaders = { "consent-id": consent.consentId, "psu-ip-address": "192.0.2.1" };
    const accountsBody = (await tpp.get("/psd2/v1/accounts?withBalance=true", accountHeaders)).text;
    const { paymentId } = await createPayment(tpp);
    baseline = await startBaseline(certs, accountsBody);
    const results: Result[] = [];
    results.push({ ...await load("baseline: bare Fastify HTTPS, same body", { url: baseline.url, tls }, "/psd2/v1/accounts") });
    results.push(await load("get accounts with balances (read path)", bank, "/psd2/v1/accounts?withBalance=true",
      { headers: accountHeaders }));
    results.push(await load("get payment status", bank, `/psd2/v1/payments/${paymentId}/status`));
    results.push(await load("create payment (write path)", bank, "/psd2/v1/payments/sepa-credit-transfers", {
      method: "POST", freshRequestId: true, body: JSON.stringify(paymentBody()),
      headers: { "content-type": "application/json", "tpp-redirect-uri": "https://tpp.example/ok" },
    }));
    results.push(await fullPayments({ tpp, authUrl, ca: ca! }, flowPsus(dataDir)));
    tpp.close();
    const base = results[0]?.requestsPerSecond ?? 1;
    for (const r of results.slice(1, 4)) r.ratioToBaseline = r.requestsPerSecond / base;
    const meta = {
      date: new Date().toISOString(), engine: process.env.DATABASE_URL ? "postgres" : "sqlite", connections: CONNECTIONS,
      secondsPerScenario: SECONDS, serverPeakRssMb: Math.round(await peakRssMb(pid)), startToReadyMs: readyMs,
      cpus: (await readFile("/proc/cpuinfo", "utf8")).split("\n").filter((l) => l.startsWith("processor")).length,
    };
    const out = join(ROOT, "bench", "results");
    await mkdir(out, { recursive: true });
    await writeFile(join(out, "latest.json"), `${JSON.stringify({ meta, results }, null, 2)}\n`);
    await writeFile(join(out, "latest.md"), markdown(results, meta));
    process.stdout.write(markdown(results, meta));
  } finally {
    baseline?.stop();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
