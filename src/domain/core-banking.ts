/**
 * The port to the core banking system, declared by its consumer. src/ledger/ is the embedded
 * default; a bank plugs in its own core by implementing this interface in app.ts, nothing else.
 * Write methods take the caller's transaction so the embedded ledger books atomically with the
 * status change; an external adapter must instead be idempotent by paymentId.
 */
import type { Tx } from "../store/db.js";

export type AccountStatus = "enabled" | "blocked" | "deleted";

export interface BankAccount {
  id: string;
  iban: string;
  currency: string;
  psuId: string;
  ownerName: string | null;
  name: string | null;
  product: string | null;
  cashAccountType: string | null;
  status: AccountStatus;
  usage: string | null;
  bic: string | null;
}

export type BalanceType = "closingBooked" | "interimAvailable" | "expected";

export interface Balance {
  balanceType: BalanceType;
  amountMinor: bigint;
  currency: string;
  referenceDate: string;
  lastChangeDateTime: string | null;
}

export interface PaymentOrder {
  paymentId: string;
  debtorAccountId: string;
  creditorIban: string;
  creditorName: string;
  debtorName: string | null;
  amountMinor: bigint;
  currency: string;
  remittance: string | null;
  endToEndId: string | null;
}

/** Why the core refused to book, in precedence order: the first that applies is reported. */
export type RejectionReason =
  | "account_unknown" | "account_blocked" | "currency_mismatch" | "same_account"
  | "insufficient_funds" | "limit_exceeded";

export type ExecutionOutcome =
  | { status: "booked"; transferId: string }
  | { status: "already_booked"; transferId: string }
  | { status: "rejected"; reason: RejectionReason };

export interface CoreBanking {
  findAccountByIban(tx: Tx, iban: string): Promise<BankAccount | undefined>;
  getAccount(tx: Tx, accountId: string): Promise<BankAccount | undefined>;
  listAccountsOfPsu(tx: Tx, psuId: string): Promise<BankAccount[]>;
  balances(tx: Tx, accountId: string): Promise<Balance[]>;
  /** Books the payment at once or refuses it; never books one paymentId twice. */
  executePayment(tx: Tx, order: PaymentOrder): Promise<ExecutionOutcome>;
}
