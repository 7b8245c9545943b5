/**
 * Opens the database (embedded SQLite under DATA_DIR, or PostgreSQL from DATABASE_URL), migrates
 * it, and hands out the Store: transactions plus one repository per aggregate. Nothing above
 * store/ writes SQL.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import { migrationProvider } from "./migrations/index.js";
import type { Database } from "./schema.js";
import { withCachedReads, type ReadCache } from "./cached-reads.js";
import { createCoalescedReads, deepFreeze } from "./coalesced-reads.js";
import { createRepositories, type Repositories } from "./repositories.js";
import { claimedIn, claimedOnPostgres, type ClaimedTransaction } from "./claimed.js";
import { checkpointInBackground } from "./checkpoints.js";
import { diskWaits, type DiskWaits } from "./disk-waits.js";

import type { Engine, Tx } from "./handle.js";

export type { Engine, Tx };

export interface Store extends Repositories {
  engine: Engine;
  db: Kysely<Database>;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * A transaction ending in a claim, an insert that does nothing when its key is taken: the
   * work's writes are kept only with the claim's row (claimed.ts). On PostgreSQL a work of plain
   * inserts is sent with its claim as one statement.
   */
  claimedTransaction: ClaimedTransaction;
  /**
   * Runs a bulk load (a generated data set) tuned for throughput rather than for crash safety
   * while it runs; what it committed is on disk once it returns.
   */
  bulkLoad<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A write whose last moments may be lost in a power cut, because nothing was answered on its
   * strength: the audit log, written after the answer; or whose loss only repeats an answer: a
   * delta list's mark (the TPP gets those entries again). It commits without waiting for the disk;
   * the next commit that does wait (any payment or consent change) or checkpoint makes it durable.
   * On PostgreSQL each of its statements commits on its own: the audit's append is one statement,
   * and so is a mark's upsert.
   */
  writeLog(work: (tx: Tx) => Promise<void>): Promise<void>;
  /**
   * `read`'s answer, shared, for the reads every request repeats (the stop-list, consents and
   * their grants, payments: see cached-reads.ts; the ledger's account rows and balances). On
   * SQLite it is kept until any connection (this one, another instance, the operator's CLI)
   * commits; on PostgreSQL the same reads asked for in one turn of the event loop run once. A
   * change therefore applies from the next request, as when each request reads the database.
   * A read in a transaction (`tx` is not the database) is never shared: it may see the
   * transaction's own changes. The answer is frozen: it is shared by several requests. On
   * SQLite another process's commit is looked for once per `arrived`, not at every read. On
   * PostgreSQL the reads of one kind asked for in one turn for distinct keys (a `batch`) are
   * one statement.
   */
  cached: ReadCache;
  /** A request arrived or a job starts: later shared reads count every commit before it. */
  arrived(): void;
  /** True when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl: string;
  onMigration?: (applied: string) => void;
  databasePoolMax?: number;
  databaseStatementTimeoutMs?: number;
  /** REQUEST_TIMEOUT_SECONDS: how long a request may wait for a pooled connection at most. */
  requestTimeoutSeconds?: number;
  /** Default full: an answered commit survives power loss, not only a process crash. */
  sqliteSynchronous?: "full" | "normal";
  /** SQLite: checkpoints on a thread of their own (checkpoints.ts), for a long-running server. */
  backgroundCheckpoints?: boolean;
}

export function sqliteFile(dataDir: string): string {
  return join(dataDir, "psd2-bank.sqlite");
}

function openSqlite(
  dataDir: string, synchronous: "full" | "normal",
): { db: Kysely<Database>; file: Sqlite.Database } {
  // Owner only, as the development CA makes it: the database holds the PSUs' data.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = new Sqlite(sqliteFile(dataDir));
  // WAL with synchronous=FULL fsyncs the WAL at each commit, so an answered payment survives power
  // loss; group commit (below) pays that once per batch, off the event loop (disk-waits.ts).
  // NORMAL survives a process crash only.
  file.pragma("journal_mode = WAL");
  file.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  file.pragma("foreign_keys = ON");
  file.pragma("busy_timeout = 5000");
  cachePreparedStatements(file);
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), file };
}

/**
 * The SQLite read caches of this process, each told when another connection of the process
 * commits (two stores on one file: the operator's CLI in tests, two instances in one process).
 */
const sqliteCaches = new Set<{ file: Sqlite.Database; othersCommitted(): void }>();

