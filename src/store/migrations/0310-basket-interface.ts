/**
 * Which interface created a signing basket: null for NextGenPSD2 1.3 (/v1, every basket before
 * this migration), `v2` for the openFinance Signing Basket API 2.4. A basket holds only items of
 * its own interface, and is unknown through the other one.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("signing_baskets").addColumn("api_version", "text").execute();
}

export const basketInterface: Migration = { up };
