/**
 * Bulk payments: the bulk is a payment row carrying the debtor, the total and the booking mode;
 * each of its payments is a row of its own pointing to it by bulk_id.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("payments").addColumn("bulk_id", "text").execute();
  await db.schema.alterTable("payments").addColumn("batch_booking", "integer").execute();
  await db.schema.createIndex("payments_bulk").on("payments").columns(["bulk_id", "id"]).execute();
}

export const bulkPayments: Migration = { up };
