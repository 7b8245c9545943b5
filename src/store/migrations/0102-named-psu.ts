/**
 * The PSU a TPP named (PSU-ID) when it started an authorisation: only that PSU may complete it,
 * which the pages check right after the password. Earlier authorisations name none (null).
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("authorisations").addColumn("named_psu", "text").execute();
}

export const namedPsu: Migration = { up };
