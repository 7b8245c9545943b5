/** The psd2-bank command line as a separate process, as an operator runs it. */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The bundle `npm start` runs (scripts/bundle.mjs), so that every test of the CLI tests it too. */
export const MAIN = fileURLToPath(new URL("../../src/psd2-bank.js", import.meta.url));

/** The first port the kernel hands to outgoing connections (Linux's default where unknown). */
export function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
}

/** Below this, ports are often taken by well-known services. */
const LISTENER_PORTS_FROM = 10_000;
const LISTENER_PORTS_BELOW = ephemeralPortsFrom();
const PORT_TRIES = 100;

/** Ports this process handed out: none is bound until its bank starts, so a check cannot see it. */
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port free now, below the kernel's ephemeral range: a port listen(0) gives is one the kernel
 * also gives outgoing connections, and in CI one of the suite's many connections took a bank's
 * port in the second between this check and the bank's own bind.
 */
export async function freePort(): Promise<number> {
  const span = LISTENER_PORTS_BELOW - LISTENER_PORTS_FROM;
  for (let tries = 0; tries < PORT_TRIES; tries++) {
    const port = LISTENER_PORTS_FROM + Math.floor(Math.random() * span);
    if (!handedOut.has(port) && await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${LISTENER_PORTS_FROM}-${LISTENER_PORTS_BELOW - 1} after ${PORT_TRIES} tries`);
}

export function runCli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
}

/**
 * Books test money onto an account as the operator does (`account credit`), so that a test's
 * payments do not depend on what the demo history left the account on the day the test runs.
 */
export function creditAccount(database: { dataDir: string; databaseUrl: string }, iban: string, amount: string) {
  const result = runCli(["account", "credit", iban, amount],
    { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, LOG_LEVEL: "silent" });
  assert.equal(result.status, 0, result.stderr);
}

/** Fresh ports for the three listeners, as settings. */
export async function listenerPorts(): Promise<{ API_PORT: string; AUTH_PORT: string; ADMIN_PORT: string }> {
  const [api, auth, admin] = [await freePort(), await freePort(), await freePort()];
  return { API_PORT: String(api), AUTH_PORT: String(auth), ADMIN_PORT: String(admin) };
}

export interface RunningCli {
  pid: number | undefined;
  output(): string;
  /** Sends SIGTERM and answers the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a long-running command and resolves once its output contains `readyText`. `nodeArgs` go
 * to node itself (e.g. --cpu-prof, which NODE_OPTIONS does not take).
 */
export async function startCli(args: string[], env: Record<string, string>, readyText: string,
  nodeArgs: string[] = []): Promise<RunningCli> {
  const child = spawn(process.execPath, [...nodeArgs, MAIN, ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  let out = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(readyText)) resolve();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  return {
    pid: child.pid,
    output: () => out,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

export type CliResult = ReturnType<typeof runCli>;

/** The operator's CLI on a running test bank's database, as a second process beside it. */
export function runOperator(dataDir: string, args: string[], databaseUrl = ""): CliResult {
  return runCli(args, { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
}

/** The JSON a successful command printed. */
export function jsonOf(result: CliResult) {
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** A command refused as an operator's mistake: exit 2 and a message naming the problem. */
export function assertRefused(result: CliResult, message: RegExp): void {
  assert.equal(result.status, 2, result.stdout + result.stderr);
  assert.match(result.stderr, message);
}
