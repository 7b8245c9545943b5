/**
 * The embedded ledger's tables: accounts with their four counters, immutable transfers, and one
 * entry per account leg. Only src/ledger/ uses this repository; it never updates a transfer.
 */
import { sql, type Selectable } from "kysely";
import { assert } from "../lib/assert.js";
import { bulkInsert, type BulkColumn } from "./bulk.js";
import { compiledQuery } from "./compiled.js";
import type { Engine, Tx } from "./handle.js";
import type { EntryTable, LedgerAccountTable, TransferTable } from "./schema.js";

export type LedgerAccountKind = "customer" | "clearing" | "equity" | "card";

export interface LedgerAccountRecord {
  id: string;
  iban: string | null;
  psuId: string | null;
  kind: LedgerAccountKind;
  currency: string;
  name: string | null;
  product: string | null;
  cashAccountType: string | null;
  status: "enabled" | "blocked" | "deleted";
  usage: string | null;
  bic: string | null;
  ownerName: string | null;
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
  debitsMustNotExceedCredits: boolean;
  entryCount: bigint;
  createdAt: string;
  /** The company holding it (its users act under a mandate); null for a PSU's own. */
  corporateId: string | null;
  /** How many users of a holding company must sign (multi-level SCA); 1 for a PSU's own. */
  signaturesRequired: number;
}

/** A company customer and one of its users' mandate. */
export interface CorporateRecord {
  id: string; corporateId: string; name: string; createdAt: string;
}
export interface CorporateUserRecord { corporateId: string; psuId: string; maySign: boolean }

export interface TransferRecord {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  currency: string;
  code: string;
  paymentId: string | null;
  bookedAt: string;
  bookingDate: string;
  valueDate: string;
  endToEndId: string | null;
  remittance: string | null;
  debtorName: string | null;
  debtorIban: string | null;
  creditorName: string | null;
  creditorIban: string | null;
  bankTransactionCode: string | null;
}

export interface EntryRecord {
  accountId: string;
  seq: bigint;
  transferId: string;
  amount: bigint;
  balanceAfter: bigint;
  bookingDate: string;
}

function toAccount(row: Selectable<LedgerAccountTable>): LedgerAccountRecord {
  return {
    id: row.id, iban: row.iban, psuId: row.psu_id, kind: row.kind as LedgerAccountKind,
    currency: row.currency, name: row.name, product: row.product,
    cashAccountType: row.cash_account_type, status: row.status as LedgerAccountRecord["status"],
    usage: row.usage, bic: row.bic, ownerName: row.owner_name,
    debitsPosted: BigInt(row.debits_posted), creditsPosted: BigInt(row.credits_posted),
    debitsPending: BigInt(row.debits_pending), creditsPending: BigInt(row.credits_pending),
    debitsMustNotExceedCredits: Boolean(row.debits_must_not_exceed_credits),
    entryCount: BigInt(row.entry_count), createdAt: row.created_at,
    corporateId: row.corporate_id, signaturesRequired: Number(row.signatures_required),
  };
}

/** The columns of both the live and the bulk inserts, so that the two cannot drift apart. */
const TRANSFER_COLUMNS: readonly BulkColumn<TransferRecord, keyof TransferTable>[] = [
  ["id", "text", (t) => t.id], ["debit_account_id", "text", (t) => t.debitAccountId],
  ["credit_account_id", "text", (t) => t.creditAccountId], ["amount", "bigint", (t) => t.amount],
  ["currency", "text", (t) => t.currency], ["code", "text", (t) => t.code],
  ["payment_id", "text", (t) => t.paymentId], ["booked_at", "text", (t) => t.bookedAt],
  ["booking_date", "text", (t) => t.bookingDate], ["value_date", "text", (t) => t.valueDate],
  ["end_to_end_id", "text", (t) => t.endToEndId], ["remittance", "text", (t) => t.remittance],
  ["debtor_name", "text", (t) => t.debtorName], ["debtor_iban", "text", (t) => t.debtorIban],
  ["creditor_name", "text", (t) => t.creditorName],
  ["creditor_iban", "text", (t) => t.creditorIban],
  ["bank_transaction_code", "text", (t) => t.bankTransactionCode],
];

/** An entry with the transfer it belongs to, whose listed columns it carries. */
type Posting = readonly [EntryRecord, TransferRecord];

/** The transfer's columns an entry carries, so that a statement reads entries alone. */
const LISTED = new Set<string>([
  "value_date", "booked_at", "currency", "end_to_end_id", "remittance", "debtor_name",
  "debtor_iban", "creditor_name", "creditor_iban", "bank_transaction_code",
]);
const listed = (column: BulkColumn<TransferRecord, keyof TransferTable>):
  column is BulkColumn<TransferRecord, keyof TransferTable & keyof EntryTable> =>
  LISTED.has(column[0]);

