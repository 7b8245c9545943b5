/**
 * PostgreSQL: statements with parameters are prepared once per connection (db.ts), and a
 * statement whose table another instance changed still answers; a connection the server ends
 * during a query fails that query, not the process.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { openStore, type Store } from "../../src/store/db.js";
import { freshDatabase, postgresUnavailable, type EngineDatabase } from "../support/engines.js";

describe("prepared statements [postgres]", { skip: postgresUnavailable ?? false }, () => {
  let database: EngineDatabase;
  let store: Store;
  let other: Store;
  before(async () => {
    database = await freshDatabase("postgres");
    // One connection each, so that every statement of a store meets the same session.
    store = await openStore({ ...database, databasePoolMax: 1 });
    other = await openStore({ ...database, databasePoolMax: 1 });
  });
  after(async () => {
    await store.close();
    await other.close();
    await database.remove();
  });

  const prepared = async () => (await sql<{ statement: string }>`
    SELECT statement FROM pg_prepared_statements`.execute(store.db)).rows.map((r) => r.statement);

  test("a statement with parameters is parsed once per connection, one without never", async () => {
    await store.tpps.isBlocked(store.db, "PSDDE-BAFIN-PREP1");
    await store.tpps.isBlocked(store.db, "PSDDE-BAFIN-PREP2");
    const statements = await prepared();
    assert.equal(statements.filter((s) => s.includes('from "tpps"')).length, 1);
    assert.ok(!statements.some((s) => s.includes("pg_prepared_statements")));
  });

  test("a prepared read of a table that another instance altered answers, unprepared", async () => {
    await sql`CREATE TABLE prep_probe (id text PRIMARY KEY)`.execute(store.db);
    await sql`INSERT INTO prep_probe VALUES ('a')`.execute(store.db);
    const read = () => store.db.selectFrom("prep_probe" as never).selectAll().where("id" as never, "=", "a" as never)
      .execute();
    assert.deepEqual(await read(), [{ id: "a" }]);
    await sql`ALTER TABLE prep_probe ADD COLUMN note text`.execute(other.db);
    assert.deepEqual(await read(), [{ id: "a", note: null }]);
    assert.deepEqual(await read(), [{ id: "a", note: null }]);
  });

  test("a connection the server ends during a query fails the query, not the process; then a new one", async () => {
    const pid = async () => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
      .execute(store.db)).rows[0]?.pid;
    const first = await pid();
    const sleeping = sql`SELECT pg_sleep(30)`.execute(store.db);
    const ended = assert.rejects(sleeping, /terminat/);
    // The terminating instance sees the sleep running before it ends the connection.
    for (let seen = 0; seen === 0;) {
      seen = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pid = ${first} AND query LIKE 'SELECT pg_sleep%'`.execute(other.db)).rows[0]?.n ?? 0;
    }
    await sql`SELECT pg_terminate_backend(${first})`.execute(other.db);
    await ended;
    // The pool may hand out the ended connection once more before its end arrives: that query
    // fails as the sleep did, and the pool has dropped it by the next.
    const next = await pid().catch(() => pid());
    assert.ok(next !== undefined && next !== first);
  });
});
