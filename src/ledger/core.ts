/**
 * The embedded core banking system: implements the domain's CoreBanking port over the store,
 * booking inside the caller's transaction. It knows accounts and transfers, never consents or TPPs.
 */
import { randomInt } from "node:crypto";
import type {
  AccountRight, BankAccount, CoreAdministration, CoreBanking, ExecutionOutcome, PaymentOrder,
  RejectionReason,
} from "../domain/account-information/core-banking.js";
import { dateInZone, type Clock } from "../lib/clock.js";
import { makeIban } from "../lib/iban.js";
import { newUuid } from "../lib/ids.js";
import type { ReadCache } from "../store/cached-reads.js";
import type { Tx } from "../store/db.js";
import type { LedgerAccountRecord, LedgerRepository, TransferRecord } from "../store/ledger.js";
import {
  availableBalance, newLedgerAccount, postTransfer, refuseTransfer, type TransferRefusal,
} from "./book.js";
import { createCardAccounts } from "./cards.js";
import { createStatements } from "./statements.js";

export interface LedgerLimits {
  /** How far a customer account may go below zero (minor units; 0: not at all). */
  overdraftMinor: bigint;
  /** What one PSU may pay out by payments per booking day over all accounts; null: no limit. */
  dailyPaymentLimitMinor: bigint | null;
}

export interface EmbeddedLedgerOptions {
  ledger: LedgerRepository;
  clock: Clock;
  timeZone: string;
  /** Where the accounts it opens live: German IBANs under this bank code, with the bank's BIC. */
  bankCode: string;
  bic: string;
  limits?: LedgerLimits;
  /**
   * The store's cache for the account rows and balances every read asks for (Store.cached); none
   * by default.
   */
  cached?: ReadCache;
  /**
   * True where `tx` reads only what is committed: statements keep the entries read there; by
   * default none.
   */
  committed?: (tx: Tx) => boolean;
}

const NO_LIMITS: LedgerLimits = { overdraftMinor: 0n, dailyPaymentLimitMinor: null };

function toBankAccount(a: LedgerAccountRecord): BankAccount | undefined {
  const holder = a.psuId ?? a.corporateId;
  if (a.kind !== "customer" || a.iban === null || holder === null) return undefined;
  return {
    id: a.id, iban: a.iban, currency: a.currency, psuId: holder, ownerName: a.ownerName,
    name: a.name, product: a.product, cashAccountType: a.cashAccountType, status: a.status,
    usage: a.usage, bic: a.bic, signaturesRequired: a.signaturesRequired,
  };
}

const REASONS: Record<TransferRefusal, RejectionReason> = {
  accounts_must_be_different: "same_account",
  currency_mismatch: "currency_mismatch",
  account_blocked: "account_blocked",
  exceeds_credits: "insufficient_funds",
};

type TransferDetails = Omit<TransferRecord,
  "id" | "debitAccountId" | "creditAccountId" | "amount" | "currency" | "bookedAt"
  | "bookingDate" | "valueDate" | "debtorIban">;

export function createEmbeddedLedger(
  options: EmbeddedLedgerOptions,
): CoreBanking & CoreAdministration {
  const { ledger, clock, timeZone } = options;
  const cached = options.cached ?? ((_tx, _key, read) => read());
  const statements = createStatements({
    ledger, clock, timeZone, cached, committed: options.committed,
  });
  const bookings = createBookings(options);
  return {
    ...accountReads(ledger, cached, options.limits ?? NO_LIMITS),
    executePayment: bookings.executePayment,
    ...accountAdministration(options, bookings.bookTransfer),
    ...statements,
    ...createCardAccounts(ledger, statements),
  };
}

/** Locks both accounts in id order so that two opposite transfers cannot deadlock. */
async function lockPair(ledger: LedgerRepository, tx: Tx, a: string, b: string) {
  const [first, second] = a < b ? [a, b] : [b, a];
  const locked = new Map<string, LedgerAccountRecord | undefined>();
  locked.set(first, await ledger.getAccount(tx, first, true));
  locked.set(second, await ledger.getAccount(tx, second, true));
  return { debit: locked.get(a), credit: locked.get(b) };
}

async function creditAccountFor(
  ledger: LedgerRepository, tx: Tx, order: PaymentOrder,
): Promise<string | undefined> {
  const own = await ledger.findAccountByIban(tx, order.creditorIban);
  if (own) return own.id;
  return (await ledger.findAccountByKind(tx, "clearing", order.currency))?.id;
}

