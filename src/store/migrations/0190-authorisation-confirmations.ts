/**
 * AUTHORISATION_CONFIRMATION: the PSU's decision on the review, held until the TPP sends the
 * confirmation code its redirect carried. The code is kept only as its hash; `attempts` counts
 * the wrong codes sent, so that guessing ends the authorisation.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("authorisation_confirmations")
    .addColumn("authorisation_id", "text", (c) => c.primaryKey())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("psu_id", "text", (c) => c.notNull())
    .addColumn("decision", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export const authorisationConfirmations: Migration = { up };
