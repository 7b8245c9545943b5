/**
 * Funds-confirmation consents (PIIS) live beside account-information consents: `kind` tells
 * them apart (null: account information), so neither is ever used for the other's service.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("consents").addColumn("kind", "text").execute();
}

export const fundsConfirmationConsents: Migration = { up };
