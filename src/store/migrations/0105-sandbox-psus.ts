/**
 * Sandbox PSUs for TPP test automation: each may carry a behaviour the sandbox plays (its code is
 * always 123456; its app rejects every request; its app never answers). Null for real PSUs, and
 * ignored outside sandbox mode.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("psus").addColumn("sandbox_behaviour", "text").execute();
}

export const sandboxPsus: Migration = { up };
