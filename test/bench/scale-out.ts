/**
 * `npm run bench -- --scale-out`: two instances of the bank on one PostgreSQL database behind a
 * round-robin TCP balancer (balancer.ts), each scenario measured on one instance alone and then
 * on both. On a machine of few cores that also runs the load generator and PostgreSQL, two
 * instances cannot scale linearly, so beside requests/s the CPU time per request of each instance
 * and of PostgreSQL is reported: the figures a bank sizes a deployment with (scale-out.json, .md).
 */
import { paymentBody } from "../support/flows.js";
import { startBalancer } from "./balancer.js";
import { consentFor, ibansOf, postgresPids, startBenchBank, type BenchBank, type BenchInstance } from "./bank.js";
import { load, type LoadOptions, type Result, type Target } from "./load.js";
import { machine, metaList, relativeTo, writeResults, type Meta } from "./report.js";

const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Unmeasured load on both instances before each scenario: the second starts cold otherwise. */
const WARM_UP_SECONDS = 2;
const INSTANCES = ["instance 1", "instance 2"] as const;
const POSTGRES = "PostgreSQL";
const BENCH = "load generator + balancer";
const COLUMNS = [...INSTANCES, POSTGRES, BENCH];

interface Scenario { name: string; path: string; options: Partial<LoadOptions> }

function scenarios(consentId: string): Scenario[] {
  return [
    { name: "get accounts", path: "/psd2/v1/accounts",
      options: { headers: { "consent-id": consentId, "psu-ip-address": "192.0.2.1" } } },
    { name: "create payment", path: "/psd2/v1/payments/sepa-credit-transfers", options: {
      method: "POST", freshRequestId: true, body: JSON.stringify(paymentBody()),
      headers: { "tpp-redirect-uri": "https://tpp.example/ok" },
    } },
  ];
}

const cpuOf = (r: Result, label: string) => r.cpuUsPerRequest?.[label] ?? 0;
const banksCpu = (r: Result) => INSTANCES.reduce((sum, label) => sum + cpuOf(r, label), 0);

/** Cores kept busy by everything measured: CPU per request times requests per second. */
function coresBusy(r: Result): string {
  const us = Object.values(r.cpuUsPerRequest ?? {}).reduce((a, b) => a + b, 0);
  return ((us * r.requestsPerSecond) / 1e6).toFixed(2);
}

function resultsTable(results: Result[]): string {
  const rows = results.map((r) => `| ${r.scenario} | ${r.requestsPerSecond} `
    + `| ${Math.round(100 * (r.ofBaseline?.requestsPerSecond ?? 1))} % | ${r.p50Ms} | ${r.p99Ms} `
    + `| ${r.errors + r.non2xx} | ${COLUMNS.map((l) => cpuOf(r, l)).join(" | ")} `
    + `| ${coresBusy(r)} |`);
  return "| Scenario | Requests/s | Of one instance's | p50 ms | p99 ms | Errors "
    + `| CPU µs/request: ${INSTANCES.join(" | ")} | ${POSTGRES} | ${BENCH} | Cores busy |\n`
    + `|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join("\n")}\n`;
}

interface Sizing {
  scenario: string;
  bankCpuUsPerRequest: number;
  postgresCpuUsPerRequest: number;
  bankRequestsPerSecondPerCore: number;
  postgresRequestsPerSecondPerCore: number;
}

/** Each request is served by one instance, so the instances' shares add up to its cost. */
function sizing(results: Result[]): Sizing[] {
  return results.map((r) => ({
    scenario: r.scenario,
    bankCpuUsPerRequest: banksCpu(r),
    postgresCpuUsPerRequest: cpuOf(r, POSTGRES),
    bankRequestsPerSecondPerCore: Math.round(1e6 / Math.max(banksCpu(r), 1)),
    postgresRequestsPerSecondPerCore: Math.round(1e6 / Math.max(cpuOf(r, POSTGRES), 1)),
  }));
}

function sizingTable(rows: Sizing[]): string {
  const lines = rows.map((s) => `| ${s.scenario} | ${s.bankCpuUsPerRequest} `
    + `| ${s.postgresCpuUsPerRequest} | ${s.bankRequestsPerSecondPerCore} `
    + `| ${s.postgresRequestsPerSecondPerCore} |`);
  return "| Scenario | Bank CPU µs/request (instances together) | PostgreSQL CPU µs/request "
    + "| Requests/s per core, bank | Requests/s per core, PostgreSQL |\n"
    + `|---|---|---|---|---|\n${lines.join("\n")}\n`;
}

const NOTES = `CPU per request is each process's user + system time (/proc/<pid>/stat) over a
run, divided by the run's requests. PostgreSQL is every server process (background and WAL
writers included) except connections to other databases. The load generator and the balancer
share the machine's cores with the instances and PostgreSQL, so "Cores busy" near the machine's
cores means the machine, not the bank, set the ceiling of requests/s; well below them, another
load on the machine took the rest. Sizing: bank cores = target requests/s ÷ requests/s per core
of the bank, spread over the instances; PostgreSQL cores likewise; both before headroom.
Requests/s per core = 1,000,000 ÷ CPU µs per request.`;

function report(meta: Meta, results: Result[], rows: Sizing[]): string {
  return "# Scale out: two instances on one PostgreSQL behind a round-robin balancer\n\n"
    + `${metaList(meta)}\n\n## Scenarios\n\n${resultsTable(results)}\n`
    + `## Sizing\n\n${sizingTable(rows)}\n${NOTES}\n`;
}

/**
 * Each scenario on instance 1 alone, then on both through the balancer, every process metered,
 * after a warm-up through the balancer (JIT, caches) that is not measured.
 */
async function measure(bank: BenchBank, second: BenchInstance, both: Target,
  run: { seconds: number; connections: number }): Promise<Result[]> {
  const cpu = {
    [INSTANCES[0]]: () => (bank.pid === undefined ? [] : [bank.pid]),
    [INSTANCES[1]]: () => (second.pid === undefined ? [] : [second.pid]),
    [POSTGRES]: () => postgresPids(bank.databaseUrl),
    [BENCH]: () => [process.pid],
  };
  const consentId = await consentFor(bank, "carol", ibansOf(bank, "carol"));
  const results: Result[] = [];
  for (const { name, path, options } of scenarios(consentId)) {
    const opts: LoadOptions = { ...run, cpuOf: cpu, ...options };
    await load(`${name}: warm-up`, both, path, { ...run, ...options, seconds: WARM_UP_SECONDS });
    const one = await load(`${name}: instance 1 alone`, bank, path, opts);
    const two = await load(`${name}: 2 instances, balanced`, both, path, opts);
    relativeTo(one, [one, two]);
    results.push(one, two);
  }
  return results;
}

export async function scaleOut(seconds: number, connections: number): Promise<void> {
  process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;
  const bank = await startBenchBank();
  try {
    const second = await bank.startInstance();
    const ports = [bank.url, second.url].map((url) => Number(new URL(url).port));
    const balancer = await startBalancer(ports);
    try {
      const both = { url: `https://localhost:${balancer.port}`, tls: bank.tls };
      const results = await measure(bank, second, both, { seconds, connections });
      const meta = {
        ...await machine(), engine: bank.engine, instances: 2,
        balancer: "round robin, TCP pass-through", connections, secondsPerScenario: seconds,
        warmUpSecondsPerScenario: WARM_UP_SECONDS,
      };
      const rows = sizing(results);
      await writeResults("scale-out", { meta, results, sizing: rows }, report(meta, results, rows));
    } finally {
      await balancer.close();
    }
  } finally {
    await bank.close();
  }
}
