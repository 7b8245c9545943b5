/**
 * The SCA approach of each authorisation: who carries the PSU's factors, the bank's pages
 * (redirect) or the TPP (embedded). A channel serves only authorisations of its own approach.
 * Earlier authorisations were all redirect.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("authorisations")
    .addColumn("approach", "text", (c) => c.notNull().defaultTo("redirect")).execute();
}

export const scaApproach: Migration = { up };
