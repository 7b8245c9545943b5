/**
 * The published statistics of the dedicated interface (RTS art. 32(4), EBA/GL/2018/07 GL 2-3):
 * per UTC day and request category, counters every instance adds its share to, and the windows
 * in which an instance saw its interface down, which the report joins across instances.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("interface_statistics")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("requests", "bigint", (c) => c.notNull())
    .addColumn("errors", "bigint", (c) => c.notNull())
    .addColumn("duration_us", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("interface_statistics_pk", ["day", "category"])
    .execute();
  await db.schema.createTable("interface_downtime")
    .addColumn("instance_id", "text", (c) => c.notNull())
    .addColumn("interface", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("interface_downtime_pk", ["instance_id", "interface", "started_at"])
    .execute();
  await db.schema.createIndex("interface_downtime_ended").on("interface_downtime")
    .column("ended_at").execute();
}

export const interfaceStatistics: Migration = { up };
