/**
 * Signing baskets and their items. An item is held by one basket at a time: `held_id` carries
 * its id while held (null once released), and the unique index on it (NULLs are distinct in
 * SQLite and PostgreSQL alike) refuses a second holder even when two baskets race.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("signing_baskets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("psu_id", "text")
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("nok_redirect_uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("signing_basket_items")
    .addColumn("basket_id", "text", (c) => c.notNull().references("signing_baskets.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("item_type", "text", (c) => c.notNull())
    .addColumn("item_id", "text", (c) => c.notNull())
    .addColumn("held_id", "text")
    .addPrimaryKeyConstraint("signing_basket_items_pk", ["basket_id", "position"])
    .execute();
  await db.schema.createIndex("signing_basket_items_held").on("signing_basket_items")
    .columns(["item_type", "held_id"]).unique().execute();
}

export const signingBaskets: Migration = { up };
