/**
 * `npm run bench`: psd2-bank under load over real TLS with the demo TPP's certificate, beside a
 * baseline measured in the same run, right before each scenario, with the same load generator and
 * connections (a bare Fastify HTTPS server with client certificates answering an accounts body of
 * the same size). Writes
 * bench/results/latest.json and latest.md. `npm run bench -- --scale` measures reads and payment
 * creation with 10,000 and then 1,000,000 generated transactions instead (scale.json, scale.md).
 * `npm run bench -- --scale-out` measures the account list and payment creation on one instance
 * and on two behind a round-robin TCP balancer, on PostgreSQL only, with the CPU time per request
 * of each instance and of PostgreSQL for sizing (scale-out.json, scale-out.md).
 * Settings: BENCH_SECONDS (per scenario, default 10; 5 with --scale), BENCH_CONNECTIONS (default
 * 50), DATABASE_URL (a fresh database on that PostgreSQL server instead of the embedded SQLite;
 * --scale-out falls back to postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_CPU_PROF (a directory: the bank runs with --cpu-prof and writes its profile there on exit),
 * BENCH_ONLY (only the scenarios whose name starts with it, e.g. "get accounts"; for profiling).
 */
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../support/cli.js";
import { ALICE_MAIN, createPayment, paymentBody } from "../support/flows.js";
import {
  consentFor, generate, ibansOf, preparePsu, resourceIdOf, startBenchBank, transactionsPath, type BenchBank,
} from "./bank.js";
import { fullPayments, load, type LoadOptions, type Result } from "./load.js";
import { machine, markdown, relativeTo, writeResults, type Check } from "./report.js";
import { scaleOut } from "./scale-out.js";
import { scale } from "./scale.js";

const SCALE = process.argv.includes("--scale");
const SCALE_OUT = process.argv.includes("--scale-out");
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SCALE ? 5 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const P99_MAX_MS = 25;
const ONLY = process.env.BENCH_ONLY ?? "";

async function startBaseline(certs: string, body: string):
  Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const port = await freePort();
  const bodyFile = join(tmpdir(), `psd2-bank-baseline-${port}.json`);
  await writeFile(bodyFile, body);
  const child = spawn(process.execPath, [fileURLToPath(new URL("./baseline.js", import.meta.url)), String(port), certs, bodyFile]);
  await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => {
    if (d.toString().includes("ready")) resolve();
  }));
  return {
    url: `https://localhost:${port}`,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await rm(bodyFile, { force: true });
    },
  };
}

const FLOW_WORKERS = 4;

/** PSUs for the whole-payment scenario, one per worker, each with an SMS device and money. */
function flowPsus(bank: BenchBank): { login: string; iban: string }[] {
  return Array.from({ length: FLOW_WORKERS }, (_, i) => {
    const login = `bench-${i}`;
    bank.cli("psu", "add", "--login", login, "--name", `Bench PSU ${i}`, "--password", `${login}-demo`);
    bank.cli("psu", "enrol-device", login, "--kind", "sms", "--phone", `+4915100001${String(i).padStart(3, "0")}`);
    const { iban } = bank.cli("account", "open", "--login", login) as { iban: string };
    bank.cli("account", "credit", iban, "1000.00");
    return { login, iban };
  });
}

/**
 * Every scenario of the issue, each right after a baseline measurement of its own: the machine's
 * load from elsewhere changes over a run, and a ratio to a baseline taken minutes earlier would
 * carry that change. The first result is the median baseline, for the table.
 */
