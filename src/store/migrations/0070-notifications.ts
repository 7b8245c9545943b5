/**
 * Status pushed to the TPP: a resource's subscription (TPP-Notification-URI accepted at its
 * creation) and the outbox of notifications, written in the transaction of the status change.
 */
import { sql, type Kysely, type Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("notification_subscriptions")
    .addColumn("resource_id", "text", (c) => c.primaryKey())
    .addColumn("resource_type", "text", (c) => c.notNull())
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("uri", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("resource_id", "text", (c) => c.notNull())
    // Order within the resource: delivery never sends one before an earlier one is delivered.
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("uri", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(sql`0`))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .addColumn("failed_at", "text")
    .addColumn("last_error", "text")
    .addUniqueConstraint("notifications_resource_position", ["resource_id", "position"])
    .execute();
  await db.schema.createIndex("notifications_pending")
    .on("notifications").columns(["delivered_at", "failed_at", "next_attempt_at"]).execute();
}

export const notifications: Migration = { up };
