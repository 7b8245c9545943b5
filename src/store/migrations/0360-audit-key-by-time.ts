/**
 * PostgreSQL: the audit log's key becomes (at, id), the order every query of it reads and prunes
 * by, and the index on (at, id) beside the key on id goes: one index insert fewer on every
 * request's entry. Nothing looks an entry up by its id alone, and ids stay unique as they are
 * minted (lib/ids.ts). On SQLite a new key means rebuilding the table, and both indexes only ever
 * append there (the id is time-ordered too): it stays. The new key is built over the whole log
 * once, by the start that migrates, as any index a migration adds.
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_log_pkey`.execute(db);
  await sql`DROP INDEX audit_log_at`.execute(db);
  await sql`ALTER TABLE audit_log ADD PRIMARY KEY (at, id)`.execute(db);
}

export const auditKeyByTime: Migration = { up };
