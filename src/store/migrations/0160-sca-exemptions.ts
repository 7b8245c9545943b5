/**
 * SCA exemptions (RTS 2018/389): which exemption an authorisation took instead of the second
 * factor; per PSU, what was paid without one since its last SCA (art. 16), durable so that a
 * restart forgets nothing; the PSU's trusted payees (art. 13); PSU-reported fraud, from which
 * the bank's fraud rate is computed (art. 18); and the browsers a PSU passed SCA in (art. 18's
 * known device), kept as the hash of their cookie.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("authorisations").addColumn("exemption", "text").execute();
  await db.schema.createTable("exemption_counters")
    .addColumn("psu_id", "text", (c) => c.primaryKey())
    .addColumn("payments", "integer", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createTable("trusted_payees")
    .addColumn("psu_id", "text", (c) => c.notNull())
    .addColumn("iban", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("trusted_payees_pk", ["psu_id", "iban"])
    .execute();
  await db.schema.createTable("fraud_reports")
    .addColumn("payment_id", "text", (c) => c.primaryKey())
    .addColumn("reported_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("known_devices")
    .addColumn("secret_hash", "text", (c) => c.primaryKey())
    .addColumn("psu_id", "text", (c) => c.notNull())
    .addColumn("last_sca_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("authorisations_last_sca").on("authorisations")
    .columns(["tpp_id", "psu_id", "resource_type", "sca_status", "updated_at"]).execute();
}

export const scaExemptions: Migration = { up };
