/**
 * Account information in Berlin Group NextGenPSD2 1.3 shapes (the spec does not show them), in
 * the spec's dialect: decimal-string amounts, plain-string links, absent values as null.
 */
import type {
  CardAccountView, CardTransactionsView, TransactionsView,
} from "../domain/consent/accounts.js";
import type { ConsentDetails } from "../domain/consent/registration.js";
import type {
  BankAccount, BookedTransaction, CardAccount, CardTransaction, PendingTransaction,
  TransactionParties,
} from "../domain/account-information/core-banking.js";
import type { Payment } from "../domain/payment/model.js";
import { formatAmount } from "../lib/money.js";
import { presentBalance, presentStandingOrder } from "./present.js";

export function presentAccountReference(account: BankAccount) {
  return { iban: account.iban, currency: account.currency };
}

const reference = (iban: string | null) => (iban ? { iban } : null);

function presentParties(t: TransactionParties) {
  return {
    transactionAmount: { currency: t.currency, amount: formatAmount(t.amountMinor, t.currency) },
    creditorName: t.creditorName,
    creditorAccount: reference(t.creditorIban),
    debtorName: t.debtorName,
    debtorAccount: reference(t.debtorIban),
    remittanceInformationUnstructured: t.remittance,
    bankTransactionCode: t.bankTransactionCode,
  };
}

/**
 * Presented once per entry: the ledger hands out the same frozen object for a booked entry on
 * every page (ledger/statements.ts), and an entry never changes.
 */
const presented = new WeakMap<BookedTransaction, ReturnType<typeof presentBooked>>();

export function presentTransaction(t: BookedTransaction) {
  let shown = presented.get(t);
  if (!shown) {
    shown = presentBooked(t);
    if (Object.isFrozen(t)) presented.set(t, shown);
  }
  return shown;
}

function presentBooked(t: BookedTransaction) {
  return {
    transactionId: t.transactionId,
    entryReference: t.entryReference,
    endToEndId: t.endToEndId,
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    ...presentParties(t),
    balanceAfterTransaction: {
      balanceType: "interimBooked",
      balanceAmount: {
        currency: t.currency, amount: formatAmount(t.balanceAfterMinor, t.currency),
      },
    },
  };
}

/** A standing order in an account report's information list (Berlin Group transactionDetails). */
function presentStandingOrderEntry(p: Payment) {
  return {
    transactionId: p.id,
    endToEndId: p.endToEndId,
    transactionAmount: { currency: p.currency, amount: formatAmount(p.amountMinor, p.currency) },
    creditorName: p.creditorName,
    creditorAccount: { iban: p.creditorAccount.iban },
    remittanceInformationUnstructured: p.remittance,
    additionalInformationStructured: p.standingOrder
      && { standingOrderDetails: presentStandingOrder(p.standingOrder) },
  };
}

/**
 * Page links keep the TPP's own query and change only pageIndex. A deltaList request always
 * starts after what the consent was given last, so its next page is the same request again.
 */
function pageLinks(accountPath: string, query: Record<string, string | undefined>,
  { page, pageCount }: { page: number; pageCount: number }, deltaList: boolean) {
  const at = (index: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && name !== "pageIndex") params.set(name, value);
    }
    params.set("pageIndex", String(index));
    return `${accountPath}/transactions?${params.toString()}`;
  };
  if (deltaList) {
    return {
      account: accountPath, first: at(0), next: pageCount > 1 ? at(0) : null,
      previous: null, last: null,
    };
  }
  return {
    account: accountPath,
    first: at(0),
    next: page + 1 < pageCount ? at(page + 1) : null,
    previous: page > 0 ? at(page - 1) : null,
    last: at(pageCount - 1),
  };
}

export function presentTransactions(view: TransactionsView, accountPath: string,
  query: Record<string, string | undefined>) {
  const { bookingStatus } = view.query;
  const booked = view.page.transactions.map(presentTransaction);
  const information = bookingStatus === "information";
  return {
    account: presentAccountReference(view.account),
    transactions: {
      booked: bookingStatus === "pending" || information ? null : booked,
      pending: bookingStatus === "booked" || information ? null : view.pending.map(presentPending),
      ...(information ? { information: view.standingOrders.map(presentStandingOrderEntry) } : {}),
      _links: pageLinks(accountPath, query, view.page, view.query.deltaList),
    },
    balances: view.balances ? view.balances.map(presentBalance) : null,
  };
}

