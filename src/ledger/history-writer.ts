/**
 * Books generated history in memory exactly as live payments book, for the demo data and the
 * generated data sets, which insert what it collected in bulk.
 */
import { newUuid } from "../lib/ids.js";
import type { EntryRecord, LedgerAccountRecord, TransferRecord } from "../store/ledger.js";
import { postTransfer, refuseTransfer } from "./book.js";

/** A credit card settled monthly from the account it is listed under. */
export interface DemoCard { pan: string; product: string; creditLimitMinor: bigint }

export interface Counterparty { name: string; iban: string; remittance: string; code: string }

export class HistoryWriter {
  readonly transfers: TransferRecord[] = [];
  readonly entries: EntryRecord[] = [];
  /** How far below zero each card account may go. */
  readonly creditLimits = new Map<string, bigint>();
  constructor(
    readonly accounts: Map<string, LedgerAccountRecord>,
    private readonly newId: () => string = newUuid,
  ) {}

  /**
   * Books in memory exactly as live payments book; a refused booking is skipped, as a bank would.
   * Returns the transfer's id, or undefined when it was refused.
   */
  book(
    debitId: string, creditId: string, amount: bigint, date: string, cp: Counterparty,
  ): string | undefined {
    const debit = this.accounts.get(debitId);
    const credit = this.accounts.get(creditId);
    const overdraft = this.creditLimits.get(debitId) ?? 0n;
    if (!debit || !credit) return undefined;
    if (refuseTransfer(debit, credit, amount, overdraft) !== null) return undefined;
    const id = this.newId();
    const booking = postTransfer(debit, credit, amount, { id, bookingDate: date, overdraft });
    this.accounts.set(debitId, booking.debit);
    this.accounts.set(creditId, booking.credit);
    this.entries.push(...booking.entries);
    // From a customer's account or card money goes out to the counterparty; from the bank's
    // clearing or equity it comes in from the counterparty.
    const outgoing = debit.psuId !== null;
    this.transfers.push({
      id, debitAccountId: debitId, creditAccountId: creditId, amount, currency: "EUR",
      code: cp.code, paymentId: null, bookedAt: `${date}T10:00:00.000Z`, bookingDate: date,
      valueDate: date, endToEndId: null, remittance: cp.remittance,
      debtorName: outgoing ? debit.ownerName : cp.name, debtorIban: outgoing ? debit.iban : cp.iban,
      creditorName: outgoing ? cp.name : credit.ownerName,
      creditorIban: outgoing ? cp.iban : credit.iban, bankTransactionCode: cp.code,
    });
    return id;
  }
}
