/**
 * A payment initiation writes one payment and one authorisation row; each index on them is one
 * more B-tree insert, and one keyed by a random id dirties a page of its own at every commit.
 * Two of them only ever serve rows a creation does not write: a bulk's payments (bulk_id set)
 * and the authorisations a PSU decided (psu_id set). Partial indexes of just those rows serve the
 * same queries (`bulk_id = ?` and `psu_id = ?` imply IS NOT NULL on SQLite and PostgreSQL alike).
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("payments_bulk").execute();
  await db.schema.createIndex("payments_bulk").on("payments").columns(["bulk_id", "id"])
    .where("bulk_id", "is not", null).execute();
  await db.schema.dropIndex("authorisations_last_sca").execute();
  await db.schema.createIndex("authorisations_last_sca").on("authorisations")
    .columns(["tpp_id", "psu_id", "resource_type", "sca_status", "updated_at"])
    .where("psu_id", "is not", null).execute();
}

export const narrowCreationIndexes: Migration = { up };