/** A pending transaction has no booking date, entry reference or balance after it yet. */
export function presentPending(t: PendingTransaction) {
  return {
    transactionId: t.transactionId,
    endToEndId: null,
    valueDate: t.transactionDate,
    ...presentParties(t),
  };
}

/** Berlin Group caps cardTransactionId at 35 characters: a UUID without its dashes is 32. */
const cardTransactionId = (transactionId: string) => transactionId.replace(/-/g, "");

function presentPendingCardTransaction(t: PendingTransaction, maskedPan: string) {
  return {
    cardTransactionId: cardTransactionId(t.transactionId),
    transactionDate: t.transactionDate,
    transactionAmount: money(t.amountMinor, t.currency),
    maskedPAN: maskedPan,
    transactionDetails: t.remittance,
    proprietaryBankTransactionCode: t.bankTransactionCode,
  };
}

/** The access as granted after the PSU's selection; the flags the TPP asked for are kept. */
export function presentConsent({ consent, granted, lastActionDate }: ConsentDetails) {
  const refs = (pick: (g: ConsentDetails["granted"][number]) => boolean) =>
    granted.filter(pick).map((g) => ({ ...g.reference, currency: g.currency }));
  const { availableAccounts, availableAccountsWithBalance, allPsd2 } = consent.access;
  return {
    access: {
      accounts: refs(() => true),
      balances: refs((g) => g.balances),
      transactions: refs((g) => g.transactions),
      availableAccounts, availableAccountsWithBalance, allPsd2,
    },
    recurringIndicator: consent.recurringIndicator,
    validUntil: consent.validUntil,
    frequencyPerDay: consent.frequencyPerDay,
    lastActionDate,
    consentStatus: consent.status,
  };
}

const money = (amountMinor: bigint, currency: string) =>
  ({ currency, amount: formatAmount(amountMinor, currency) });

/**
 * Berlin Group's cardAccountDetails. debitAccounting is false: debits are negative, so each
 * balance is the plain sum of the listed amounts.
 */
export function presentCardAccount({ account, balances, withOwnerName }: CardAccountView) {
  return {
    resourceId: account.id,
    maskedPan: account.maskedPan,
    currency: account.currency,
    ...(withOwnerName ? { ownerName: account.ownerName } : {}),
    name: account.name,
    product: account.product,
    debitAccounting: false,
    status: account.status,
    usage: account.usage,
    details: null,
    creditLimit: money(account.creditLimitMinor, account.currency),
    balances: balances ? balances.map(presentBalance) : null,
    _links: null,
  };
}

export function presentCardReference(account: CardAccount) {
  return { maskedPan: account.maskedPan, currency: account.currency };
}

export function presentCardTransaction(t: CardTransaction) {
  return {
    cardTransactionId: cardTransactionId(t.transactionId),
    terminalId: null,
    transactionDate: t.transactionDate,
    acceptorTransactionDateTime: t.acceptorTransactionDateTime,
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: money(t.amountMinor, t.currency),
    currencyExchange: t.original && [{
      sourceCurrency: t.original.currency, exchangeRate: t.original.exchangeRate,
      unitCurrency: t.currency, targetCurrency: t.currency, quotationDate: t.transactionDate,
    }],
    originalAmount: t.original && money(t.original.amountMinor, t.original.currency),
    cardAcceptorId: t.cardAcceptorId,
    cardAcceptorAddress: t.cardAcceptorCity === null ? null
      : { townName: t.cardAcceptorCity, country: t.cardAcceptorCountry },
    merchantCategoryCode: t.merchantCategoryCode,
    maskedPAN: t.maskedPan,
    transactionDetails: t.remittance ?? t.creditorName,
    invoiced: null,
    proprietaryBankTransactionCode: t.bankTransactionCode,
  };
}

/** Berlin Group names the report's link to its card account cardAccount. */
function cardLinks({ account, ...pages }: ReturnType<typeof pageLinks>) {
  return { cardAccount: account, ...pages };
}

export function presentCardTransactions(view: CardTransactionsView, accountPath: string,
  query: Record<string, string | undefined>) {
  const { bookingStatus } = view.query;
  return {
    cardAccount: presentCardReference(view.account),
    debitAccounting: false,
    cardTransactions: {
      booked: bookingStatus === "pending" ? null
        : view.page.transactions.map(presentCardTransaction),
      pending: bookingStatus === "booked" ? null
        : view.pending.map((t) => presentPendingCardTransaction(t, view.account.maskedPan)),
      _links: cardLinks(pageLinks(accountPath, query, view.page, view.query.deltaList)),
    },
    balances: view.balances ? view.balances.map(presentBalance) : null,
  };
}
