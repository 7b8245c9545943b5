/**
 * The ledger's read side for statements. Every query is a seek on the primary key
 * (account_id, seq) or on entries_by_date (account_id, booking_date, seq), so its cost depends
 * on the page size, never on the length of an account's history. An account's entries are
 * numbered 1, 2, 3, ... in booking order, and booking dates never go backwards within one
 * account, which lets a date range be turned into a seq range with two seeks.
 */
import type { BookedTransaction } from "../domain/account-information/core-banking.js";
import { compiledQuery } from "./compiled.js";
import type { Tx } from "./handle.js";

/** Entries carry the listed columns of their transfer: a page is one range scan, no join. */
function statementQuery(tx: Tx, accountId: string) {
  return tx.selectFrom("entries")
    .select([
      "seq", "transfer_id", "amount", "balance_after", "booking_date", "value_date", "currency",
      "end_to_end_id", "remittance", "debtor_name", "debtor_iban", "creditor_name",
      "creditor_iban", "bank_transaction_code",
    ])
    .where("account_id", "=", accountId);
}

type Row = Awaited<ReturnType<ReturnType<typeof statementQuery>["execute"]>>[number];

/** Straight from the row to what the API presents: one object per entry. */
function toTransaction(r: Row): BookedTransaction {
  return {
    transactionId: r.transfer_id, entryReference: String(r.seq), endToEndId: r.end_to_end_id,
    bookingDate: r.booking_date, valueDate: r.value_date, amountMinor: BigInt(r.amount),
    currency: r.currency, creditorName: r.creditor_name, creditorIban: r.creditor_iban,
    debtorName: r.debtor_name, debtorIban: r.debtor_iban, remittance: r.remittance,
    bankTransactionCode: r.bank_transaction_code, balanceAfterMinor: BigInt(r.balance_after),
  };
}

/** What the balances tell of an entry: the balance after it, and when it was booked. */
export interface BalanceAfter { balanceAfter: bigint; bookingDate: string; bookedAt: string }

const firstSeqFrom = compiledQuery(["accountId", "date"] as const,
  (tx, p: { accountId: string; date: string }) => tx.selectFrom("entries").select("seq")
    .where("account_id", "=", p.accountId).where("booking_date", ">=", p.date)
    .orderBy("booking_date").orderBy("seq").limit(1));

const lastSeqUntil = compiledQuery(["accountId", "date"] as const,
  (tx, p: { accountId: string; date: string }) => tx.selectFrom("entries").select("seq")
    .where("account_id", "=", p.accountId).where("booking_date", "<=", p.date)
    .orderBy("booking_date", "desc").orderBy("seq", "desc").limit(1));

const between = compiledQuery(["accountId", "fromSeq", "toSeq"] as const,
  (tx, p: { accountId: string; fromSeq: number; toSeq: number }) => statementQuery(tx, p.accountId)
    .where("seq", ">=", p.fromSeq).where("seq", "<=", p.toSeq)
    .orderBy("seq"));

const bySeq = compiledQuery(["accountId", "seq"] as const,
  (tx, p: { accountId: string; seq: number }) => tx.selectFrom("entries")
    .select(["balance_after", "booking_date", "booked_at"]).where("account_id", "=", p.accountId)
    .where("seq", "=", p.seq));

const seqOf = ({ rows: [row] }: { rows: { seq: number | bigint | string }[] }) =>
  (row ? BigInt(row.seq) : null);

export const statementRepository = {
  /** The first seq booked on or after `date`, or null when nothing was. */
  async firstSeqFrom(tx: Tx, accountId: string, date: string): Promise<bigint | null> {
    return seqOf(await firstSeqFrom(tx, { accountId, date }));
  },

  /** The last seq booked on or before `date`, or null when nothing was. */
  async lastSeqUntil(tx: Tx, accountId: string, date: string): Promise<bigint | null> {
    return seqOf(await lastSeqUntil(tx, { accountId, date }));
  },

  /** Entries fromSeq..toSeq inclusive, oldest first. */
  async between(tx: Tx, accountId: string, fromSeq: bigint, toSeq: bigint):
    Promise<BookedTransaction[]> {
    const { rows } = await between(tx,
      { accountId, fromSeq: Number(fromSeq), toSeq: Number(toSeq) });
    return rows.map(toTransaction);
  },

  async bySeq(tx: Tx, accountId: string, seq: bigint): Promise<BalanceAfter | undefined> {
    const { rows: [row] } = await bySeq(tx, { accountId, seq: Number(seq) });
    return row && { balanceAfter: BigInt(row.balance_after), bookingDate: row.booking_date,
      bookedAt: row.booked_at };
  },

  async byTransfer(tx: Tx, accountId: string, transferId: string):
    Promise<BookedTransaction | undefined> {
    const row = await statementQuery(tx, accountId)
      .where("transfer_id", "=", transferId).executeTakeFirst();
    return row && toTransaction(row);
  },
};

/** Signed like entries: negative leaves the account. */
export interface PendingRecord {
  id: string;
  accountId: string;
  amount: bigint;
  currency: string;
  transactionDate: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  remittance: string | null;
  bankTransactionCode: string | null;
}

export const pendingRepository = {
  async insert(tx: Tx, rows: readonly PendingRecord[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.insertInto("pending_transactions").values(rows.map((p) => ({
      id: p.id, account_id: p.accountId, amount: p.amount, currency: p.currency,
      transaction_date: p.transactionDate, counterparty_name: p.counterpartyName,
      counterparty_iban: p.counterpartyIban, remittance: p.remittance,
      bank_transaction_code: p.bankTransactionCode,
    }))).execute();
  },

  async ofAccount(tx: Tx, accountId: string): Promise<PendingRecord[]> {
    const rows = await tx.selectFrom("pending_transactions").selectAll()
      .where("account_id", "=", accountId).orderBy("transaction_date").orderBy("id").execute();
    return rows.map((r) => ({
      id: r.id, accountId: r.account_id, amount: BigInt(r.amount), currency: r.currency,
      transactionDate: r.transaction_date, counterpartyName: r.counterparty_name,
      counterpartyIban: r.counterparty_iban, remittance: r.remittance,
      bankTransactionCode: r.bank_transaction_code,
    }));
  },
};
