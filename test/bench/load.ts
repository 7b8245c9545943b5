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


export interface LoadOptions {
  seconds: number;
  connections: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Creating resources needs a fresh X-Request-ID each time, or idempotency answers from its record. */
  freshRequestId?: boolean;
}

export async function load(scenario: string, target: Target, path: string, options: LoadOptions): Promise<Result> {
  const headers: Record<string, string> = { "x-request-id": randomUUID(), accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const ticksBefore = target.pid === undefined ? 0 : cpuTicks(target.pid);
  const result = await autocannon({
    url: `${target.url}${path}`, method: options.method ?? "GET", headers, body: options.body,
    connections: options.connections, duration: options.seconds, tlsOptions: target.tls,
    requests: options.freshRequestId
      ? [{ setupRequest: (r) => ({ ...r, headers: { ...r.headers, "x-request-id": randomUUID() } }) }]
      : undefined,
  });
  const cpuUs = target.pid === undefined ? undefined
    : (cpuTicks(target.pid) - ticksBefore) * 10_000;
  return {
    scenario, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50,
    p99Ms: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx,
    serverCpuUsPerRequest: cpuUs === undefined ? undefined
      : Math.round(cpuUs / Math.max(result.requests.total, 1)),
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