const ENTRY_COLUMNS: readonly BulkColumn<Posting, keyof EntryTable>[] = [
  ["account_id", "text", ([e]) => e.accountId], ["seq", "bigint", ([e]) => e.seq],
  ["transfer_id", "text", ([e]) => e.transferId], ["amount", "bigint", ([e]) => e.amount],
  ["balance_after", "bigint", ([e]) => e.balanceAfter],
  ["booking_date", "text", ([e]) => e.bookingDate],
  ...TRANSFER_COLUMNS.filter(listed).map(([name, type, read]) =>
    [name, type, ([, t]: Posting) => read(t)] as const),
];

/** Every payment initiation reads its debtor account so, inside its transaction (not cached). */
const accountByIban = compiledQuery(["iban"], (tx, { iban }: { iban: string }) =>
  tx.selectFrom("ledger_accounts").selectAll().where("iban", "=", iban));

/** Accounts by many ids or IBANs: the shared reads' batch (PostgreSQL only; ledger/core.ts). */
const rowsWithIds = compiledQuery(["ids"] as const, (tx, p: { ids: readonly string[] }) =>
  tx.selectFrom("ledger_accounts").selectAll().where(sql<boolean>`id = any(${p.ids})`));
const rowsWithIbans = compiledQuery(["ibans"] as const, (tx, p: { ibans: readonly string[] }) =>
  tx.selectFrom("ledger_accounts").selectAll().where(sql<boolean>`iban = any(${p.ibans})`));

function accountReads(engine: Engine) {
  // Compiled once: most requests read an account row.
  const byId = compiledQuery(["id"] as const, (tx, p: { id: string }) =>
    tx.selectFrom("ledger_accounts").selectAll().where("id", "=", p.id));
  const lockedById = compiledQuery(["id"] as const, (tx, p: { id: string }) => {
    const query = tx.selectFrom("ledger_accounts").selectAll().where("id", "=", p.id);
    return engine === "postgres" ? query.forUpdate() : query;
  });
  return {
    /** With `lock`, holds the row until the transaction ends (PostgreSQL); SQLite serialises
     * writers. */
    async getAccount(tx: Tx, id: string, lock = false): Promise<LedgerAccountRecord | undefined> {
      const { rows: [row] } = await (lock ? lockedById : byId)(tx, { id });
      return row && toAccount(row);
    },

    async accountsWithIds(
      tx: Tx, ids: readonly string[],
    ): Promise<Map<string, LedgerAccountRecord>> {
      const { rows } = await rowsWithIds(tx, { ids });
      return new Map(rows.map((row) => [row.id, toAccount(row)]));
    },

    async accountsWithIbans(
      tx: Tx, ibans: readonly string[],
    ): Promise<Map<string, LedgerAccountRecord>> {
      const { rows } = await rowsWithIbans(tx, { ibans });
      return new Map(rows.map((row) => [row.iban ?? "", toAccount(row)]));
    },

    async findAccountByIban(tx: Tx, iban: string): Promise<LedgerAccountRecord | undefined> {
      const { rows: [row] } = await accountByIban(tx, { iban });
      return row && toAccount(row);
    },

    async findAccountByKind(
      tx: Tx, kind: LedgerAccountKind, currency: string,
    ): Promise<LedgerAccountRecord | undefined> {
      const row = await tx.selectFrom("ledger_accounts").selectAll()
        .where("kind", "=", kind).where("currency", "=", currency)
        .orderBy("created_at").executeTakeFirst();
      return row && toAccount(row);
    },

    async accountsOfPsu(tx: Tx, psuId: string): Promise<LedgerAccountRecord[]> {
      const rows = await tx.selectFrom("ledger_accounts").selectAll()
        .where("psu_id", "=", psuId).orderBy("created_at").orderBy("id").execute();
      return rows.map(toAccount);
    },

    async allAccounts(tx: Tx): Promise<LedgerAccountRecord[]> {
      const rows = await tx.selectFrom("ledger_accounts").selectAll().orderBy("id").execute();
      return rows.map(toAccount);
    },
  };
}

function accountWrites() {
  return {
    async setStatus(tx: Tx, id: string, status: LedgerAccountRecord["status"]): Promise<void> {
      await tx.updateTable("ledger_accounts").set({ status }).where("id", "=", id).execute();
    },

    async insertAccount(tx: Tx, a: LedgerAccountRecord): Promise<void> {
      await tx.insertInto("ledger_accounts").values({
        id: a.id, iban: a.iban, psu_id: a.psuId, kind: a.kind, currency: a.currency,
        name: a.name, product: a.product, cash_account_type: a.cashAccountType,
        status: a.status, usage: a.usage, bic: a.bic, owner_name: a.ownerName,
        debits_posted: a.debitsPosted, credits_posted: a.creditsPosted,
        debits_pending: a.debitsPending, credits_pending: a.creditsPending,
        debits_must_not_exceed_credits: a.debitsMustNotExceedCredits ? 1 : 0,
        entry_count: a.entryCount, created_at: a.createdAt,
        corporate_id: a.corporateId, signatures_required: a.signaturesRequired,
      }).execute();
    },

    async saveCounters(tx: Tx, a: LedgerAccountRecord): Promise<void> {
      await tx.updateTable("ledger_accounts").set({
        debits_posted: a.debitsPosted, credits_posted: a.creditsPosted,
        debits_pending: a.debitsPending, credits_pending: a.creditsPending,
        entry_count: a.entryCount,
      }).where("id", "=", a.id).execute();
    },
  };
}

