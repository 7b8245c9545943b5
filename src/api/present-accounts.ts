/**
 * Account information in Berlin Group NextGenPSD2 1.3 shapes (the spec does not show them), in
 * the spec's dialect: decimal-string amounts, plain-string links, absent values as null.
 */
import type { TransactionsView } from "../domain/accounts.js";
import type { ConsentDetails } from "../domain/consents.js";
import type { BankAccount, BookedTransaction } from "../domain/core-banking.js";
import { formatAmount } from "../lib/money.js";
import { presentBalance } from "./present.js";

export function presentAccountReference(account: BankAccount) {
  return { iban: account.iban, currency: account.currency };
}

const reference = (iban: string | null) => (iban ? { iban } : null);

export function presentTransaction(t: BookedTransaction) {
  return {
    transactionId: t.transactionId,
    entryReference: t.entryReference,
    endToEndId: t.endToEndId,
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: { currency: t.currency, amount: formatAmount(t.amountMinor, t.currency) },
    creditorName: t.creditorName,
    creditorAccount: reference(t.creditorIban),
    debtorName: t.debtorName,
    debtorAccount: reference(t.debtorIban),
    remittanceInformationUnstructured: t.remittance,
    bankTransactionCode: t.bankTransactionCode,
    balanceAfterTransaction: {
      balanceType: "interimBooked",
      balanceAmount: { currency: t.currency, amount: formatAmount(t.balanceAfterMinor, t.currency) },
    },
  };
}

/** Page links keep the TPP's own query and change only pageIndex. */
function pageLinks(accountPath: string, query: Record<string, string | undefined>, page: number, pageCount: number) {
  const at = (index: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && name !== "pageIndex") params.set(name, value);
    }
    params.set("pageIndex", String(index));
    return `${accountPath}/transactions?${params.toString()}`;
  };
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
  return {
    account: presentAccountReference(view.account),
    transactions: {
      booked: bookingStatus === "pending" ? null : booked,
      pending: bookingStatus === "booked" ? null : [],
      _links: pageLinks(accountPath, query, view.page.page, view.page.pageCount),
    },
    balances: view.balances ? view.balances.map(presentBalance) : null,
  };
}

/** The access as granted after the PSU's selection; the flags the TPP asked for are kept. */
export function presentConsent({ consent, granted, lastActionDate }: ConsentDetails) {
  const refs = (pick: (g: ConsentDetails["granted"][number]) => boolean) =>
    granted.filter(pick).map((g) => ({ iban: g.iban, currency: g.currency }));
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