/**
 * The statements run on each connection that may change rows (SQLite's `readonly` is false:
 * inserts, updates, deletes, BEGIN IMMEDIATE; not BEGIN, SAVEPOINT, RELEASE or COMMIT): the read
 * cache's count of the connection's own changes. Counted here, as they run, where asking SQLite's
 * `total_changes()` at every cached read cost a statement each (2-5 a request, 0.5-2.6 µs each).
 * A statement that changes nothing still counts: the cache is emptied once too often, never
 * kept too long.
 */
const ownWrites = new WeakMap<Sqlite.Database, { count: number }>();

function ownWritesOn(file: Sqlite.Database): { count: number } {
  let writes = ownWrites.get(file);
  if (!writes) ownWrites.set(file, writes = { count: 0 });
  return writes;
}

/**
 * Tells this process's other SQLite read caches about a write on `file` once it is committed:
 * after any statement that may write, when no transaction is left open. COMMIT and RELEASE count
 * as read-only to SQLite, so every statement but a plain SELECT is watched. Counts the statements
 * that may change rows (`ownWritesOn`), even one that fails: it may have changed some first.
 */
function watchCommits(file: Sqlite.Database, statement: Sqlite.Statement): void {
  if (statement.reader && statement.readonly) return;
  const writes = statement.readonly ? undefined : ownWritesOn(file);
  const tell = () => {
    if (file.inTransaction) return;
    for (const cache of sqliteCaches) if (cache.file !== file) cache.othersCommitted();
  };
  for (const method of ["run", "all"] as const) {
    const call = statement[method].bind(statement) as (...args: unknown[]) => unknown;
    (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      try {
        return call(...args);
      } finally {
        if (writes) writes.count += 1;
        tell();
      }
    };
  }
}

/** Told of each commit, the connection still held: held on until a promise it returns settles. */
type Committed = () => Promise<void> | undefined;

/**
 * A cached answer holds until the database changes: the count of this connection's write
 * statements (`ownWritesOn`) moves when it writes (committed or not), data_version when another
 * connection commits. Asking for data_version starts a read transaction (the WAL's shared-memory
 * locks: 3-13 µs under load), so it is asked at the first cached read after requests arrive (the
 * API announces the requests of one poll once) or a job starts (`arrived`), or after another
 * connection of this process committed: every commit made before a request still counts for it,
 * as when each request reads the database.
 * Reads inside a transaction are never cached: they may see its own changes. The log's own rows
 * are left out of the count (`logWrite`): no cached read is of the log, and with a log write after
 * every burst of answers, counting them emptied the cache each time.
 */
function createSqliteReadCache(
  db: Kysely<Database>, file: Sqlite.Database, disk: DiskWaits,
  committed: Committed, limit = 10_000,
): {
  cached: ReadCache; arrived: () => void; close: () => void;
  logWrite: (work: (tx: Tx) => Promise<void>) => Promise<void>;
} {
  const ownChanges = ownWritesOn(file);
  const othersCommits = file.prepare("PRAGMA data_version").pluck();
  let logChanges = 0;
  /** Log writes under way: their changes are counted only once each has ended. */
  let logging = 0;
  let own = -1;
  let others = -1;
  let othersKnown = false;
  const watcher = { file, othersCommitted: () => (othersKnown = false) };
  sqliteCaches.add(watcher);
  /** True when the database changed since the last call. */
  const changed = () => {
    let moved = false;
    // A log write holds the connection: no other write of this one can fall within it.
    if (logging === 0) {
      const ownNow = ownChanges.count - logChanges;
      moved = ownNow !== own;
      own = ownNow;
    }
    if (!othersKnown) {
      othersKnown = true;
      const othersNow = othersCommits.get() as number;
      moved ||= othersNow !== others;
      others = othersNow;
    }
    return moved;
  };
  // Holding the connection, so that no other work's changes fall between the two counts. Another
  // request's cached read may run between the log's statement and its end (the work's awaits):
  // it must not take the log's change for another (a delta list's mark emptied the cache so).
  const logWrite = (work: (tx: Tx) => Promise<void>) =>
    db.connection().execute(async (connection) => {
      const before = ownChanges.count;
      logging += 1;
      try {
        await disk.unsynced(() => work(connection));
      } finally {
        logChanges += ownChanges.count - before;
        logging -= 1;
        await committed();
      }
    });
  return {
    cached: sqliteCache(db, file, changed, limit), logWrite,
    arrived: watcher.othersCommitted, close: () => sqliteCaches.delete(watcher),
  };
}

