/**
 * Card accounts: a card is a ledger account of kind "card" whose debits may reach its credit
 * limit; this table adds what only cards have. Card transactions are ordinary transfers; the
 * details a card statement shows beyond a transfer (purchase date, merchant, original amount)
 * hang off the transfer by its id. Also pending transactions and the marks behind deltaList.
 */
import type { Kysely, Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("card_accounts")
    .addColumn("account_id", "text", (c) => c.primaryKey().references("ledger_accounts.id"))
    .addColumn("masked_pan", "text", (c) => c.notNull().unique())
    // Only a hash of the full PAN is kept, to find a card by the PAN a TPP sends.
    .addColumn("pan_hash", "text", (c) => c.notNull().unique())
    .addColumn("credit_limit", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createTable("card_transaction_details")
    .addColumn("transfer_id", "text", (c) => c.primaryKey().references("transfers.id"))
    .addColumn("masked_pan", "text", (c) => c.notNull())
    .addColumn("transaction_date", "text", (c) => c.notNull())
    .addColumn("acceptor_time", "text")
    .addColumn("merchant_category_code", "text")
    .addColumn("card_acceptor_id", "text")
    .addColumn("card_acceptor_city", "text")
    .addColumn("card_acceptor_country", "text")
    .addColumn("original_amount", "bigint")
    .addColumn("original_currency", "text")
    .addColumn("exchange_rate", "text")
    .execute();
  // Card authorisations and debits announced but not yet booked; the account's pending counters
  // hold their sums.
  await db.schema.createTable("pending_transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("transaction_date", "text", (c) => c.notNull())
    .addColumn("counterparty_name", "text")
    .addColumn("counterparty_iban", "text")
    .addColumn("remittance", "text")
    .addColumn("bank_transaction_code", "text")
    .execute();
  await db.schema.createIndex("pending_transactions_account").on("pending_transactions")
    .columns(["account_id", "transaction_date", "id"]).execute();
  // deltaList: the last entry each consent has been given of each account.
  await db.schema.createTable("consent_delta_marks")
    .addColumn("consent_id", "text", (c) => c.notNull().references("consents.id"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("entry_reference", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("consent_delta_marks_pk", ["consent_id", "account_id"])
    .execute();
}

export const cardAccounts: Migration = { up };
