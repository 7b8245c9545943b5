/**
 * A partly executed bulk payment was stored as PATC, which the Berlin Group keeps for
 * multi-level authorisation; it reads PART now. Nothing else ever wrote PATC, so every such row
 * is a partly executed bulk.
 */
import { sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update payments set status = 'PART' where status = 'PATC'`.execute(db);
}

export const bulkPart: Migration = { up };
