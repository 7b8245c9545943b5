/**
 * Requests per TPP and minute, counted in the database so that every instance behind the load
 * balancer enforces one limit (TPP_REQUESTS_PER_MINUTE), not one each.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("tpp_request_counts")
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("tpp_request_counts_pk", ["tpp_id", "window_start"])
    .execute();
}

export const tppRequestCounts: Migration = { up };
