/**
 * Periodic payments (standing orders): the schedule as JSON beside the payment, and a counter of
 * executions that each execution advances by compare-and-set, so one is never booked twice;
 * an index for the due-payments job.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("payments").addColumn("standing_order", "text").execute();
  await db.schema.alterTable("payments")
    .addColumn("executions", "integer", (c) => c.notNull().defaultTo(0)).execute();
  // The due-payments job looks for ACTC payments due by date and ACSP ones due for settlement.
  await db.schema.createIndex("payments_due").on("payments")
    .columns(["status", "requested_execution_date"]).execute();
}

export const standingOrders: Migration = { up };
