/**
 * The push form of each subscription: NextGenPSD2 1.3's (TPP-Notification-URI, /v1) or
 * openFinance PUSH 2.4's (Client-Notification-URI, /v2), and the resource's path on its
 * interface, which a lean 2.4 push links to. Earlier subscriptions were all 1.3's.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notification_subscriptions")
    .addColumn("form", "text", (c) => c.notNull().defaultTo("1.3")).execute();
  await db.schema.alterTable("notification_subscriptions")
    .addColumn("resource_path", "text").execute();
}

export const notificationForms: Migration = { up };
