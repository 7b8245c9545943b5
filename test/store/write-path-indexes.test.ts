/**
 * PostgreSQL: the indexes of the tables every creation or request writes, as 0350 and 0360 left
 * them, serve the store's queries in the generic plan its named statements settle on after five
 * runs (where, say, a parameter in place of a partial index's literal would not match). SQLite:
 * migrations.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { createAuditRepository } from "../../src/store/audit.js";
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
  await db.executeQuery(CompiledQuery.raw("SET plan_cache_mode = force_generic_plan"));
  await db.executeQuery(CompiledQuery.raw("SET enable_seqscan = off"));
});

after(async () => {
  if (skip) return;
  await db.destroy();
  await database.remove();
});

/**
 * The generic plan of `query` as a prepared statement, with scans of whole tables discouraged
 * (the session's settings, made once in `before`).
 */
async function genericPlan(query: CompiledQuery, name: string): Promise<string> {
  await db.executeQuery(CompiledQuery.raw(`PREPARE ${name} AS ${query.sql}`));
  const values = query.parameters.map((v) => `'${String(v)}'`).join(", ");
  const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`EXPLAIN EXECUTE ${name}${values ? `(${values})` : ""}`));
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

test("the due payments' and decoupled requests' indexes hold only their rows, and the store's "
  + "queries use them [postgres]",
  { skip }, async () => {
    queries.length = 0;
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

test("the audit log is keyed by (at, id), which its newest-first reads and its pruning use "
  + "[postgres]", { skip }, async () => {
    const { rows } = await db.executeQuery<{ indexname: string; indexdef: string }>(
      CompiledQuery.raw(`SELECT indexname, indexdef FROM pg_indexes
        WHERE tablename = 'audit_log' ORDER BY indexname`));
    assert.deepEqual(rows.map((r) => [r.indexname, /\((.*)\)$/.exec(r.indexdef)?.[1]]), [
      ["audit_log_pkey", "at, id"],
      ["audit_log_resource", "resource_id, at"],
      ["audit_log_tpp", "tpp_id, at"],
    ]);
    const audit = createAuditRepository("postgres");
    queries.length = 0;
    await audit.query(db, { since: "2026-01-01T00:00:00.000Z", limit: 10 });
    await audit.pruneBefore(db, "2026-01-01T00:00:00.000Z");
    const [newest, prune] = queries.splice(0);
    assert.match(await genericPlan(newest!, "newest"), /Index Scan Backward using audit_log_pkey/);
    assert.match(await genericPlan(prune!, "prune"), /Index Scan (using|on) audit_log_pkey/);
  });
