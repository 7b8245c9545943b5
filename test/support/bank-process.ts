/**
 * The bank as an operator runs it, `node dist/src/psd2-bank.js start` in a process of its own (for
 * crashes, restarts and load generated from outside), and the books checked afterwards.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after } from "node:test";
import { bookedBalance } from "../../src/ledger/book.js";
import { openStore } from "../../src/store/db.js";
import { BrowserClient } from "./browser.js";
import { MAIN } from "./cli.js";
import type { EngineDatabase } from "./engines.js";
import { TppClient } from "./tpp-client.js";

export interface BankProcess {
  apiUrl: string;
  authUrl: string;
  tls: { ca: Buffer; cert: Buffer; key: Buffer };
  tpp: TppClient;
  browser: () => BrowserClient;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** The process's peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): Promise<number>;
}

/** Starts the CLI on `database` with ports chosen by the OS; resolves once the banner is out. */
/**
 * The bank processes still running: a test that timed out leaves its own behind, and their
 * pipes would keep this file's process, and so `npm test`, from ever ending.
 */
const running = new Set<ChildProcess>();
after(() => { for (const child of running) child.kill("SIGKILL"); });

export async function startBankProcess(database: EngineDatabase,
  env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<BankProcess> {
  const child = spawn(process.execPath, [...nodeFlags, MAIN, "start"], {
    env: {
      ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl,
      API_PORT: "0", AUTH_PORT: "0", ADMIN_PORT: "0", LOG_LEVEL: "warn", ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/PSU pages\s+\S+/.test(output)) resolve(output);
    });
    child.on("exit", (code) => reject(new Error(`the bank exited with ${code}: ${output}`)));
  });
  const apiUrl = /TPP API\s+(https:\/\/\S+?)\/psd2\/v1/.exec(banner)?.[1];
  const authUrl = /PSU pages\s+(https:\/\/\S+)/.exec(banner)?.[1];
  assert.ok(apiUrl && authUrl, banner);
  const certs = join(database.dataDir, "certs");
  const [ca, cert, key] = await Promise.all(
    ["ca.crt", "tpp.crt", "tpp.key"].map((name) => readFile(join(certs, name))));
  assert.ok(ca && cert && key);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    apiUrl, authUrl, tls: { ca, cert, key },
    stop(signal) {
      child.kill(signal);
      return exited;
    },
    tpp: new TppClient(apiUrl, { ca, cert, key }),
    browser: () => new BrowserClient(authUrl, ca),
    async peakRssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    },
  };
}

/** One transfer per accepted payment, none for any other; each account's counters are its entries. */
export async function assertBooksExact(database: EngineDatabase): Promise<void> {
  const store = await openStore(database);
  try {
    const { db, ledger } = store;
    const transfers = await db.selectFrom("transfers").select(["payment_id"])
      .where("payment_id", "is not", null).execute();
    const accepted = await db.selectFrom("payments").select("id").where("status", "=", "ACSC")
      .execute();
    assert.deepEqual(transfers.map((t) => t.payment_id).sort(), accepted.map((p) => p.id).sort());
    let total = 0n;
    for (const account of await ledger.allAccounts(db)) {
      assert.equal(await ledger.sumOfEntries(db, account.id), bookedBalance(account), account.id);
      total += bookedBalance(account);
    }
    assert.equal(total, 0n, "debits and credits differ");
  } finally {
    await store.close();
  }
}
