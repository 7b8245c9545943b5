/**
 * Which interface created a consent: null for NextGenPSD2 1.3 (/v1, every consent before this
 * migration), `v2` for the openFinance API Framework 2.x; and a /v2 consent's consentType.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("consents").addColumn("api_version", "text").execute();
  await db.schema.alterTable("consents").addColumn("consent_type", "text").execute();
}

export const consentInterface: Migration = { up };
