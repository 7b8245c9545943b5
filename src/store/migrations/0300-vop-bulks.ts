/**
 * Verification of Party 1.1 (openFinance): a TPP's bulks of payee checks, kept until a scheduled
 * run has answered each entry, so a bulk accepted before a restart is answered after it; and when
 * a TPP confirmed a /v2 payment's payee after a close or no match (creditor-confirmation).
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("vop_bulks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("vop_bulks_status").on("vop_bulks").column("status").execute();
  await db.schema.createTable("vop_bulk_entries")
    .addColumn("bulk_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("request", "text", (c) => c.notNull())
    .addColumn("result", "text")
    .addPrimaryKeyConstraint("vop_bulk_entries_pk", ["bulk_id", "position"])
    .execute();
  await db.schema.alterTable("payments").addColumn("creditor_confirmed_at", "text").execute();
}

export const vopBulks: Migration = { up };
