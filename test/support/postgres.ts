/**
 * Real PostgreSQL for tests: a fresh database per test bank, dropped afterwards. The server is
 * PG_TEST_URL (default: the machine's own at 127.0.0.1:5432, user postgres); where none answers,
 * the PostgreSQL runs are skipped with a message that says so.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export type Engine = "sqlite" | "postgres";
export const ENGINES: readonly Engine[] = ["sqlite", "postgres"];

const SERVER = process.env.PG_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let reachable: Promise<string | false> | undefined;

/** A skip message when no PostgreSQL server answers, false when tests can use one. */
export function postgresSkip(): Promise<string | false> {
  reachable ??= admin(async () => false as const).catch((error: Error) =>
    `no PostgreSQL server at ${SERVER.replace(/:[^:@/]+@/, ":***@")} (${error.message}); set PG_TEST_URL or start one`);
  return reachable;
}

/** Creates an empty database; answers its URL and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `psd2_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
