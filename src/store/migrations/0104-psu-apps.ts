/**
 * The bank's app on a PSU's phone (the decoupled SCA approach): each activation binds one device
 * to the PSU with a secret (kept as its hash, in the app's cookie) and an app PIN (as an argon2
 * hash). Long-lived; revoked from the dashboard. Decoupled requests are looked up by the PSU the
 * TPP named and their age.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("psu_apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("psu_id", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("pin_hash", "text", (c) => c.notNull())
    .addColumn("csrf", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("psu_apps_psu").on("psu_apps").column("psu_id").execute();
  await db.schema.createIndex("authorisations_decoupled").on("authorisations")
    .columns(["approach", "sca_status", "created_at"]).execute();
}

export const psuApps: Migration = { up };