/** Booking transfers: payments, and through bookTransfer the operator's adjustments. */
function createBookings(options: EmbeddedLedgerOptions) {
  const { ledger, clock, timeZone, limits = NO_LIMITS } = options;

  async function overDailyLimit(
    tx: Tx, debit: LedgerAccountRecord, amount: bigint, bookingDate: string,
  ): Promise<boolean> {
    if (limits.dailyPaymentLimitMinor === null || debit.psuId === null) return false;
    const accounts = await ledger.accountsOfPsu(tx, debit.psuId);
    const paid = await ledger.paymentDebitsOn(tx, accounts.map((a) => a.id), bookingDate);
    return paid + amount > limits.dailyPaymentLimitMinor;
  }

  /**
   * Locks, checks and books one transfer with its two entries, in the caller's transaction. The
   * daily payment limit applies to payments only, not to the operator's adjustments.
   */
  async function bookTransfer(
    tx: Tx, debitId: string, creditId: string, amount: bigint, details: TransferDetails,
    currency: string,
  ): Promise<ExecutionOutcome> {
    const { debit, credit } = await lockPair(ledger, tx, debitId, creditId);
    if (!debit || !credit) return { status: "rejected", reason: "account_unknown" };
    if (debit.currency !== currency) return { status: "rejected", reason: "currency_mismatch" };
    const overdraft = debit.kind === "customer" ? limits.overdraftMinor : 0n;
    const refusal = refuseTransfer(debit, credit, amount, overdraft);
    if (refusal) return { status: "rejected", reason: REASONS[refusal] };
    const now = clock.now();
    const bookingDate = dateInZone(now, timeZone);
    if (details.paymentId !== null && await overDailyLimit(tx, debit, amount, bookingDate)) {
      return { status: "rejected", reason: "limit_exceeded" };
    }
    const id = newUuid();
    const booking = postTransfer(debit, credit, amount, { id, bookingDate, overdraft });
    await ledger.insertTransfer(tx, {
      ...details, id, debitAccountId: debit.id, creditAccountId: credit.id, amount, currency,
      bookedAt: now.toISOString(), bookingDate, valueDate: bookingDate, debtorIban: debit.iban,
    }, booking.entries);
    await ledger.saveCounters(tx, booking.debit);
    await ledger.saveCounters(tx, booking.credit);
    return { status: "booked", transferId: id };
  }

  async function executePayment(tx: Tx, order: PaymentOrder): Promise<ExecutionOutcome> {
    const existing = await ledger.transferOfPayment(tx, order.paymentId);
    if (existing) return { status: "already_booked", transferId: existing };
    const creditId = await creditAccountFor(ledger, tx, order);
    if (!creditId) return { status: "rejected", reason: "account_unknown" };
    return bookTransfer(tx, order.debtorAccountId, creditId, order.amountMinor, {
      code: "payment", paymentId: order.paymentId, endToEndId: order.endToEndId,
      remittance: order.remittance, debtorName: order.debtorName,
      creditorName: order.creditorName, creditorIban: order.creditorIban,
      bankTransactionCode: "PMNT-ICDT-ESCT",
    }, order.currency);
  }

  return { bookTransfer, executePayment };
}

/** The row asked for, whoever asked with it. */
const asIs = <R>(row: R | undefined) => row;