function sqliteCache(
  db: Kysely<Database>, file: Sqlite.Database, changed: () => boolean, limit: number,
): ReadCache {
  let state = 0;
  let entries = new Map<string, { state: number; value: Promise<unknown> }>();
  return <T>(tx: Tx, key: string, read: () => Promise<T>): Promise<T> => {
    if (tx !== db || file.inTransaction) return read();
    if (changed()) {
      state += 1;
      entries = new Map();
    }
    const now = state;
    const hit = entries.get(key);
    if (hit?.state === now) return hit.value as Promise<T>;
    // Shared while under way too: the requests that arrive while a group commit waits for the
    // disk (holding the connection) all ask for the same stop-list entry and debtor account,
    // and each asked SQLite again once the connection was free. Tagged with the state before the
    // read: a change during it makes the entry stale at once. A failed read is not kept.
    const value = (async () => deepFreeze(await read()))();
    if (entries.size >= limit) entries = new Map();
    entries.set(key, { state: now, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  };
}

const PRAGMA = /^\s*pragma\b/i;

/**
 * Kysely prepares every query anew; preparing costs as much as running a small query. The same
 * SQL text gets the same statement (Kysely runs them one at a time, never interleaved). The cache
 * is bounded: queries whose text varies with their input (IN lists) cannot grow it without limit.
 * A PRAGMA is prepared anew each time: SQLite applies or reads some (synchronous among them) while
 * preparing, so a prepared one run again may change or answer nothing (counted with strace: a
 * prepared `PRAGMA synchronous = 1` run again left some commits fsynced).
 */
function cachePreparedStatements(file: Sqlite.Database, limit = 1000): void {
  const prepare = file.prepare.bind(file);
  const statements = new Map<string, Sqlite.Statement>();
  file.prepare = ((source: string) => {
    if (PRAGMA.test(source)) return prepare(source);
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= limit) statements.clear();
      statement = prepare(source);
      watchCommits(file, statement);
      statements.set(source, statement);
    }
    return statement;
  }) as typeof file.prepare;
}

/**
 * pg is loaded only when asked for: the embedded default starts without it. `unsynced` connections
 * commit without waiting for the disk (the log's own pool: a log write is then one statement,
 * where a transaction around SET LOCAL took four round trips).
 */
async function openPostgres(
  options: StoreOptions, { max, unsynced }: { max: number; unsynced: boolean },
): Promise<{ db: Kysely<Database>; dialect: PostgresDialect }> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: options.databaseUrl, max,
    options: unsynced ? "-c synchronous_commit=off" : undefined,
    statement_timeout: options.databaseStatementTimeoutMs ?? 10_000,
    // Without it a request waits forever for a connection while the server is unreachable. It is
    // the request's own limit, not less: a burst of confirmations on one account (whose bookings
    // wait for each other on the account's row) holds every connection for a while, and a
    // request queued behind them is better answered late than refused early.
    connectionTimeoutMillis: (options.requestTimeoutSeconds ?? 5) * 1000, idleTimeoutMillis: 30_000,
  });
  // An idle connection dropped by the server (restart, failover) is discarded by the pool and
  // replaced on the next checkout; unhandled, its error event would end the process.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => {
    // A connection the server ends during a query (restart, failover, an operator's
    // pg_terminate_backend) fails that query, and emits the same error on the client, which the
    // pool listens to only while the client is idle: unheard, it would end the process. The
    // pool drops the client when it comes back.
    client.on("error", () => undefined);
    prepareStatements(client);
  });
  const dialect = new PostgresDialect({ pool });
  return { db: new Kysely<Database>({ dialect }), dialect };
}

/** Statement texts a connection prepares at most: texts that vary (IN lists) then stay unnamed. */
const PREPARED_MAX = 200;

/** Raised when a table a prepared statement reads changed shape (another instance migrated). */
const PLAN_CHANGED = "0A000";

type QueryFunction = (text: unknown, values?: unknown) => Promise<unknown>;

/**
 * Kysely sends each statement unnamed, and PostgreSQL parses and plans it again each time; a
 * named statement is parsed once per connection. Measured on 2026-11-26 (insert and select by
 * key): 85 against 135-160 µs of PostgreSQL's CPU per statement, and 68-86 against 92-127 µs of
 * ours. Only statements with parameters are named: those without (BEGIN, migrations of several
 * statements) need the simple protocol. A text whose plan a schema change invalidated is sent
 * unnamed from then on.
 */
