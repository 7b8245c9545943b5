/**
 * Leases of scheduled jobs: the row of a job names the instance that may run it until expires_at,
 * so sweeps and periodic executions run once across all instances on one database.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

export const jobLeases: Migration = { up };