function accountReads(ledger: LedgerRepository, cached: ReadCache, limits: LedgerLimits) {
  // Each account asked for in a turn by any request joins one read of all (PostgreSQL).
  const byId = (tx: Tx, id: string) => cached(tx, `ledger-account:${id}`,
    () => ledger.getAccount(tx, id), { many: ledger.accountsWithIds, key: id, pick: asIs });
  const byIban = (tx: Tx, iban: string) => cached(tx, `ledger-account-iban:${iban}`,
    () => ledger.findAccountByIban(tx, iban),
    { many: ledger.accountsWithIbans, key: iban, pick: asIs });
  return {
    async findAccountByIban(tx: Tx, iban: string) {
      const a = await byIban(tx, iban);
      return a && toBankAccount(a);
    },
    async findAccountWithAvailable(tx: Tx, iban: string) {
      const a = await byIban(tx, iban);
      const account = a && toBankAccount(a);
      return account && { account, availableMinor: availableBalance(a!) };
    },
    async getAccount(tx: Tx, id: string) {
      const a = await byId(tx, id);
      return a && toBankAccount(a);
    },
    async getAccounts(tx: Tx, ids: readonly string[]) {
      const found = await Promise.all(ids.map((id) => byId(tx, id)));
      return found.flatMap((a) => (a && toBankAccount(a)) ?? []);
    },
    async availableBalance(tx: Tx, id: string) {
      const a = await byId(tx, id);
      return a && availableBalance(a);
    },
    async spendableBalance(tx: Tx, id: string) {
      const a = await byId(tx, id);
      return a && availableBalance(a) + (a.kind === "customer" ? limits.overdraftMinor : 0n);
    },
    async listAccountsOfPsu(tx: Tx, psuId: string) {
      return (await ledger.accountsOfPsu(tx, psuId)).flatMap((a) => toBankAccount(a) ?? []);
    },
    ...mandates(ledger),
  } satisfies Partial<CoreBanking>;
}

/** What the users of a company may do on its accounts (multi-level SCA). */
function mandates(ledger: LedgerRepository) {
  const rightOf = (maySign: boolean): AccountRight => (maySign ? "signer" : "viewer");
  return {
    async findCorporate(tx: Tx, corporateId: string) {
      const found = await ledger.findCorporate(tx, corporateId);
      return found && { id: found.id, corporateId: found.corporateId, name: found.name };
    },
    async listMandatedAccounts(tx: Tx, psuId: string) {
      return (await ledger.mandatedAccounts(tx, psuId)).flatMap(({ account, maySign }) => {
        const bank = toBankAccount(account);
        return bank ? [{ ...bank, right: rightOf(maySign) }] : [];
      });
    },
    async rightOn(tx: Tx, psuId: string, account: BankAccount) {
      if (account.psuId === psuId) return "holder";
      const maySign = await ledger.maySign(tx, account.psuId, psuId);
      return maySign === undefined ? undefined : rightOf(maySign);
    },
  } satisfies Partial<CoreBanking>;
}

/** The operator's side: opening accounts, blocking them, adjusting balances. */
function accountAdministration(
  options: EmbeddedLedgerOptions,
  bookTransfer: ReturnType<typeof createBookings>["bookTransfer"],
) {
  const { ledger, clock, bankCode, bic } = options;

  async function openEquity(tx: Tx, currency: string): Promise<LedgerAccountRecord> {
    const equity = newLedgerAccount(
      `equity-${currency.toLowerCase()}`, "equity", { currency, name: "Equity" },
      clock.now().toISOString());
    await ledger.insertAccount(tx, equity);
    return equity;
  }

  return {
    async openAccount(tx: Tx, account) {
      for (;;) {
        const accountNumber = randomInt(1_000_000_000, 10_000_000_000).toString();
        const iban = makeIban("DE", `${bankCode}${accountNumber}`);
        if (await ledger.findAccountByIban(tx, iban)) continue;
        const record = newLedgerAccount(newUuid(), "customer", {
          iban, psuId: account.psuId, ownerName: account.ownerName, currency: account.currency,
          product: account.product, name: account.name, usage: "PRIV", bic,
          cashAccountType: "CACC",
        }, clock.now().toISOString());
        await ledger.insertAccount(tx, record);
        return toBankAccount(record) as BankAccount;
      }
    },

    async setAccountStatus(tx: Tx, accountId, status) {
      await ledger.setStatus(tx, accountId, status);
    },

    async adjustBalance(tx: Tx, accountId, direction, amountMinor, text) {
      const account = await ledger.getAccount(tx, accountId);
      if (!account) return { status: "rejected", reason: "account_unknown" };
      const equity = await ledger.findAccountByKind(tx, "equity", account.currency)
        ?? await openEquity(tx, account.currency);
      const [debitId, creditId] = direction === "credit"
        ? [equity.id, accountId] : [accountId, equity.id];
      return bookTransfer(tx, debitId, creditId, amountMinor, {
        code: "adjustment", paymentId: null, endToEndId: null, remittance: text, debtorName: null,
        creditorName: null, creditorIban: null, bankTransactionCode: "ACMT-MDOP-OTHR",
      }, account.currency);
    },
  } satisfies Pick<CoreAdministration, "openAccount" | "setAccountStatus" | "adjustBalance">;
}
