/**
 * Double-entry book-keeping as pure functions over account snapshots: no I/O, no clock.
 *
 * Guarantees (checked after every step of test/ledger/model.test.ts):
 * - every transfer debits one account and credits another by the same positive amount, so the
 *   sum of all debits equals the sum of all credits per currency;
 * - an account flagged debitsMustNotExceedCredits never has debits above its credits plus the
 *   overdraft the caller grants it (0 unless the bank's settings allow one);
 * - transfers and entries are immutable: a booking only appends;
 * - an account's balance after its n-th entry equals the sum of its first n entries.
 * Customer deposits are the bank's liabilities, hence credit-normal: balance = credits − debits.
 */
import { assert } from "../lib/assert.js";
import type { EntryRecord, LedgerAccountRecord } from "../store/ledger.js";

export type TransferRefusal =
  | "accounts_must_be_different" | "currency_mismatch" | "account_blocked" | "exceeds_credits";

export interface Booking {
  debit: LedgerAccountRecord;
  credit: LedgerAccountRecord;
  entries: [EntryRecord, EntryRecord];
}

export function bookedBalance(account: LedgerAccountRecord): bigint {
  return account.creditsPosted - account.debitsPosted;
}

export function availableBalance(account: LedgerAccountRecord): bigint {
  return account.creditsPosted - account.debitsPosted - account.debitsPending;
}

/** Checks in precedence order; the first rule broken is the answer. */
export function refuseTransfer(
  debit: LedgerAccountRecord, credit: LedgerAccountRecord, amount: bigint, overdraft = 0n,
): TransferRefusal | null {
  assert(amount > 0n, "a transfer amount is positive");
  if (debit.id === credit.id) return "accounts_must_be_different";
  if (debit.currency !== credit.currency) return "currency_mismatch";
  if (debit.status !== "enabled" || credit.status !== "enabled") return "account_blocked";
  if (debit.debitsMustNotExceedCredits && availableBalance(debit) + overdraft < amount) {
    return "exceeds_credits";
  }
  return null;
}

/** Applies a transfer that refuseTransfer accepted: new snapshots plus the two entries. */
export function postTransfer(
  debit: LedgerAccountRecord, credit: LedgerAccountRecord, amount: bigint,
  transfer: { id: string; bookingDate: string; overdraft?: bigint },
): Booking {
  const refusal = refuseTransfer(debit, credit, amount, transfer.overdraft);
  assert(refusal === null, "postTransfer after a refusal");
  const debited = {
    ...debit, debitsPosted: debit.debitsPosted + amount, entryCount: debit.entryCount + 1n,
  };
  const credited = {
    ...credit, creditsPosted: credit.creditsPosted + amount, entryCount: credit.entryCount + 1n,
  };
  const entry = (account: LedgerAccountRecord, signed: bigint): EntryRecord => ({
    accountId: account.id, seq: account.entryCount, transferId: transfer.id, amount: signed,
    balanceAfter: bookedBalance(account), bookingDate: transfer.bookingDate,
  });
  const booking: Booking = {
    debit: debited, credit: credited, entries: [entry(debited, -amount), entry(credited, amount)],
  };
  assert(
    bookedBalance(debited) + bookedBalance(credited)
      === bookedBalance(debit) + bookedBalance(credit),
    "a transfer moves money, it never creates it",
  );
  return booking;
}

/** A new account with zero counters; customer deposits may never go below zero. */
export function newLedgerAccount(
  id: string, kind: LedgerAccountRecord["kind"], over: Partial<LedgerAccountRecord>,
  createdAt: string,
): LedgerAccountRecord {
  return {
    id, iban: null, psuId: null, kind, currency: "EUR", name: null, product: null,
    cashAccountType: null, status: "enabled", usage: null, bic: null, ownerName: null,
    debitsPosted: 0n, creditsPosted: 0n, debitsPending: 0n, creditsPending: 0n,
    debitsMustNotExceedCredits: kind === "customer", entryCount: 0n, createdAt,
    corporateId: null, signaturesRequired: 1, ...over,
  };
}
