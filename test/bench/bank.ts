/**
 * The bank under benchmark: the real CLI process (`psd2-bank start`) on a fresh database (the
 * embedded SQLite, or a new database on the PostgreSQL server of DATABASE_URL), its operator CLI
 * beside it, and PSUs with consents made through the real PSU pages.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserClient } from "../support/browser.js";
import { listenerPorts, runCli, startCli, type RunningCli } from "../support/cli.js";
import { freshPostgresDatabase } from "../support/engines.js";
import { openStore, type Store } from "../../src/store/db.js";
import { confirm, consentBody, createConsent, reachReview } from "../support/flows.js";
import { TppClient } from "../support/tpp-client.js";

export interface Tls { ca: Buffer; cert: Buffer; key: Buffer }

/** One running `psd2-bank start`: its TPP API and its process, for its CPU time. */
export interface BenchInstance {
  url: string;
  pid: number | undefined;
}

export interface BenchBank extends BenchInstance {
  engine: "sqlite" | "postgres";
  /** The fresh PostgreSQL database's URL; empty on the embedded SQLite. */
  databaseUrl: string;
  dataDir: string;
  authUrl: string;
  tls: Tls;
  /** The development CA's directory: ca.crt, server.crt, server.key, tpp.crt, tpp.key. */
  certs: string;
  tpp: TppClient;
  /** Spawn to ready of the first start (certificates, migrations, demo data) and of a restart. */
  readyMs: { firstStart: number; restart: number };
  /** The operator's CLI on the bank's database; answers the parsed --json output. */
  cli(...args: string[]): unknown;
  peakRssMb(): Promise<number>;
  /**
   * Another `psd2-bank start` on the same data directory and database with listeners of its own,
   * as a second instance behind a load balancer (PostgreSQL only); close() stops it too.
   */
  startInstance(): Promise<BenchInstance>;
  close(): Promise<void>;
}

/**
 * The PostgreSQL server's processes, background writers included, but not the connections to
 * other databases than the one of `databaseUrl`: another benchmark on the same server would count
 * as ours.
 */
export function postgresPids(databaseUrl: string): number[] {
  const database = new URL(databaseUrl).pathname.slice(1);
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") return [];
      // A connection's process title: "postgres: [cluster: ]user database host(port) state".
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const connectedTo = / (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title)?.[1];
      return connectedTo === undefined || connectedTo === database ? [Number(entry)] : [];
    } catch {
      return []; // ended while listed
    }
  });
}

const READY = "then open _links.scaRedirect";

/**
 * How `npm start` runs the bank, read from package.json so that the bench measures what a user
 * gets: the environment it sets before `node` (the C library's allocator settings, read once at
 * process start, so they cannot be set from inside) and the Node flags (its memory limits).
 */
export async function startScript(): Promise<{ env: Record<string, string>; nodeFlags: string[] }> {
  const manifest = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8"));
  const start = /((?:\w+=\S+ )*)node ((?:--\S+ )*)dist\/src\/psd2-bank\.js start/.exec(manifest.scripts.start as string);
  if (!start) throw new Error(`no "[NAME=value …] node … dist/src/psd2-bank.js start" in the start script`);
  const words = (text: string) => text.split(" ").filter(Boolean);
  const env = Object.fromEntries(words(start[1]!).map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]));
  return { env, nodeFlags: words(start[2]!) };
}

function pick(from: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (from[name] === undefined ? [] : [[name, from[name]]])));
}

export interface BenchBankOptions {
  /** A directory for the running bank's --cpu-prof profile. */
  profileDir?: string;
  /** Operator commands run between the first start and the restart, e.g. `generate`. */
  prepare?: (cli: (...args: string[]) => unknown) => void;
  /** A PostgreSQL server to run on (a fresh database there); default DATABASE_URL, "" for SQLite. */
  databaseUrl?: string;
}