function transferQueries(engine: Engine) {
  /** Each entry's transfer is among `transfers`: the entry carries its listed columns. */
  async function insertPostings(
    tx: Tx, transfers: readonly TransferRecord[], entries: readonly EntryRecord[],
  ): Promise<void> {
    await bulkInsert(tx, engine, "transfers", TRANSFER_COLUMNS, transfers);
    const byId = new Map(transfers.map((t) => [t.id, t]));
    await bulkInsert(tx, engine, "entries", ENTRY_COLUMNS, entries.map((e) => {
      const transfer = byId.get(e.transferId);
      assert(transfer !== undefined, "an entry is inserted with its transfer");
      return [e, transfer] as const;
    }));
  }

  return {
    async insertTransfer(
      tx: Tx, t: TransferRecord, entries: readonly EntryRecord[],
    ): Promise<void> {
      await insertPostings(tx, [t], entries);
    },

    /** Bulk insert of generated history whose accounts were inserted with their final counters. */
    insertHistory: insertPostings,

    async transferOfPayment(tx: Tx, paymentId: string): Promise<string | undefined> {
      const row = await tx.selectFrom("transfers").select("id")
        .where("payment_id", "=", paymentId).executeTakeFirst();
      return row?.id;
    },

    /** What the accounts paid out by payments on one booking date: the daily limit's base. */
    async paymentDebitsOn(
      tx: Tx, accountIds: readonly string[], bookingDate: string,
    ): Promise<bigint> {
      if (accountIds.length === 0) return 0n;
      const row = await tx.selectFrom("transfers")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount"), eb.lit(0)).as("total"))
        .where("debit_account_id", "in", [...accountIds]).where("booking_date", "=", bookingDate)
        .where("payment_id", "is not", null).executeTakeFirstOrThrow();
      return BigInt(row.total);
    },

    /** Sum of an account's entries: the audit that the counters equal their postings. */
    async sumOfEntries(tx: Tx, accountId: string): Promise<bigint> {
      const row = await tx.selectFrom("entries")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount"), eb.lit(0)).as("total"))
        .where("account_id", "=", accountId).executeTakeFirstOrThrow();
      return BigInt(row.total);
    },
  };
}

/** The companies, their users' mandates, and the accounts they hold. */
const corporates = {
  async findCorporate(tx: Tx, corporateId: string): Promise<CorporateRecord | undefined> {
    const row = await tx.selectFrom("corporates").selectAll()
      .where("corporate_id", "=", corporateId).executeTakeFirst();
    return row && { id: row.id, corporateId: row.corporate_id, name: row.name,
      createdAt: row.created_at };
  },

  /** Whether `psuId` may sign for the company `corporateId` (its id); undefined: not its user. */
  async maySign(tx: Tx, corporateId: string, psuId: string): Promise<boolean | undefined> {
    const row = await tx.selectFrom("corporate_users").select("may_sign")
      .where("corporate_id", "=", corporateId).where("psu_id", "=", psuId).executeTakeFirst();
    return row && Boolean(row.may_sign);
  },

  /** The accounts of the companies whose user `psuId` is, with whether it may sign. */
  async mandatedAccounts(tx: Tx, psuId: string):
    Promise<{ account: LedgerAccountRecord; maySign: boolean }[]> {
    const rows = await tx.selectFrom("ledger_accounts")
      .innerJoin("corporate_users", "corporate_users.corporate_id", "ledger_accounts.corporate_id")
      .selectAll("ledger_accounts").select("corporate_users.may_sign")
      .where("corporate_users.psu_id", "=", psuId)
      .orderBy("ledger_accounts.created_at").orderBy("ledger_accounts.id").execute();
    return rows.map((row) => ({ account: toAccount(row), maySign: Boolean(row.may_sign) }));
  },

  async insertCorporate(tx: Tx, c: CorporateRecord, users: readonly CorporateUserRecord[]):
    Promise<void> {
    await tx.insertInto("corporates").values({
      id: c.id, corporate_id: c.corporateId, name: c.name, created_at: c.createdAt,
    }).execute();
    if (users.length === 0) return;
    await tx.insertInto("corporate_users").values(users.map((u) => ({
      corporate_id: u.corporateId, psu_id: u.psuId, may_sign: u.maySign ? 1 : 0,
    }))).execute();
  },
};

export function createLedgerRepository(engine: Engine) {
  return {
    ...accountReads(engine), ...accountWrites(), ...transferQueries(engine), ...corporates,
  };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
