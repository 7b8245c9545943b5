/**
 * Two more indexes on the creation path that only ever serve rows a creation does not write:
 * the scheduler's due payments (`requested_execution_date <= today`, never a payment executed at
 * once, whose date is null) and the decoupled approach's requests (`approach = 'decoupled'`).
 * Partial indexes of just those rows spare every other creation an insert into each; a
 * comparison on a column implies it is not null on SQLite and PostgreSQL alike, and the decoupled
 * queries name their approach as a literal, which PostgreSQL's generic plans (store/sca.ts) need
 * to match the predicate.
 */
import { sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("payments_due").execute();
  await db.schema.createIndex("payments_due").on("payments")
    .columns(["status", "requested_execution_date"])
    .where("requested_execution_date", "is not", null).execute();
  await db.schema.dropIndex("authorisations_decoupled").execute();
  await db.schema.createIndex("authorisations_decoupled").on("authorisations")
    .columns(["sca_status", "created_at"]).where(sql<boolean>`approach = 'decoupled'`).execute();
}

export const partialDueAndDecoupledIndexes: Migration = { up };
