/** The audit log: one row per API request and its outcome, kept for a configurable time. */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("tpp_id", "text")
    .addColumn("request_id", "text")
    .addColumn("psu_ip", "text")
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("resource_id", "text")
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
  await db.schema.createIndex("audit_log_tpp").on("audit_log").columns(["tpp_id", "at"]).execute();
  await db.schema.createIndex("audit_log_resource").on("audit_log")
    .columns(["resource_id", "at"]).execute();
}

export const auditLog: Migration = { up };
