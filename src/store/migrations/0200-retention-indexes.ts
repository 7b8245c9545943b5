/**
 * Idempotency answers and used redirect tokens are pruned by age (IDEMPOTENCY_RETENTION_HOURS,
 * token expiry): the scheduler's deletes find them by these indexes instead of a full scan.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("idempotency_created").on("idempotency").column("created_at")
    .execute();
  await db.schema.createIndex("used_tokens_expires").on("used_tokens").column("expires_at")
    .execute();
}

export const retentionIndexes: Migration = { up };
