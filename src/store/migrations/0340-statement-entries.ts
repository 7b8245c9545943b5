/**
 * A page of transactions read 100 entries and then, per entry, its transfer: on SQLite four
 * B-tree seeks a row (the key index of entries, its rowid table, the key index of transfers, its
 * rowid table), the largest part of a page's CPU. An entry now carries the transfer's columns a
 * statement lists, written with it in the same insert, so a page is one range scan on
 * (account_id, seq) with no join; on SQLite the table is WITHOUT ROWID, so that range is the
 * table itself, an account's entries side by side. Transfers keep every column: they stay the
 * record of the booking. The table is rebuilt (the largest one), its rows copied in key order.
 */
import { SqliteAdapter, sql, type Kysely, type Migration } from "kysely";

type AnyDb = Kysely<unknown>;

/** The transfer's columns a statement lists, copied into each of its entries. */
const LISTED = [
  "value_date", "booked_at", "currency", "end_to_end_id", "remittance", "debtor_name",
  "debtor_iban", "creditor_name", "creditor_iban", "bank_transaction_code",
] as const;
const NOT_NULL = new Set<string>(["value_date", "booked_at", "currency"]);

const sqlite = (db: AnyDb) => db.getExecutor().adapter instanceof SqliteAdapter;

async function createWide(db: AnyDb): Promise<void> {
  let table = db.schema.createTable("entries_wide")
    .addColumn("account_id", "text", (c) => c.notNull().references("ledger_accounts.id"))
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("transfer_id", "text", (c) => c.notNull().references("transfers.id"))
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("balance_after", "bigint", (c) => c.notNull())
    .addColumn("booking_date", "text", (c) => c.notNull());
  for (const column of LISTED) {
    table = table.addColumn(column, "text", (c) => (NOT_NULL.has(column) ? c.notNull() : c));
  }
  table = table.addPrimaryKeyConstraint("entries_key", ["account_id", "seq"]);
  await (sqlite(db) ? table.modifyEnd(sql`without rowid`) : table).execute();
}

async function up(db: AnyDb): Promise<void> {
  // The copy takes minutes on a large ledger, beyond the pool's statement timeout (PostgreSQL
  // runs the migrations in one transaction: the setting ends with it).
  if (!sqlite(db)) await sql`set local statement_timeout = 0`.execute(db);
  await createWide(db);
  const own = ["account_id", "seq", "transfer_id", "amount", "balance_after", "booking_date"];
  const columns = sql.join([...own, ...LISTED].map((c) => sql.ref(c)));
  const selected = sql.join([
    ...own.map((c) => sql.ref(`entries.${c}`)), ...LISTED.map((c) => sql.ref(`transfers.${c}`)),
  ]);
  await sql`insert into entries_wide (${columns}) select ${selected} from entries
    join transfers on transfers.id = entries.transfer_id
    order by entries.account_id, entries.seq`.execute(db);
  await db.schema.dropTable("entries").execute();
  await db.schema.alterTable("entries_wide").renameTo("entries").execute();
  await db.schema.createIndex("entries_by_date").on("entries")
    .columns(["account_id", "booking_date", "seq"]).execute();
  await db.schema.createIndex("entries_by_transfer").on("entries")
    .columns(["transfer_id", "account_id"]).execute();
  // A new table has no statistics until autovacuum comes by: plans would guess until then.
  if (!sqlite(db)) await sql`analyze entries`.execute(db);
}

export const statementEntries: Migration = { up };
