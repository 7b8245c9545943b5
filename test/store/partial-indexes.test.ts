/**
 * PostgreSQL: the store's queries of due payments and decoupled requests use their partial
 * indexes (0350) in the generic plan its named statements settle on after five runs, where a
 * parameter in place of the predicate's literal would not match. SQLite: migrations.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { paymentRepository } from "../../src/store/payments.js";
import { scaRepository } from "../../src/store/sca.js";
import type { Database } from "../../src/store/schema.js";
import {
  freshMigratedDatabase, postgresUnavailable, type EngineDatabase,
} from "../support/engines.js";

const skip = postgresUnavailable ?? false;
let database: EngineDatabase;
let db: Kysely<Database>;
const queries: CompiledQuery[] = [];

before(async () => {
  if (skip) return;
  database = await freshMigratedDatabase("postgres");
  // One connection, so that the session's settings below hold for every statement.
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 1 });
  db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => { if (event.level === "query") queries.push(event.query); },
  });
});

after(async () => {
  if (skip) return;
  await db.destroy();
  await database.remove();
});

/** The generic plan of `query` as a prepared statement, with scans of whole tables discouraged. */
async function genericPlan(query: CompiledQuery, name: string): Promise<string> {
  await db.executeQuery(CompiledQuery.raw("SET plan_cache_mode = force_generic_plan"));
  await db.executeQuery(CompiledQuery.raw("SET enable_seqscan = off"));
  await db.executeQuery(CompiledQuery.raw(`PREPARE ${name} AS ${query.sql}`));
  const values = query.parameters.map((v) => `'${String(v)}'`).join(", ");
  const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN EXECUTE ${name}(${values})`));
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

test("the due payments' and decoupled requests' indexes hold only their rows, and the store's "
  + "queries use them [postgres]",
  { skip }, async () => {
    await paymentRepository.dueForExecution(db, "2026-01-01", 10);
    await scaRepository.lateDecoupled(db, "2026-01-01T00:00:00.000Z", 10);
    await scaRepository.pendingDecoupled(db, "alice");
    const [due, late, pending] = queries.splice(0);
    const { rows } = await db.executeQuery<{ indexname: string; indexdef: string }>(
      CompiledQuery.raw(`SELECT indexname, indexdef FROM pg_indexes
        WHERE indexname IN ('payments_due', 'authorisations_decoupled') ORDER BY indexname`));
    assert.deepEqual(rows.map((r) => [r.indexname, / WHERE (.*)$/.exec(r.indexdef)?.[1]]), [
      ["authorisations_decoupled", "(approach = 'decoupled'::text)"],
      ["payments_due", "(requested_execution_date IS NOT NULL)"],
    ]);
    assert.match(await genericPlan(due!, "due"), /Index Scan using payments_due/);
    assert.match(await genericPlan(late!, "late"), /Index Scan using authorisations_decoupled/);
    assert.match(await genericPlan(pending!, "pending"),
      /Index Scan using authorisations_decoupled/);
  });
