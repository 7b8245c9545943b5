/**
 * The OAuth authorisation server's records (grants, codes, tokens, pushed requests, interactions,
 * sessions), in the database rather than in one process's memory, so that every instance honours
 * what another issued and a code or refresh token is consumed once across all of them. The
 * payload is the server library's own JSON; the columns beside it are what records are looked up
 * or revoked by: the grant, the browser session's uid, and the consent or payment of the scope.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("oauth_records")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "text")
    .addColumn("uid", "text")
    .addColumn("resource_id", "text")
    // Seconds since the epoch, as the library counts them.
    .addColumn("expires_at", "bigint")
    .addColumn("consumed_at", "bigint")
    .addPrimaryKeyConstraint("oauth_records_key", ["model", "id"])
    .execute();
  await db.schema.createIndex("oauth_records_grant").on("oauth_records").column("grant_id")
    .execute();
  await db.schema.createIndex("oauth_records_uid").on("oauth_records").column("uid").execute();
  await db.schema.createIndex("oauth_records_resource").on("oauth_records")
    .column("resource_id").execute();
  await db.schema.createIndex("oauth_records_expiry").on("oauth_records").column("expires_at")
    .execute();
}

export const oauthRecords: Migration = { up };
