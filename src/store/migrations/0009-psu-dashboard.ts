/**
 * The PSU's own dashboard sessions (not tied to any authorisation), and the authorization device
 * the PSU chose for an authorisation (shown to the TPP as chosenScaMethod).
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("psu_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("psu_id", "text")
    .addColumn("device_id", "text")
    .addColumn("csrf", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("psu_sessions_seen").on("psu_sessions")
    .column("last_seen_at").execute();
  await db.schema.createTable("authorisation_methods")
    .addColumn("authorisation_id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull())
    .execute();
}

export const psuDashboard: Migration = { up };