async function scenarios(bank: BenchBank): Promise<{ results: Result[]; apiPeakRssMb: number }> {
  const opts = (extra: Partial<LoadOptions> = {}): LoadOptions => ({ seconds: SECONDS, connections: CONNECTIONS, ...extra });
  const psu = { "psu-ip-address": "192.0.2.1" };
  const carol = await consentFor(bank, "carol", ["DE06500100003000000001", "DE76500100003000000002", "DE49500100003000000003"]);
  const accountsBody = (await bank.tpp.get("/psd2/v1/accounts", { "consent-id": carol, ...psu })).text;
  // One account with a long booked history, from the operator's data-set generator.
  const longLogin = generate(bank.cli, 1, 10_000, 1);
  preparePsu(bank, longLogin, "+4915100002000");
  const long = await consentFor(bank, longLogin, ibansOf(bank, longLogin));
  const longAccount = await resourceIdOf(bank, long);
  const { paymentId } = await createPayment(bank.tpp);
  const walkers = flowPsus(bank);
  const baseline = await startBaseline(bank.certs, accountsBody);
  const baselines: Result[] = [];
  const results: Result[] = [];
  const besideBaseline = async (scenario: string, path: string, options: LoadOptions) => {
    if (!scenario.startsWith(ONLY)) return;
    const base = await load("baseline: bare Fastify HTTPS, same body",
      { url: baseline.url, tls: bank.tls, pid: baseline.pid },
      "/psd2/v1/accounts", opts());
    const result = await load(scenario, bank, path, options);
    relativeTo(base, [result]);
    baselines.push(base);
    results.push(result);
  };
  try {
    await besideBaseline("get accounts (read path)", "/psd2/v1/accounts", opts({ headers: { "consent-id": carol, ...psu } }));
    await besideBaseline("get transactions, one page, 10,000 booked", transactionsPath(longAccount),
      opts({ headers: { "consent-id": long, ...psu } }));
    await besideBaseline("get payment status", `/psd2/v1/payments/${paymentId}/status`, opts());
    await besideBaseline("create payment (write path)", "/psd2/v1/payments/sepa-credit-transfers", opts({
      method: "POST", freshRequestId: true, body: JSON.stringify(paymentBody()),
      headers: { "tpp-redirect-uri": "https://tpp.example/ok" },
    }));
    await besideBaseline("funds confirmation", "/psd2/v1/funds-confirmations", opts({
      method: "POST", body: JSON.stringify({ account: { iban: ALICE_MAIN }, instructedAmount: { currency: "EUR", amount: "10.00" } }),
    }));
  } finally {
    await baseline.stop();
  }
  const apiPeakRssMb = await bank.peakRssMb();
  if ("full payment".startsWith(ONLY)) results.push(await fullPayments(bank, walkers, SECONDS));
  const median = [...baselines].sort((x, y) => x.requestsPerSecond - y.requestsPerSecond)[Math.floor(baselines.length / 2)]!;
  const table = [{ ...median, scenario: `baseline (median of ${baselines.length}, each scenario compared with its own)` },
    ...results];
  return { results: table, apiPeakRssMb };
}

function checks(results: Result[], rss: { api: number; all: number }, readyMs: number): Check[] {
  const find = (prefix: string) => results.find((r) => r.scenario.startsWith(prefix));
  const share = (prefix: string, min: number): Check => {
    const ratio = find(prefix)?.ofBaseline?.requestsPerSecond ?? 0;
    return { target: `${prefix}: ≥ ${100 * min} % of the baseline's requests/s`, measured: `${Math.round(100 * ratio)} %`,
      met: ratio >= min };
  };
  const single = results.slice(1).filter((r) => !r.scenario.startsWith("full payment"));
  const worst = single.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a),
    { p99Ms: 0, scenario: "none" });
  const failed = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  return [
    share("get accounts", 0.5), share("create payment", 0.25),
    { target: `p99 < ${P99_MAX_MS} ms at ${CONNECTIONS} connections, every single-request scenario`,
      measured: `worst ${worst.p99Ms} ms (${worst.scenario})`, met: worst.p99Ms < P99_MAX_MS },
    { target: "server peak RSS < 150 MB",
      measured: `${rss.all} MB (${rss.api} MB before the PSU logins; argon2id 19 MiB, 2 at once)`,
      met: rss.all < 150 },
    { target: "start to ready < 1 s (restart on existing data)", measured: `${readyMs} ms`, met: readyMs < 1000 },
    { target: "no errors", measured: `${failed}`, met: failed === 0 },
  ];
}

async function benchmarks(): Promise<void> {
  const bank = await startBenchBank({ profileDir: process.env.BENCH_CPU_PROF || undefined });
  try {
    const { results, apiPeakRssMb } = await scenarios(bank);
    const rssMb = await bank.peakRssMb();
    const meta = {
      ...await machine(), engine: bank.engine, connections: CONNECTIONS, secondsPerScenario: SECONDS,
      serverPeakRssMbApiScenarios: apiPeakRssMb, serverPeakRssMbWithPsuLogins: rssMb,
      firstStartToReadyMs: bank.readyMs.firstStart, restartToReadyMs: bank.readyMs.restart,
    };
    const found = checks(results, { api: apiPeakRssMb, all: rssMb }, bank.readyMs.restart);
    // A partial run (BENCH_ONLY) does not replace the full results.
    const engine = bank.engine === "postgres" ? "latest-postgres" : "latest";
    const name = `${engine}${ONLY ? "-partial" : ""}`;
    await writeResults(name, { meta, results, targets: found },
      markdown("Benchmark results", meta, [["Scenarios", results]], found));
  } finally {
    await bank.close();
  }
}

if (SCALE_OUT) await scaleOut(SECONDS, CONNECTIONS);
else await (SCALE ? scale(SECONDS, CONNECTIONS) : benchmarks());
