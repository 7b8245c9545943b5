/**
 * Account information within a consent: only the accounts the PSU granted, balances and
 * transactions only where they were granted, every read through the access gate.
 */
import { dateInZone } from "../lib/clock.js";
import { createAccountAccess, type AccessRequest } from "./account-access.js";
import type { Balance, BankAccount, BookedTransaction, StatementPage } from "./core-banking.js";
import type { Consents } from "./consents.js";
import type { Deps } from "./deps.js";
import { resourceUnknown, Xs2aError } from "./errors.js";
import {
  applyHistoryWindow, readTransactionQuery, type TransactionQuery,
} from "./statement-query.js";

export interface AccountView { account: BankAccount; balances: Balance[] | null }

/** Who asks: the TPP, its Consent-ID, and whether the PSU is present (PSU-IP-Address). */
export interface Reader { tppId: string; consentId: string; psuInitiated: boolean }

export interface TransactionsView {
  account: BankAccount;
  query: TransactionQuery;
  page: StatementPage;
  balances: Balance[] | null;
}

export function createAccounts(deps: Deps, consents: Consents) {
  const { store, core, clock, settings } = deps;
  const access = createAccountAccess(deps, consents);

  type Kind = AccessRequest["kind"];
  const gate = (reader: Reader, accountId: string | null, endpoint: string, kind: Kind) =>
    access.authorise({ ...reader, accountId, endpoint, kind });

  async function accountOf(accountId: string): Promise<BankAccount> {
    const account = await core.getAccount(store.db, accountId);
    if (!account) throw resourceUnknown("account");
    return account;
  }

  function balanceRefused(): Xs2aError {
    return new Xs2aError("CONSENT_INVALID", "query",
      "This consent does not grant access to balances.", "withBalance");
  }

  /** Throws CONSENT_UNKNOWN / CONSENT_INVALID / CONSENT_EXPIRED / ACCESS_EXCEEDED. */
  async function listAccounts(reader: Reader, withBalance: boolean): Promise<AccountView[]> {
    const { granted } = await gate(reader, null, "accounts", "account");
    if (withBalance && !granted.some((g) => g.balances)) throw balanceRefused();
    const views: AccountView[] = [];
    for (const grant of granted) {
      const account = await core.getAccount(store.db, grant.accountId);
      if (!account) continue;
      const shown = withBalance && grant.balances;
      views.push({ account, balances: shown ? await core.balances(store.db, account.id) : null });
    }
    return views;
  }

  async function accountDetails(
    reader: Reader, accountId: string, withBalance: boolean,
  ): Promise<AccountView> {
    const { grant } = await gate(reader, accountId, "account", "account");
    if (withBalance && !grant?.balances) throw balanceRefused();
    const account = await accountOf(accountId);
    return { account, balances: withBalance ? await core.balances(store.db, accountId) : null };
  }

  async function accountBalances(reader: Reader, accountId: string): Promise<AccountView> {
    await gate(reader, accountId, "balances", "balances");
    const account = await accountOf(accountId);
    return { account, balances: await core.balances(store.db, accountId) };
  }

  /** Also FORMAT_ERROR, PARAMETER_NOT_SUPPORTED and PERIOD_INVALID for the query. */
  async function transactions(
    reader: Reader, accountId: string, query: Record<string, string | undefined>, withBalance: boolean,
  ): Promise<TransactionsView> {
    const now = clock.now();
    const today = dateInZone(now, settings.timeZone);
    const parsed = readTransactionQuery(query, today);
    const { consent, grant } = await gate(reader, accountId, "transactions", "transactions");
    if (withBalance && !grant?.balances) throw balanceRefused();
    const bounded = applyHistoryWindow(parsed, today, now, consent.authorisedAt);
    const account = await accountOf(accountId);
    const page = bounded.bookingStatus === "pending"
      ? { transactions: [], page: 0, pageCount: 1 }
      : await core.statement(store.db, accountId, bounded);
    const balances = withBalance ? await core.balances(store.db, accountId) : null;
    return { account, query: bounded, page, balances };
  }

  async function transactionDetails(reader: Reader, accountId: string, transactionId: string):
    Promise<{ account: BankAccount; transaction: BookedTransaction }> {
    await gate(reader, accountId, "transaction", "transactions");
    const transaction = await core.transaction(store.db, accountId, transactionId);
    if (!transaction) throw resourceUnknown("transaction");
    return { account: await accountOf(accountId), transaction };
  }

  return { listAccounts, accountDetails, accountBalances, transactions, transactionDetails };
}

export type Accounts = ReturnType<typeof createAccounts>;
