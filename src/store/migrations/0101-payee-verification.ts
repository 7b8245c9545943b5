/**
 * Verification of Payee: each payment keeps the outcome of the check made at its creation, the
 * name the payee's bank holds for a close match, and when the PSU confirmed despite no match.
 * Payments created before have none (null).
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payments").addColumn("vop_result", "text").execute();
  await db.schema.alterTable("payments").addColumn("vop_matched_name", "text").execute();
  await db.schema.alterTable("payments").addColumn("vop_overridden_at", "text").execute();
}

export const payeeVerification: Migration = { up };