/** Starts the bank twice (first start, then a restart on its data) and keeps the second running. */
export async function startBenchBank(
  { profileDir, prepare, databaseUrl = process.env.DATABASE_URL ?? "" }: BenchBankOptions = {},
): Promise<BenchBank> {
  const dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-bench-"));
  const database = databaseUrl ? await freshPostgresDatabase(databaseUrl) : undefined;
  const launch = await startScript();
  const env = {
    // The bench's own environment wins, so that a run can compare another allocator setting.
    ...launch.env, ...pick(process.env, Object.keys(launch.env)), DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "", ...await listenerPorts(), LOG_LEVEL: "warn",
    // The whole-payment scenario logs in many times a second from one address.
    LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: "1000000",
  };
  // BENCH_NODE_FLAGS: extra Node flags for the bank (e.g. --trace-gc, a heap variant to compare).
  const flags = [...launch.nodeFlags,
    ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean)];
  const timedStart = async (nodeArgs: string[] = []): Promise<[RunningCli, number]> => {
    const spawned = performance.now();
    const running = await startCli(["start"], env, READY, [...flags, ...nodeArgs]);
    return [running, Math.round(performance.now() - spawned)];
  };
  let tpp: TppClient | undefined;
  const cli = (...args: string[]) => {
    const generating = args[0] === "generate";
    const result = runCli(generating ? args : [...args, "--json"], { ...env, LOG_LEVEL: "silent" });
    // The command held this process: the bank may have closed the kept-alive connections meanwhile,
    // and a POST on one would fail (only a GET is sent again).
    tpp?.close();
    if (result.status !== 0) throw new Error(`${args.join(" ")}: ${result.stderr}`);
    return generating ? result.stdout : JSON.parse(result.stdout);
  };
  const [first, firstStart] = await timedStart();
  await first.stop();
  prepare?.(cli);
  const [server, restart] = await timedStart(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
  const certs = join(dataDir, "certs");
  const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certs, f))));
  const tls = { ca: ca!, cert: cert!, key: key! };
  const url = `https://localhost:${env.API_PORT}`;
  const client = new TppClient(url, tls);
  tpp = client;
  const others: RunningCli[] = [];
  return {
    engine: database ? "postgres" : "sqlite", databaseUrl: env.DATABASE_URL, dataDir, url, pid: server.pid,
    authUrl: `https://localhost:${env.AUTH_PORT}`, tls, certs, tpp: client,
    readyMs: { firstStart, restart },
    cli,
    peakRssMb: async () => {
      const status = await readFile(`/proc/${server.pid}/status`, "utf8");
      return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    },
    async startInstance() {
      if (!database) throw new Error("a second instance needs PostgreSQL (DATABASE_URL)");
      const ports = await listenerPorts();
      const other = await startCli(["start"], { ...env, ...ports }, READY, flags);
      others.push(other);
      return { url: `https://localhost:${ports.API_PORT}`, pid: other.pid };
    },
    async close() {
      client.close();
      await Promise.all(others.map((other) => other.stop()));
      await server.stop();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes `login` (a generated or operator-made PSU) usable on the PSU pages: the password the test
 * flows type and an SMS device whose codes the sandbox outbox shows.
 */
export function preparePsu(bank: BenchBank, login: string, phone: string): void {
  bank.cli("psu", "reset-password", login, "--password", `${login}-demo`);
  bank.cli("psu", "enrol-device", login, "--kind", "sms", "--phone", phone);
}

export function ibansOf(bank: BenchBank, login: string): string[] {
  return (bank.cli("account", "list", "--login", login) as { iban: string }[]).map((a) => a.iban);
}

/** A recurring consent on all of `ibans` (accounts, balances, transactions), authorised by `login`. */
export async function consentFor(bank: BenchBank, login: string, ibans: string[]): Promise<string> {
  const consent = await createConsent(bank.tpp, consentBody());
  const browser = new BrowserClient(bank.authUrl, bank.tls.ca);
  await confirm(browser, await reachReview(browser, consent.scaRedirect, login), ibans);
  return consent.consentId;
}

/** Generates a data set with the operator's `generate` command; answers its first PSU's login. */
export function generate(cli: BenchBank["cli"], psus: number, transactions: number, seed: number): string {
  cli("generate", "--psus", String(psus), "--transactions", String(transactions), "--seed", String(seed));
  return `s${seed}-0000000`;
}

/** The resourceId (account-id in paths) of the first account a consent grants. */
export async function resourceIdOf(bank: BenchBank, consentId: string): Promise<string> {
  const res = await bank.tpp.get("/psd2/v1/accounts", { "consent-id": consentId, "psu-ip-address": "192.0.2.1" });
  const id = res.body?.accounts?.[0]?.resourceId;
  if (typeof id !== "string") throw new Error(`no account in consent ${consentId}: ${res.text}`);
  return id;
}

/** One page of booked transactions over the last 89 days (older ones need a fresh authorisation). */
export function transactionsPath(resourceId: string): string {
  const dateFrom = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  return `/psd2/v1/accounts/${resourceId}/transactions?bookingStatus=booked&dateFrom=${dateFrom}`;
}

/** The bank's store opened beside the running bank, as the operator's CLI does, for seeding. */
export async function withStore<T>(bank: BenchBank, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: bank.dataDir, databaseUrl: bank.databaseUrl });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The first account of each of the `psus` PSUs `generate` made with `seed`: id and IBAN. */
export async function generatedAccounts(bank: BenchBank, seed: number, psus: number):
  Promise<{ psuId: string; accountId: string; iban: string }[]> {
  return withStore(bank, async (store) => {
    const found = [];
    for (let i = 0; i < psus; i++) {
      const psu = await store.psus.findByLogin(store.db, `s${seed}-${String(i).padStart(7, "0")}`);
      const [account] = psu ? await store.ledger.accountsOfPsu(store.db, psu.id) : [];
      if (!psu || !account?.iban) throw new Error(`no generated PSU ${i} of seed ${seed}`);
      found.push({ psuId: psu.id, accountId: account.id, iban: account.iban });
    }
    return found;
  });
}

/**
 * Copies of the authorised consent `template`, one per entry of `accounts`, each of that
 * account's PSU with all three grants on it, written in one transaction through the store: a
 * thousand consents through the PSU pages would take minutes of logins. Answers their ids.
 */
export async function copiesOfConsent(bank: BenchBank, template: string,
  accounts: { psuId: string; accountId: string }[]): Promise<string[]> {
  return withStore(bank, (store) => store.transaction(async (tx) => {
    const consent = await store.consents.find(tx, template);
    if (!consent) throw new Error(`no consent ${template}`);
    const ids = [];
    for (const { psuId, accountId } of accounts) {
      const id = randomUUID();
      await store.consents.insert(tx, { ...consent, id, psuId });
      await store.consents.grantAccounts(tx, id, [{ accountId, balances: true, transactions: true }]);
      ids.push(id);
    }
    return ids;
  }));
}