function prepareStatements(client: { query: unknown }): void {
  const query = (client.query as QueryFunction).bind(client);
  const names = new Map<string, string | null>();
  client.query = (async (text: unknown, values?: unknown) => {
    if (typeof text !== "string" || !Array.isArray(values) || values.length === 0) {
      return query(text, values);
    }
    if (!names.has(text) && names.size < PREPARED_MAX) names.set(text, `s${names.size}`);
    const name = names.get(text);
    if (!name) return query(text, values);
    try {
      return await query({ name, text, values });
    } catch (error) {
      if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
      names.set(text, null);
      return query(text, values);
    }
  }) as QueryFunction;
}

/**
 * Applies pending migrations, telling `progress` each one it applied. A fresh database's
 * migrations only create tables: they run in one transaction, one commit (and on PostgreSQL one
 * lock) for all, which took their CPU from 105-171 to 58-69 ms on SQLite and from 147-271 to
 * 37-60 ms on PostgreSQL, whose wall time fell from 2.8-4.9 to 0.8-1.8 s (load 14-16). On a
 * database with data one may rewrite a large table, so they run one at a time there, each named
 * as it is applied.
 */
export async function migrate(
  db: Kysely<Database>, progress: (applied: string) => void = () => {},
): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const fresh = (await migrator.getMigrations()).every((m) => m.executedAt === undefined);
  for (;;) {
    const { error, results = [] } = await (fresh
      ? migrator.migrateToLatest() : migrator.migrateUp());
    if (error) throw error;
    for (const result of results) progress(result.migrationName);
    if (fresh || results.length === 0) return;
  }
}

/**
 * SQLite's plain BEGIN reads first and upgrades to a write lock later, which fails at once (no
 * busy wait) when another connection wrote in between; BEGIN IMMEDIATE takes the write lock up
 * front, so two instances on one file queue instead of failing.
 *
 * Group commit: a commit writes every page it changed to the WAL, and the transactions of
 * concurrent requests change mostly the same pages (a table's last leaf, its indexes), so one
 * commit of many costs about as much as a single one. The works asked for in one turn of the
 * event loop, or while a transaction runs, go into one transaction together, each inside a
 * savepoint: a work that throws rolls back its own changes only. Each caller is answered after
 * the commit is on disk, so nothing answered is lost; the wait for the disk leaves the event loop
 * free (disk-waits.ts).
 */
function createSqliteTransactions(
  db: Kysely<Database>, file: Sqlite.Database, disk: DiskWaits, committed: Committed,
) {
  // Run on the file itself, prepared once, while the batch holds Kysely's connection (the same
  // one): through Kysely's executor a savepoint and its release cost 12-16 µs of CPU a work,
  // straight 0.7 µs (measured on 2026-11-27, load 9).
  const [begin, savepoint, rollbackTo, release, commit, rollback] = ["BEGIN IMMEDIATE",
    "SAVEPOINT work", "ROLLBACK TO work", "RELEASE work", "COMMIT", "ROLLBACK"]
    .map((text) => file.prepare(text)) as Sqlite.Statement[] as
    [Sqlite.Statement, Sqlite.Statement, Sqlite.Statement, Sqlite.Statement, Sqlite.Statement,
      Sqlite.Statement];
  interface Outcome { ok: boolean; value: unknown }
  interface Queued { work: (tx: Tx) => Promise<unknown>; settle: (outcome: Outcome) => void }
  let queue: Queued[] = [];
  let running = false;

  async function runBatch(batch: Queued[], connection: Tx): Promise<void> {
    const outcomes: Outcome[] = [];
    await disk.unsynced(async () => {
      begin.run();
      try {
        for (const { work } of batch) {
          savepoint.run();
          try {
            outcomes.push({ ok: true, value: await work(connection) });
          } catch (error) {
            // Fails when SQLite has already rolled back the whole transaction (disk full, I/O
            // error): then the works before this one are undone too, and the batch fails.
            rollbackTo.run();
            outcomes.push({ ok: false, value: error });
          }
          release.run();
        }
        commit.run();
      } catch (error) {
        // SQLite may have rolled the transaction back already (disk full, I/O error).
        if (file.inTransaction) rollback.run();
        throw error;
      }
    });
    // Committed but maybe not on disk yet: a failed flush fails the batch's callers (an answer
    // of unknown outcome, as a failed COMMIT would be), and the connection stays held until then.
    await disk.flush();
    batch.forEach((queued, i) => queued.settle(outcomes[i]!));
    await committed();
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, GROUP_COMMIT_MAX);
      queue = queue.slice(batch.length);
      const failed = (error: unknown) => {
        for (const queued of batch) queued.settle({ ok: false, value: error });
      };
      await db.connection().execute((connection) => runBatch(batch, connection)).catch(failed);
    }
    running = false;
  }

  return <T>(work: (tx: Tx) => Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => {
    queue.push({ work, settle: ({ ok, value }) => (ok ? resolve(value as T) : reject(value)) });
    if (running) return;
    running = true;
    // better-sqlite3 answers synchronously: a transaction runs to its end in microtasks, before
    // any other request is read. Starting after this turn of the event loop lets the requests
    // read in it (one poll of all connections) queue their works first.
    setImmediate(() => void drain());
  });
}

