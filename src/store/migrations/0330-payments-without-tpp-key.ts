/**
 * On PostgreSQL the foreign key from payments.tpp_id to tpps made every payment's insert take
 * FOR KEY SHARE on its TPP's row: concurrent creations of one TPP (all of its payments) each
 * joined a multixact on that row and rewrote its header. TPP rows are never deleted (a TPP is
 * stop-listed, not removed), and a payment's TPP is the one its request authenticated, which the
 * bank registered before (tpps.ensure), so the key guarded nothing. SQLite takes no such lock,
 * and dropping a key there means rebuilding the table: it stays.
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE payments DROP CONSTRAINT payments_tpp_id_fkey`.execute(db);
}

export const paymentsWithoutTppKey: Migration = { up };
