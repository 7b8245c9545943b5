/**
 * Load for the benchmarks: autocannon over real TLS with a client certificate and keep-alive for
 * single requests, and whole payments (create, then every PSU page step) from a few workers.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { BrowserClient } from "../support/browser.js";
import { confirm, createPayment, paymentBody, reachReview } from "../support/flows.js";
import type { TppClient } from "../support/tpp-client.js";
import type { Tls } from "./bank.js";

export interface Result {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /**
   * The server's CPU time (user + system) per request, in microseconds: unlike requests/s, it
   * does not depend on how much of the machine the load generator and other processes take.
   */
  serverCpuUsPerRequest?: number;
  /** CPU time per request, in microseconds, of each group of processes in LoadOptions.cpuOf. */
  cpuUsPerRequest?: Record<string, number>;
  /** requests/s as a fraction of the baseline's, and the latencies as multiples of its. */
  ofBaseline?: { requestsPerSecond: number; p50: number; p99: number };
}

export interface Target {
  url: string;
  tls: Tls;
  /** The server's process, for its CPU time. */
  pid?: number;
}

/** Clock ticks (USER_HZ, 100 on Linux) a process has spent on a CPU, user and system. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Ticks by pid; a process that has exited meanwhile is left out. */
function ticksOf(pids: number[]): Map<number, number> {
  return new Map(pids.flatMap((pid): [number, number][] => {
    try {
      return [[pid, cpuTicks(pid)]];
    } catch {
      return [];
    }
  }));
}

/**
 * Starts counting the CPU time of the processes `pids()` lists; the answer stops and answers the
 * microseconds spent since. They are listed again at the end, so a process started meanwhile (a
 * database connection) counts from zero; one that ended meanwhile loses its share.
 */
function cpuMeter(pids: () => number[]): () => number {
  const before = ticksOf(pids());
  return () => {
    let ticks = 0;
    for (const [pid, now] of ticksOf(pids())) ticks += now - (before.get(pid) ?? 0);
    return ticks * 10_000;
  };
}

export interface LoadOptions {
  seconds: number;
  /** Stop after this many requests instead of after `seconds`. */
  requests?: number;
  connections: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Creating resources needs a fresh X-Request-ID each time, or idempotency answers from its record. */
  freshRequestId?: boolean;
  /** Further processes whose CPU time per request to measure, by label (e.g. PostgreSQL's). */
  cpuOf?: Record<string, () => number[]>;
  /**
   * Each request takes the next of these in turn over its path, body and headers: many customers,
   * where one consent or one account would be the best case for the bank's shared reads.
   */
  roundRobin?: RequestVariant[];
}

export interface RequestVariant { path?: string; body?: string; headers?: Record<string, string> }

/** autocannon's per-request setup: a fresh X-Request-ID and the next variant, as asked. */
function perRequestSetup({ roundRobin, freshRequestId }: LoadOptions): autocannon.Request[] | undefined {
  if (!roundRobin && !freshRequestId) return undefined;
  let next = 0;
  return [{ setupRequest: (r) => {
    const variant = roundRobin?.[next++ % roundRobin.length] ?? {};
    const headers: Record<string, string | string[] | undefined> = { ...r.headers, ...variant.headers };
    if (freshRequestId) headers["x-request-id"] = randomUUID();
    return { ...r, ...variant, headers };
  } }];
}

const perRequest = (us: number, requests: number) => Math.round(us / Math.max(requests, 1));

export async function load(scenario: string, target: Target, path: string, options: LoadOptions): Promise<Result> {
  const headers: Record<string, string> = { "x-request-id": randomUUID(), accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const { pid } = target;
  const server = pid === undefined ? undefined : cpuMeter(() => [pid]);
  const others = Object.entries(options.cpuOf ?? {})
    .map(([label, pids]) => [label, cpuMeter(pids)] as const);
  const result = await autocannon({
    url: `${target.url}${path}`, method: options.method ?? "GET", headers, body: options.body,
    connections: options.connections, duration: options.seconds, amount: options.requests,
    tlsOptions: target.tls,
    requests: perRequestSetup(options),
  });
  const requests = result.requests.total;
  return {
    // autocannon averages whole seconds' counts: a counted load's last second is a partial one.
    scenario, requestsPerSecond: Math.round(options.requests === undefined
      ? result.requests.average : requests / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx,
    serverCpuUsPerRequest: server && perRequest(server(), requests),
    cpuUsPerRequest: options.cpuOf
      && Object.fromEntries(others.map(([label, stop]) => [label, perRequest(stop(), requests)])),
  };
}

export interface FlowBank { tpp: TppClient; authUrl: string; tls: Tls }

/** Whole payments with every PSU step, one worker per PSU (a PSU has one session at a time). */
export async function fullPayments(bank: FlowBank, psus: { login: string; iban: string }[],
  seconds: number): Promise<Result & { firstError?: string }> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const until = Date.now() + seconds * 1000;
  const worker = async (psu: { login: string; iban: string }) => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const body = paymentBody({ debtorAccount: psu.iban, instructedAmount: { currency: "EUR", amount: "0.01" } });
        const { scaRedirect } = await createPayment(bank.tpp, body);
        const browser = new BrowserClient(bank.authUrl, bank.tls.ca);
        await confirm(browser, await reachReview(browser, scaRedirect, psu.login));
        latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(psus.map(worker));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    scenario: "full payment with PSU steps (payments/s)", requestsPerSecond: Math.round((10 * latencies.length) / seconds) / 10,
    p50Ms: at(0.5), p99Ms: at(0.99), errors, non2xx: 0, firstError,
  };
}
