/**
 * `node dist/test/bench/sqlite-drivers.js`: better-sqlite3 against Node's own node:sqlite, on the
 * store's pattern: statements prepared once, ops grouped in transactions (BEGIN IMMEDIATE ...
 * COMMIT, as the store's group commit does), one op being an insert of a payment-sized row and a
 * select of it by key. Measured on the driver alone and through Kysely (the store's path, with
 * the store's cache of prepared statements; node:sqlite through a small adapter), each on a fresh
 * WAL file with synchronous=NORMAL so that the disk's fsync does not drown the drivers'
 * differences. The drivers take turns, round after round, so that other load on the machine
 * falls on both; the medians are printed as a markdown table (ops/s, CPU µs per op).
 * Settings: SQLITE_BENCH_OPS (per round and driver, default 20000), SQLITE_BENCH_ROUNDS (5).
 */
import Sqlite from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Kysely, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from "kysely";

const OPS = Number(process.env.SQLITE_BENCH_OPS ?? 20_000);
const ROUNDS = Number(process.env.SQLITE_BENCH_ROUNDS ?? 5);
const BATCH = 50;
const BODY = JSON.stringify({ creditorName: "Alice Schmidt", remittance: "Order 42".repeat(20) });
const SCHEMA = "CREATE TABLE payments (id TEXT PRIMARY KEY, amount_minor INTEGER NOT NULL, "
  + "body TEXT NOT NULL)";

/** A driver opened on a file: one transaction of inserts and selects by key, then close. */
interface Opened {
  transaction(ids: string[]): void | Promise<void>;
  close(): void | Promise<void>;
}

interface Raw {
  exec(text: string): void;
  prepare(text: string): { run(...values: (string | number)[]): unknown; get(id: string): unknown };
  close(): void;
}

/** The driver's own API: BEGIN IMMEDIATE, the two prepared statements, COMMIT. */
function direct(db: Raw): Opened {
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; " + SCHEMA);
  const insert = db.prepare("INSERT INTO payments (id, amount_minor, body) VALUES (?, ?, ?)");
  const select = db.prepare("SELECT id, amount_minor, body FROM payments WHERE id = ?");
  return {
    transaction(ids) {
      db.exec("BEGIN IMMEDIATE");
      for (const [i, id] of ids.entries()) {
        insert.run(id, i, BODY);
        select.get(id);
      }
      db.exec("COMMIT");
    },
    close: () => db.close(),
  };
}

/** node:sqlite as the better-sqlite3 subset Kysely's SqliteDialect drives. */
function kyselyNodeSqlite(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(text: string): SqliteStatement {
      const statement = db.prepare(text);
      type Values = Parameters<typeof statement.all>;
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...(parameters as Values)),
        run: (parameters) => statement.run(...(parameters as Values)),
        iterate: (parameters) => statement.iterate(...(parameters as Values)),
      };
    },
  };
}

/** The store's cache (src/store/db.ts): Kysely prepares every query anew. */
function cachingPrepares(db: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) statements.set(text, statement = db.prepare(text));
      return statement;
    },
  };
}

interface Payments { payments: { id: string; amount_minor: number; body: string } }

/** The store's path: a Kysely transaction awaiting each query. */
async function viaKysely(database: SqliteDatabase): Promise<Opened> {
  const dialect = new SqliteDialect({ database: cachingPrepares(database) });
  const db = new Kysely<Payments>({ dialect });
  await sql`PRAGMA journal_mode = WAL`.execute(db);
  await sql`PRAGMA synchronous = NORMAL`.execute(db);
  await sql.raw(SCHEMA).execute(db);
  return {
    transaction: (ids) => db.transaction().execute(async (tx) => {
      for (const [i, id] of ids.entries()) {
        await tx.insertInto("payments").values({ id, amount_minor: i, body: BODY }).execute();
        await tx.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst();
      }
    }),
    close: () => db.destroy(),
  };
}

const DRIVERS: Record<string, (file: string) => Opened | Promise<Opened>> = {
  "better-sqlite3": (file) => direct(new Sqlite(file) as unknown as Raw),
  "node:sqlite": (file) => direct(new DatabaseSync(file) as unknown as Raw),
  "better-sqlite3 via Kysely": (file) => viaKysely(new Sqlite(file)),
  "node:sqlite via Kysely": (file) => viaKysely(kyselyNodeSqlite(new DatabaseSync(file))),
};

interface Sample { opsPerSecond: number; cpuMicrosPerOp: number }

/** One round of one driver on a fresh file: OPS inserts and selects, BATCH per transaction. */
async function round(open: (file: string) => Opened | Promise<Opened>, round: number) {
  const dir = mkdtempSync(join(tmpdir(), "psd2-bank-sqlite-bench-"));
  try {
    const driver = await open(join(dir, "bench.sqlite"));
    const batches = Array.from({ length: OPS / BATCH }, (_, b) =>
      Array.from({ length: BATCH }, (_, i) => `${round}-${b * BATCH + i}`));
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (const ids of batches) await driver.transaction(ids);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    await driver.close();
    return { opsPerSecond: OPS / seconds, cpuMicrosPerOp: (used.user + used.system) / OPS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const samples = new Map<string, Sample[]>(Object.keys(DRIVERS).map((name) => [name, []]));
  await round(DRIVERS["better-sqlite3"]!, -1); // warm-up: the first file and JIT are no driver's cost
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, open] of Object.entries(DRIVERS)) samples.get(name)!.push(await round(open, r));
  }
  const lines = [`Node ${process.version}, ${OPS} ops per round (insert + select by key, `
    + `${BATCH} per transaction), median of ${ROUNDS} rounds`, "",
  "| driver | ops/s | CPU µs per op |", "|---|---:|---:|"];
  for (const [name, list] of samples) {
    const ops = median(list.map((s) => s.opsPerSecond));
    const cpu = median(list.map((s) => s.cpuMicrosPerOp));
    lines.push(`| ${name} | ${Math.round(ops).toLocaleString("en")} | ${cpu.toFixed(1)} |`);
  }
  process.stdout.write(lines.join("\n") + "\n");
}

await main();
