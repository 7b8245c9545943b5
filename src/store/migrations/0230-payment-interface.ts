/**
 * Which interface created a payment: null for NextGenPSD2 1.3 (/v1, every payment before this
 * migration), `v2` for the openFinance API Framework 2.x; and a /v2 bulk's paymentInformationId,
 * which 2.x asks for at creation and shows back in the bulk's details.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payments").addColumn("api_version", "text").execute();
  await db.schema.alterTable("payments").addColumn("payment_information_id", "text").execute();
}

export const paymentInterface: Migration = { up };
