/**
 * The embedded core banking system: implements the domain's CoreBanking port over the store,
 * booking inside the caller's transaction. It knows accounts and transfers, never consents or TPPs.
 */
import type {
  BankAccount, Balance, CoreBanking, ExecutionOutcome, PaymentOrder, RejectionReason,
} from "../domain/core-banking.js";
import { dateInZone, type Clock } from "../lib/clock.js";
import { newUuid } from "../lib/ids.js";
import type { Tx } from "../store/db.js";
import type { LedgerAccountRecord, LedgerRepository } from "../store/ledger.js";
import { availableBalance, bookedBalance, postTransfer, refuseTransfer, type TransferRefusal } from "./book.js";

export interface LedgerLimits {
  /** How far a customer account may go below zero (minor units; 0: not at all). */
  overdraftMinor: bigint;
  /** What one PSU may pay out by payments per booking day over all accounts; null: no limit. */
  dailyPaymentLimitMinor: bigint | null;
}

export interface EmbeddedLedgerOptions {
  ledger: LedgerRepository; clock: Clock; timeZone: string; limits?: LedgerLimits;
}

const NO_LIMITS: LedgerLimits = { overdraftMinor: 0n, dailyPaymentLimitMinor: null };

function toBankAccount(a: LedgerAccountRecord): BankAccount | undefined {
  if (a.kind !== "customer" || a.iban === null || a.psuId === null) return undefined;
  return {
    id: a.id, iban: a.iban, currency: a.currency, psuId: a.psuId, ownerName: a.ownerName,
    name: a.name, product: a.product, cashAccountType: a.cashAccountType, status: a.status,
    usage: a.usage, bic: a.bic,
  };
}

const REASONS: Record<TransferRefusal, RejectionReason> = {
  accounts_must_be_different: "same_account",
  currency_mismatch: "currency_mismatch",
  account_blocked: "account_blocked",
  exceeds_credits: "insufficient_funds",
};

export function createEmbeddedLedger(options: EmbeddedLedgerOptions): CoreBanking {
  const { ledger, clock, timeZone, limits = NO_LIMITS } = options;
  /** Locks both accounts in id order so that two opposite transfers cannot deadlock. */
  async function lockPair(tx: Tx, a: string, b: string) {
    const [first, second] = a < b ? [a, b] : [b, a];
    const locked = new Map<string, LedgerAccountRecord | undefined>();
    locked.set(first, await ledger.getAccount(tx, first, true));
    locked.set(second, await ledger.getAccount(tx, second, true));
    return { debit: locked.get(a), credit: locked.get(b) };
  }

  async function creditAccountFor(tx: Tx, order: PaymentOrder): Promise<string | undefined> {
    const own = await ledger.findAccountByIban(tx, order.creditorIban);
    if (own) return own.id;
    return (await ledger.findAccountByKind(tx, "clearing", order.currency))?.id;
  }

  async function overDailyLimit(
    tx: Tx, debit: LedgerAccountRecord, amount: bigint, bookingDate: string,
  ): Promise<boolean> {
    if (limits.dailyPaymentLimitMinor === null || debit.psuId === null) return false;
    const accounts = await ledger.accountsOfPsu(tx, debit.psuId);
    const paid = await ledger.paymentDebitsOn(tx, accounts.map((a) => a.id), bookingDate);
    return paid + amount > limits.dailyPaymentLimitMinor;
  }

  async function executePayment(tx: Tx, order: PaymentOrder): Promise<ExecutionOutcome> {
    const existing = await ledger.transferOfPayment(tx, order.paymentId);
    if (existing) return { status: "already_booked", transferId: existing };
    const creditId = await creditAccountFor(tx, order);
    if (!creditId) return { status: "rejected", reason: "account_unknown" };
    const { debit, credit } = await lockPair(tx, order.debtorAccountId, creditId);
    if (!debit || !credit) return { status: "rejected", reason: "account_unknown" };
    if (debit.currency !== order.currency) return { status: "rejected", reason: "currency_mismatch" };
    const overdraft = debit.kind === "customer" ? limits.overdraftMinor : 0n;
    const refusal = refuseTransfer(debit, credit, order.amountMinor, overdraft);
    if (refusal) return { status: "rejected", reason: REASONS[refusal] };
    const now = clock.now();
    const bookingDate = dateInZone(now, timeZone);
    if (await overDailyLimit(tx, debit, order.amountMinor, bookingDate)) {
      return { status: "rejected", reason: "limit_exceeded" };
    }
    const id = newUuid();
    const booking = postTransfer(debit, credit, order.amountMinor, { id, bookingDate, overdraft });
    await ledger.insertTransfer(tx, {
      id, debitAccountId: debit.id, creditAccountId: credit.id, amount: order.amountMinor,
      currency: order.currency, code: "payment", paymentId: order.paymentId,
      bookedAt: now.toISOString(), bookingDate, valueDate: bookingDate,
      endToEndId: order.endToEndId, remittance: order.remittance, debtorName: order.debtorName,
      debtorIban: debit.iban, creditorName: order.creditorName, creditorIban: order.creditorIban,
      bankTransactionCode: "PMNT-ICDT-ESCT",
    }, booking.entries);
    await ledger.saveCounters(tx, booking.debit);
    await ledger.saveCounters(tx, booking.credit);
    return { status: "booked", transferId: id };
  }

  async function balances(tx: Tx, accountId: string): Promise<Balance[]> {
    const account = await ledger.getAccount(tx, accountId);
    if (!account) return [];
    const referenceDate = dateInZone(clock.now(), timeZone);
    const of = (balanceType: Balance["balanceType"], amountMinor: bigint): Balance => ({
      balanceType, amountMinor, currency: account.currency, referenceDate, lastChangeDateTime: null,
    });
    return [of("closingBooked", bookedBalance(account)), of("interimAvailable", availableBalance(account))];
  }

  return {
    async findAccountByIban(tx, iban) {
      const a = await ledger.findAccountByIban(tx, iban);
      return a && toBankAccount(a);
    },
    async getAccount(tx, id) {
      const a = await ledger.getAccount(tx, id);
      return a && toBankAccount(a);
    },
    async listAccountsOfPsu(tx, psuId) {
      return (await ledger.accountsOfPsu(tx, psuId)).flatMap((a) => toBankAccount(a) ?? []);
    },
    balances,
    executePayment,
  };
}
