/**
 * Multi-level SCA for signing baskets: a basket needs as many users' signatures as the most any
 * of its items needs, fixed when it is created, and counts those given (PATC in between).
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("signing_baskets")
    .addColumn("signatures_required", "integer", (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable("signing_baskets")
    .addColumn("signatures", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export const basketSignatures: Migration = { up };
