/**
 * Fraud signals (PSR arts. 83 and 89 in the Commission's proposal COM(2023) 367): each PSU's
 * report of fraud now keeps who reported and the payee's IBAN, filled in for the reports made
 * before from their payments; a payee IBAN reported by two PSUs is flagged. Identifiers another
 * PSP shared through an information-sharing arrangement are kept beside them, with who shared.
 */
import { sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("fraud_reports").addColumn("psu_id", "text").execute();
  await db.schema.alterTable("fraud_reports").addColumn("payee_iban", "text").execute();
  await sql`update fraud_reports set
    psu_id = (select psu_id from payments where payments.id = fraud_reports.payment_id),
    payee_iban = (select creditor_iban from payments where payments.id = fraud_reports.payment_id)`
    .execute(db);
  await db.schema.createIndex("fraud_reports_payee").on("fraud_reports")
    .columns(["payee_iban", "psu_id"]).execute();
  await db.schema.createTable("shared_fraud_signals")
    .addColumn("iban", "text", (c) => c.primaryKey())
    .addColumn("shared_by", "text", (c) => c.notNull())
    .addColumn("flagged_at", "text", (c) => c.notNull())
    .execute();
}

export const fraudSignals: Migration = { up };
