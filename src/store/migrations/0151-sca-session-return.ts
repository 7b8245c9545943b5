/**
 * Where an authorisation's browser session leads once the PSU decided, when not to the TPP's
 * redirect URI: a session the OAuth authorisation server opened goes back to its interaction,
 * which answers the TPP's redirect_uri with the code (or the refusal) itself.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sca_sessions").addColumn("return_to", "text").execute();
}

export const scaSessionReturn: Migration = { up };