/**
 * A page cache that holds a whole batch, so that its pages are written once at commit rather than
 * spilled and rewritten, and no fsync per commit and checkpoint: the process writes on while the
 * kernel writes back. An OS crash (not a process crash) during the load may corrupt the file,
 * which is why this is for scale-test data only. The fsyncs at the end make it all durable.
 */
async function sqliteBulkLoad<T>(
  db: Kysely<Database>, dataDir: string, disk: DiskWaits, work: () => Promise<T>,
): Promise<T> {
  const { rows } = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db);
  await sql`PRAGMA cache_size = -262144`.execute(db);
  try {
    return await disk.withoutDisk(work);
  } finally {
    await sql.raw(`PRAGMA cache_size = ${rows[0]?.cache_size}`).execute(db);
    for (const path of [sqliteFile(dataDir), `${sqliteFile(dataDir)}-wal`]) {
      if (!existsSync(path)) continue;
      const fd = openSync(path, "r");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
}

/** Works in one group commit at most: bounds how long the last of them waits for its answer. */
const GROUP_COMMIT_MAX = 64;

async function ping(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = sql`SELECT 1`.execute(db).then(() => true, () => false);
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const engine: Engine = options.databaseUrl ? "postgres" : "sqlite";
  const synchronous = options.sqliteSynchronous ?? "full";
  const sqlite = engine === "sqlite" ? openSqlite(options.dataDir, synchronous) : undefined;
  const opened = sqlite
    ?? await openPostgres(options, { max: options.databasePoolMax ?? 10, unsynced: false });
  const db = opened.db;
  await migrate(db, options.onMigration);
  // Each work of a group commit runs in a savepoint, which keeps the pages it changes first in a
  // sub-journal: past 64 KiB a temporary file, one pwrite per page (16,000 in 3 s of creations,
  // about 10 % of a creation's CPU; the bench's peak RSS did not move). Only after the
  // migrations: a new index on a long table sorts beyond the page cache, into files, not memory.
  sqlite?.file.pragma("temp_store = MEMORY");
  const logDb = sqlite ? db : (await openPostgres(options, { max: 2, unsynced: true })).db;
  const checkpoints = sqlite && options.backgroundCheckpoints
    ? checkpointInBackground(sqlite.file, sqliteFile(options.dataDir)) : undefined;
  const committed = () => checkpoints?.committed();
  const disk = sqlite
    && diskWaits(sqlite.file, `${sqliteFile(options.dataDir)}-wal`);
  const sqliteTransaction = sqlite && disk
    ? createSqliteTransactions(db, sqlite.file, disk, committed) : undefined;
  const transaction = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => {
    checkpoints?.poll();
    return sqliteTransaction ? sqliteTransaction(work) : db.transaction().execute(work);
  };
  const sqliteReads = sqlite && disk && createSqliteReadCache(db, sqlite.file, disk, committed);
  const cached = sqliteReads ? sqliteReads.cached : createCoalescedReads(db);
  const writeLog = sqliteReads?.logWrite ?? ((work: (tx: Tx) => Promise<void>) => work(logDb));
  // PostgreSQL's reads are shared within one turn only: nothing to do when a request arrives.
  const arrived = sqliteReads ? () => {
    checkpoints?.poll();
    sqliteReads.arrived();
  } : () => undefined;
  return {
    engine,
    db,
    ...withCachedReads(createRepositories(engine), cached, sqliteReads ? undefined : cached),
    transaction,
    claimedTransaction: "dialect" in opened
      ? claimedOnPostgres(db, opened.dialect) : claimedIn(transaction),
    writeLog,
    cached,
    arrived,
    bulkLoad: (work) => disk ? sqliteBulkLoad(db, options.dataDir, disk, work) : work(),
    ping: (timeoutMs) => ping(db, timeoutMs),
    close: async () => {
      sqliteReads?.close();
      await checkpoints?.close();
      await disk?.close();
      if (logDb !== db) await logDb.destroy();
      await db.destroy();
    },
  };
}
