/**
 * Account information: a transaction looked up by its id without scanning the account's
 * history, and the per-day access counters of consents (frequencyPerDay).
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex("entries_by_transfer").on("entries")
    .columns(["transfer_id", "account_id"]).execute();
  await db.schema.createTable("consent_access_counts")
    .addColumn("consent_id", "text", (c) => c.notNull().references("consents.id"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint(
      "consent_access_counts_pk", ["consent_id", "account_id", "endpoint", "day"],
    )
    .execute();
}

export const accountInformation: Migration = { up };
