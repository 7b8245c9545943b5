/**
 * The port to the core banking system, declared by its consumer. src/ledger/ is the embedded
 * default; a bank plugs in its own core by implementing this interface in src/app/core-banking.ts.
 * Write methods take the caller's transaction so the embedded ledger books atomically with the
 * status change; an external adapter must instead be idempotent by paymentId.
 */
import type { Tx } from "../kernel/ports.js";

export type AccountStatus = "enabled" | "blocked" | "deleted";

export interface BankAccount {
  id: string;
  iban: string;
  currency: string;
  /** The holder: a PSU, or a corporate (Corporate.id) whose users act on it under a mandate. */
  psuId: string;
  ownerName: string | null;
  name: string | null;
  product: string | null;
  cashAccountType: string | null;
  status: AccountStatus;
  usage: string | null;
  bic: string | null;
  /** How many different users must authorise a payment or consent on it (multi-level SCA). */
  signaturesRequired: number;
}

/** A company, as a TPP names it with PSU-Corporate-ID; its users are PSUs with a login each. */
export interface Corporate { id: string; corporateId: string; name: string }

/**
 * How a PSU may act on an account: its holder; a user of the holding company who may sign, or
 * one who may only see what it holds.
 */
export type AccountRight = "holder" | "signer" | "viewer";

export type BalanceType = "closingBooked" | "interimAvailable" | "expected";

export interface Balance {
  balanceType: BalanceType;
  amountMinor: bigint;
  currency: string;
  referenceDate: string;
  lastChangeDateTime: string | null;
  /** Set on card balances only: whether the amount adds the card's unused credit limit. */
  creditLimitIncluded?: boolean;
}

/** A credit card account: its balance goes below zero down to minus its credit limit. */
export interface CardAccount {
  id: string;
  maskedPan: string;
  currency: string;
  psuId: string;
  ownerName: string | null;
  name: string | null;
  product: string | null;
  status: AccountStatus;
  usage: string | null;
  creditLimitMinor: bigint;
}

/** A booked card transaction: the transfer's leg plus what the card acceptor reported. */
export interface CardTransaction extends BookedTransaction {
  maskedPan: string;
  /** The day of the purchase, before its booking. */
  transactionDate: string;
  acceptorTransactionDateTime: string | null;
  merchantCategoryCode: string | null;
  cardAcceptorId: string | null;
  cardAcceptorCity: string | null;
  cardAcceptorCountry: string | null;
  /** The amount in the merchant's currency where it differs from the card's. */
  original: { amountMinor: bigint; currency: string; exchangeRate: string } | null;
}

export interface CardStatementPage {
  transactions: CardTransaction[]; page: number; pageCount: number;
}

/** How a TPP names a card: by its masked PAN or, for funds confirmation, its full PAN. */
export type CardReference = { maskedPan: string } | { pan: string };

/** What a transaction moves and between whom; signed: negative leaves the account. */
export interface TransactionParties {
  amountMinor: bigint;
  currency: string;
  creditorName: string | null;
  creditorIban: string | null;
  debtorName: string | null;
  debtorIban: string | null;
  remittance: string | null;
  bankTransactionCode: string | null;
}

/** One booked leg on a customer account. */
export interface BookedTransaction extends TransactionParties {
  transactionId: string;
  entryReference: string;
  endToEndId: string | null;
  bookingDate: string;
  valueDate: string;
  balanceAfterMinor: bigint;
}

/** Announced but not booked yet (a card authorisation, a direct debit). */
export interface PendingTransaction extends TransactionParties {
  transactionId: string;
  transactionDate: string;
}

/** Booked transactions of one account, oldest first, cut into pages numbered from 0. */
export interface StatementQuery {
  dateFrom: string | null;
  dateTo: string;
  /** Only entries after this entryReference (Berlin Group's delta access). */
  entryReferenceFrom: string | null;
  page: number;
  pageSize: number;
}

export interface StatementPage {
  transactions: BookedTransaction[]; page: number; pageCount: number;
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
  /** findAccountByIban with the amount availableBalance answers, in one lookup. */
  findAccountWithAvailable(tx: Tx, iban: string):
    Promise<{ account: BankAccount; availableMinor: bigint } | undefined>;
  getAccount(tx: Tx, accountId: string): Promise<BankAccount | undefined>;
  /** The accounts of `accountIds` that exist, in any order; one lookup for an account list. */
  getAccounts(tx: Tx, accountIds: readonly string[]): Promise<BankAccount[]>;
  listAccountsOfPsu(tx: Tx, psuId: string): Promise<BankAccount[]>;
  findCorporate(tx: Tx, corporateId: string): Promise<Corporate | undefined>;
  /** The accounts of the companies whose user `psuId` is, with the PSU's right on each. */
  listMandatedAccounts(tx: Tx, psuId: string):
    Promise<(BankAccount & { right: AccountRight })[]>;
  /** The PSU's right on an account; undefined when it may not act on it at all. */
  rightOn(tx: Tx, psuId: string, account: BankAccount): Promise<AccountRight | undefined>;
  balances(tx: Tx, accountId: string): Promise<Balance[]>;
  /** The amount balances() reports as interimAvailable, without the others' lookups. */
  availableBalance(tx: Tx, accountId: string): Promise<bigint | undefined>;
  /** What a payment may take now: the available balance plus any overdraft the bank allows. */
  spendableBalance(tx: Tx, accountId: string): Promise<bigint | undefined>;
  statement(tx: Tx, accountId: string, query: StatementQuery): Promise<StatementPage>;
  transaction(
    tx: Tx, accountId: string, transactionId: string,
  ): Promise<BookedTransaction | undefined>;
  /**
   * The leg on `accountId` of the payment booked under `bookingId` (executePayment's paymentId),
   * with the balance after it; undefined while not booked.
   */
  bookingOf(tx: Tx, accountId: string, bookingId: string): Promise<BookedTransaction | undefined>;
  /** Pending transactions of an account or card, oldest first; their sums are in the balances. */
  pending(tx: Tx, accountId: string): Promise<PendingTransaction[]>;
  getCardAccount(tx: Tx, accountId: string): Promise<CardAccount | undefined>;
  findCardAccount(tx: Tx, reference: CardReference): Promise<CardAccount | undefined>;
  listCardAccountsOfPsu(tx: Tx, psuId: string): Promise<CardAccount[]>;
  /** closingBooked and expected as the sum of postings; interimAvailable adds the unused limit. */
  cardBalances(tx: Tx, accountId: string): Promise<Balance[]>;
  cardStatement(tx: Tx, accountId: string, query: StatementQuery): Promise<CardStatementPage>;
  /** Books the payment at once or refuses it; never books one paymentId twice. */
  executePayment(tx: Tx, order: PaymentOrder): Promise<ExecutionOutcome>;
}

export interface NewAccount {
  psuId: string;
  ownerName: string;
  currency: string;
  product: string;
  name: string | null;
}

/**
 * The operator's tools of the embedded core (opening accounts, test money). A bank's own core
 * has its own back office and does not implement this port.
 */
export interface CoreAdministration {
  openAccount(tx: Tx, account: NewAccount): Promise<BankAccount>;
  setAccountStatus(tx: Tx, accountId: string, status: AccountStatus): Promise<void>;
  /** Books money from (credit) or to (debit) the bank's equity, e.g. test money in the sandbox. */
  adjustBalance(
    tx: Tx, accountId: string, direction: "credit" | "debit", amountMinor: bigint, text: string,
  ): Promise<ExecutionOutcome>;
}
