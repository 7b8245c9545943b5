/**
 * The pain.001 message a payment was initiated with (its name, MsgId and PmtInfId, as JSON), so
 * that its pain.002 report names the original message in the original's version. Null for a
 * payment initiated in JSON.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payments").addColumn("initiation_message", "text").execute();
}

export const initiationMessage: Migration = { up };
