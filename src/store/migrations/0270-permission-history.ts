/**
 * The PSU's permission dashboard (PSR): the purpose a TPP declared when it created a consent or
 * payment (TPP-Declared-Purpose), and an index by which the history's purge finds consents that
 * ended before PERMISSION_HISTORY_DAYS without a full scan.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("permission_purposes")
    .addColumn("resource_id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("declared_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consents_status_updated").on("consents")
    .columns(["status", "updated_at"]).execute();
}

export const permissionHistory: Migration = { up };
