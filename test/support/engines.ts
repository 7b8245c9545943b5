/**
 * Runs suites on both storage engines: the embedded SQLite file and PostgreSQL, each bank or store
 * on a fresh PostgreSQL database of its own (unique name, dropped afterwards). The PostgreSQL runs
 * are skipped, with the reason in the report, only when no server answers at TEST_POSTGRES_URL.
 *
 * Two ways: onEachEngine declares a suite twice; rerunOnPostgres runs a whole existing test file
 * again (a `<name>.postgres.test.ts` next to it), so the file itself stays engine-agnostic and
 * every test added to it later runs on both engines too.
 */
import { createHash, randomBytes } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "node:test";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openStore, sqliteFile, type Engine, type Store } from "../../src/store/db.js";
import { memoryTablespace } from "./postgres-tablespace.js";

export type { Engine };
export const ENGINES: readonly Engine[] = ["sqlite", "postgres"];

/** The server's maintenance database; test databases are created next to it. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL
  || "postgres://postgres@127.0.0.1:5432/postgres";

async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return `no PostgreSQL reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}); `
      + "set TEST_POSTGRES_URL or start one (.ci/run does)";
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why the PostgreSQL runs are skipped, or undefined when a server answers. */
export const postgresUnavailable = await probePostgres();

async function admin<T>(
  work: (client: pg.Client) => Promise<T>, adminUrl = POSTGRES_ADMIN_URL,
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database with a name no other test (or helper's run) uses, on `adminUrl`'s server: empty, or
 * a copy of `template`; in `tablespace`, or the server's default.
 */
export async function freshPostgresDatabase(
  adminUrl = POSTGRES_ADMIN_URL, template?: string, tablespace?: string,
): Promise<TestDatabase> {
  const name = `psd2_test_${randomBytes(6).toString("hex")}`;
  const from = (template ? ` TEMPLATE ${template}` : "")
    + (tablespace ? ` TABLESPACE ${tablespace}` : "");
  await admin((client) => client.query(`CREATE DATABASE ${name}${from}`), adminUrl);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE ends the connections a failed test may have left open.
    drop: () => admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }, adminUrl),
  };
}

/** Settings for one engine: a temporary data directory, plus DATABASE_URL on PostgreSQL. */
export interface EngineDatabase {
  dataDir: string;
  databaseUrl: string;
  remove(): Promise<void>;
}

/** An empty database of `engine`: what tests of a start on an empty database use. */
export function freshDatabase(engine: Engine): Promise<EngineDatabase> {
  return databaseFor(engine, false);
}

/**
 * A fresh database of `engine` that holds every migration already: a copy of a template migrated
 * once per set of migrations and shared by the suite's processes, since migrating a database
 * costs a test bank more than the rest of its start. What tests a start on an empty database
 * (the CLI, spawned banks, the bench) uses freshDatabase.
 */
export function freshMigratedDatabase(engine: Engine): Promise<EngineDatabase> {
  return databaseFor(engine, true);
}

let tablespace: Promise<string | undefined> | undefined;
const testTablespace = () => tablespace ??= memoryTablespace(admin);

async function databaseFor(engine: Engine, migrated: boolean): Promise<EngineDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), `psd2-bank-${engine}-`));
  const database = engine !== "postgres" ? undefined
    : await freshPostgresDatabase(POSTGRES_ADMIN_URL,
      migrated ? await (postgresTemplate ??= buildPostgresTemplate()) : undefined,
      await testTablespace());
  if (engine === "sqlite" && migrated) await copySqliteTemplate(dataDir);
  return {
    dataDir,
    databaseUrl: database?.url ?? "",
    async remove() {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const MIGRATIONS_DIR = fileURLToPath(new URL("../../src/store/migrations/", import.meta.url));

/** Names the templates: a changed, added or removed migration makes new ones. */
async function migrationsHash(): Promise<string> {
  const hash = createHash("sha256");
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(name).update(await readFile(join(MIGRATIONS_DIR, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

let sqliteTemplate: Promise<string> | undefined;
let postgresTemplate: Promise<string> | undefined;

/** The directory of the migrated SQLite template, built by the first process that needs it. */
async function buildSqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `psd2-bank-template-${await migrationsHash()}`);
  if ((await readdir(dir).catch(() => [])).length > 0) return dir;
  const building = await mkdtemp(join(tmpdir(), "psd2-bank-template-building-"));
  await (await openStore({ dataDir: building, databaseUrl: "" })).close();
  // The rename publishes it whole; a process that lost the race uses the winner's.
  await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  return dir;
}

async function copySqliteTemplate(dataDir: string): Promise<void> {
  const template = await (sqliteTemplate ??= buildSqliteTemplate());
  const file = sqliteFile(template);
  for (const name of await readdir(template)) {
    if (join(template, name).startsWith(file)) await copyFile(join(template, name), join(dataDir, name));
  }
}

/**
 * The migrated PostgreSQL template, built under an advisory lock so that one process builds it
 * while the others wait; its comment marks a build that finished (a killed run leaves none).
 */
async function buildPostgresTemplate(): Promise<string> {
  const name = `psd2_template_${await migrationsHash()}`;
  await admin(async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext('psd2_template'))");
    try {
      const { rows } = await client.query<{ done: string | null }>(
        "SELECT shobj_description(oid, 'pg_database') AS done FROM pg_database WHERE datname = $1",
        [name]);
      if (rows[0]?.done === "migrated") return;
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
      const url = new URL(POSTGRES_ADMIN_URL);
      url.pathname = `/${name}`;
      await (await openStore({ dataDir: "", databaseUrl: url.toString() })).close();
      await client.query(`COMMENT ON DATABASE ${name} IS 'migrated'`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('psd2_template'))");
    }
  });
  return name;
}

/** A migrated, empty Store on a fresh database of `engine`. */
export async function freshStore(
  engine: Engine = testEngine(),
): Promise<{ store: Store; close(): Promise<void> }> {
  const database = await freshMigratedDatabase(engine);
  const store = await openStore(database);
  return {
    store,
    async close() {
      await store.close();
      await database.remove();
    },
  };
}

/** Two Stores on one fresh database: an instance and another one (or the operator's CLI) beside it. */
export async function twoInstances(
  engine: Engine,
): Promise<{ store: Store; other: Store; close(): Promise<void> }> {
  const database = await freshDatabase(engine);
  const store = await openStore(database);
  const other = await openStore(database);
  return {
    store,
    other,
    async close() {
      await store.close();
      await other.close();
      await database.remove();
    },
  };
}

let currentEngine: Engine = "sqlite";

/** The engine startBank and freshStore use when the test names none. */
export const testEngine = (): Engine => currentEngine;

/** Runs the test file that `load` imports once more, on PostgreSQL, inside one suite. */
export function rerunOnPostgres(title: string, load: () => Promise<unknown>): void {
  describe(`${title} [postgres]`, { skip: postgresUnavailable ?? false }, async () => {
    currentEngine = "postgres";
    await load();
  });
}

/** Declares `suite` once per engine, as `title [sqlite]` and `title [postgres]`. */
export function onEachEngine(title: string, suite: (engine: Engine) => void): void {
  for (const engine of ENGINES) {
    const skip = engine === "postgres" ? postgresUnavailable ?? false : false;
    describe(`${title} [${engine}]`, { skip }, () => suite(engine));
  }
}

/** Makes a test database refuse (and drop) connections, or accept them again: an outage. */
export async function setPostgresReachable(databaseUrl: string, reachable: boolean): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await admin(async (client) => {
    await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${reachable}`);
    if (!reachable) {
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
    }
  });
}
