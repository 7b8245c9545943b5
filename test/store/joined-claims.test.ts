/**
 * PostgreSQL's claims of one turn joined into few statements (store/joined-claims.ts), on a real
 * server: how a turn's claims are split into statements, that a taken key writes none of its held
 * rows whether it was taken before or in the same statement, and that one claim's fault fails it
 * alone.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { joinClaims, type Claim } from "../../src/store/joined-claims.js";
import {
  freshPostgresDatabase, postgresUnavailable, type TestDatabase,
} from "../support/engines.js";

interface Tables {
  keys: { id: string };
  rows: { id: string; key_id: string };
  notes: { id: string; key_id: string };
}

describe("claims joined per turn [postgres]", { skip: postgresUnavailable ?? false }, () => {
  let database: TestDatabase;
  let db: Kysely<Tables>;
  let statements: number[];
  let send: (claim: Claim) => Promise<boolean>;
  before(async () => {
    database = await freshPostgresDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    // The drop at the end ends the server's side of connections the pool may still be closing.
    pool.on("error", () => undefined);
    pool.on("connect", (client) => client.on("error", () => undefined));
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    await sql`create table keys (id text primary key);
      create table rows (id text primary key, key_id text not null);
      create table notes (id text primary key, key_id text not null)`.execute(db);
    send = joinClaims((statement: CompiledQuery) => {
      statements.push(statement.sql.match(/claim\d+ as/g)?.length ?? 0);
      return db.executeQuery<{ k: number }>(statement);
    });
  });
  after(async () => {
    await db.destroy();
    await database.drop();
  });

  const claimOf = (key: string) => db.insertInto("keys").values({ id: key })
    .onConflict((oc) => oc.column("id").doNothing()).compile();
  const note = (key: string) => db.insertInto("notes").values({ id: `note-${key}`, key_id: key });
  /** A claim of `key` keeping one row (`rowId`), or a row and a note. */
  const claim = (key: string, rowId = `row-${key}`, withNote = false): Claim => ({
    claim: claimOf(key),
    held: [db.insertInto("rows").values({ id: rowId, key_id: key }).compile(),
      ...(withNote ? [note(key).compile()] : [])],
  });
  const rowsOf = async (keys: string[]) => (await db.selectFrom("rows").select("key_id")
    .where("key_id", "in", keys).execute()).map((r) => r.key_id).sort();

  test("a turn's claims go in statements of 16, 8, 4, 2 or 1 of one shape each", async () => {
    statements = [];
    const plain = Array.from({ length: 29 }, (_, i) => `plain-${String(i).padStart(2, "0")}`);
    const noted = ["noted-1", "noted-2"];
    const outcomes = await Promise.all([...plain.map((key) => send(claim(key))),
      ...noted.map((key) => send(claim(key, undefined, true)))]);
    assert.ok(outcomes.every(Boolean));
    assert.deepEqual(statements.sort((a, b) => b - a), [16, 8, 4, 2, 1]);
    assert.deepEqual(await rowsOf([...plain, ...noted]), [...noted, ...plain].sort());
    const notes = await db.selectFrom("notes").select("key_id").execute();
    assert.deepEqual(notes.map((n) => n.key_id).sort(), noted);
  });

  test("a key taken before, or by another claim of its statement, writes no rows", async () => {
    assert.equal(await send(claim("taken")), true);
    const outcomes = await Promise.all([send(claim("taken", "row-taken-again")),
      send(claim("twice", "row-twice-1")), send(claim("twice", "row-twice-2"))]);
    assert.equal(outcomes[0], false);
    assert.deepEqual(outcomes.slice(1).sort(), [false, true]);
    const rows = await db.selectFrom("rows").select("id").where("key_id", "in", ["taken", "twice"])
      .execute();
    assert.equal(rows.length, 2, "one row for each key");
    assert.ok(!rows.some((r) => r.id === "row-taken-again"));
  });

  test("a claim whose held insert fails fails alone, its key left free", async () => {
    await db.insertInto("rows").values({ id: "row-in-use", key_id: "someone" }).execute();
    statements = [];
    const keys = ["fault-a", "fault-b", "fault-c", "fault-d"];
    const outcomes = await Promise.allSettled(keys.map((key) =>
      send(claim(key, key === "fault-b" ? "row-in-use" : undefined))));
    assert.deepEqual(outcomes.map((o) => o.status),
      ["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    assert.equal((outcomes[1] as PromiseRejectedResult).reason.code, "23505");
    assert.deepEqual(statements, [4, 1, 1, 1, 1], "joined, then each alone");
    assert.deepEqual(await rowsOf(keys), ["fault-a", "fault-c", "fault-d"]);
    assert.equal(await send(claim("fault-b")), true, "the failed claim's key is free");
  });
});
