/**
 * The initial schema: PSUs and devices, the ledger, payments, consents and the SCA tables.
 */
import type { Kysely, Migration } from "kysely";

// The schema builder needs an untyped handle: migrations describe tables before the types do.
type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("tpps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("blocked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("psus")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("login", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("blocked_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("sca_devices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("psu_id", "text", (c) => c.notNull().references("psus.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("secret", "text")
    .addColumn("phone", "text")
    .addColumn("last_totp_step", "bigint")
    .execute();
  await db.schema.createIndex("sca_devices_psu").on("sca_devices").column("psu_id").execute();
  await ledgerTables(db);
  await resourceTables(db);
  await scaTables(db);
}

async function ledgerTables(db: AnyDb): Promise<void> {
  await db.schema.createTable("ledger_accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("iban", "text", (c) => c.unique())
    .addColumn("psu_id", "text", (c) => c.references("psus.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("product", "text")
    .addColumn("cash_account_type", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("usage", "text")
    .addColumn("bic", "text")
    .addColumn("owner_name", "text")
    .addColumn("debits_posted", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("credits_posted", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("debits_pending", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("credits_pending", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("debits_must_not_exceed_credits", "integer", (c) => c.notNull())
    .addColumn("entry_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ledger_accounts_psu").on("ledger_accounts")
    .column("psu_id").execute();
  await db.schema.createTable("transfers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("debit_account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("credit_account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("payment_id", "text", (c) => c.unique())
    .addColumn("booked_at", "text", (c) => c.notNull())
    .addColumn("booking_date", "text", (c) => c.notNull())
    .addColumn("value_date", "text", (c) => c.notNull())
    .addColumn("end_to_end_id", "text")
    .addColumn("remittance", "text")
    .addColumn("debtor_name", "text")
    .addColumn("debtor_iban", "text")
    .addColumn("creditor_name", "text")
    .addColumn("creditor_iban", "text")
    .addColumn("bank_transaction_code", "text")
    .execute();
  // One row per account leg: an account's statement is an index range scan on (account, seq).
  await db.schema.createTable("entries")
    .addColumn("account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("transfer_id", "text", (c) => c.notNull().references("transfers.id"))
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("balance_after", "bigint", (c) => c.notNull())
    .addColumn("booking_date", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("entries_pk", ["account_id", "seq"])
    .execute();
  await db.schema.createIndex("entries_by_date").on("entries")
    .columns(["account_id", "booking_date", "seq"]).execute();
}

async function resourceTables(db: AnyDb): Promise<void> {
  await db.schema.createTable("payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tpp_id", "text", (c) => c.notNull().references("tpps.id"))
    .addColumn("service", "text", (c) => c.notNull())
    .addColumn("product", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("psu_id", "text")
    .addColumn("debtor_iban", "text", (c) => c.notNull())
    .addColumn("debtor_currency", "text")
    .addColumn("creditor_iban", "text", (c) => c.notNull())
    .addColumn("creditor_currency", "text")
    .addColumn("creditor_name", "text", (c) => c.notNull())
    .addColumn("creditor_agent", "text")
    .addColumn("creditor_address", "text")
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("remittance", "text")
    .addColumn("end_to_end_id", "text")
    .addColumn("requested_execution_date", "text")
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("nok_redirect_uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payments_tpp").on("payments")
    .columns(["tpp_id", "created_at"]).execute();
  await db.schema.createTable("consents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tpp_id", "text", (c) => c.notNull().references("tpps.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("psu_id", "text")
    .addColumn("access", "text", (c) => c.notNull())
    .addColumn("recurring", "integer", (c) => c.notNull())
    .addColumn("valid_until", "text", (c) => c.notNull())
    .addColumn("frequency_per_day", "integer", (c) => c.notNull())
    .addColumn("combined", "integer", (c) => c.notNull())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("nok_redirect_uri", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("authorised_at", "text")
    .execute();
  await db.schema.createIndex("consents_tpp").on("consents")
    .columns(["tpp_id", "created_at"]).execute();
  await db.schema.createTable("consent_accounts")
    .addColumn("consent_id", "text", (c) => c.notNull().references("consents.id"))
    .addColumn("account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("balances", "integer", (c) => c.notNull())
    .addColumn("transactions", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("consent_accounts_pk", ["consent_id", "account_id"])
    .execute();
  await db.schema.createTable("idempotency")
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("body_hash", "text", (c) => c.notNull())
    .addColumn("status_code", "integer", (c) => c.notNull())
    .addColumn("response_body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_pk", ["tpp_id", "request_id"])
    .execute();
}

async function scaTables(db: AnyDb): Promise<void> {
  await db.schema.createTable("authorisations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("resource_type", "text", (c) => c.notNull())
    .addColumn("resource_id", "text", (c) => c.notNull())
    .addColumn("tpp_id", "text", (c) => c.notNull())
    .addColumn("sca_status", "text", (c) => c.notNull())
    .addColumn("psu_id", "text")
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("authorisations_resource").on("authorisations")
    .columns(["resource_id", "resource_type"]).execute();
  await db.schema.createTable("sca_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("authorisation_id", "text", (c) => c.notNull().references("authorisations.id"))
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("psu_id", "text")
    .addColumn("device_id", "text")
    .addColumn("csrf", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("used_tokens")
    .addColumn("jti", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("otp_challenges")
    .addColumn("session_id", "text", (c) => c.primaryKey())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("binding", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createTable("sms_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("psu_id", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sms_outbox_psu").on("sms_outbox")
    .columns(["psu_id", "seq"]).execute();
}

export const initial: Migration = { up };
