/**
 * The operator's account administration on a core that offers it (the embedded ledger): open,
 * block, close, and test money. Every change goes through the core's booking rules, so an
 * adjustment is a real double-entry transfer against the bank's equity.
 */
import { formatAmount, parseAmount } from "../../lib/money.js";
import type { StorePort as Store } from "../deps.js";
import type {
  AccountStatus, BankAccount, CoreAdministration, CoreBanking,
} from "../account-information/core-banking.js";
import { OperatorError } from "../kernel/errors.js";

export interface AccountAdministrationDeps { store: Store; core: CoreBanking & CoreAdministration }

export interface AccountSummary {
  iban: string;
  owner: string;
  currency: string;
  product: string | null;
  status: AccountStatus;
  /** Booked now, with pending items (Berlin Group "expected"). */
  balance: string;
  available: string;
}

const REFUSALS: Record<string, string> = {
  insufficient_funds: "The account's available balance is lower than the amount.",
  account_blocked: "The account is blocked or closed.",
  currency_mismatch: "The amount's currency is not the account's.",
};

async function byIban(
  { store, core }: AccountAdministrationDeps, iban: string,
): Promise<BankAccount> {
  const account = await core.findAccountByIban(store.db, iban.replace(/\s+/g, "").toUpperCase());
  if (!account) throw new OperatorError(`No account with the IBAN ${iban}.`, "iban");
  return account;
}

async function summary(
  { store, core }: AccountAdministrationDeps, account: BankAccount, owner: string,
): Promise<AccountSummary> {
  const balances = await core.balances(store.db, account.id);
  const of = (type: string) => balances.find((b) => b.balanceType === type)?.amountMinor ?? 0n;
  return {
    iban: account.iban, owner, currency: account.currency, product: account.product,
    status: account.status,
    balance: formatAmount(of("expected"), account.currency),
    available: formatAmount(of("interimAvailable"), account.currency),
  };
}

interface NewAccountInput { login: string; currency: string; product: string; name: string | null }

function checkNewAccount(input: NewAccountInput): void {
  if (!parseAmount("0", input.currency).ok) {
    throw new OperatorError(`"${input.currency}" is not an ISO 4217 currency.`, "currency");
  }
  if (input.product.trim() === "" || input.product.length > 35) {
    throw new OperatorError("A product name is 1 to 35 characters.", "product");
  }
}

export function createAccountAdministration(deps: AccountAdministrationDeps) {
  const { store, core } = deps;

  return {
    async list(login?: string): Promise<AccountSummary[]> {
      const psus = (await store.psus.list(store.db))
        .filter((p) => login === undefined || p.login === login);
      if (login !== undefined && psus.length === 0) {
        throw new OperatorError(`No PSU with the login "${login}".`, "login");
      }
      const lists = await Promise.all(psus.map(async (psu) => Promise.all(
        (await core.listAccountsOfPsu(store.db, psu.id)).map((a) => summary(deps, a, psu.login)))));
      return lists.flat();
    },

    async open(input: NewAccountInput): Promise<AccountSummary> {
      const psu = await store.psus.findByLogin(store.db, input.login);
      if (!psu) throw new OperatorError(`No PSU with the login "${input.login}".`, "login");
      checkNewAccount(input);
      const account = await store.transaction((tx) => core.openAccount(tx, {
        psuId: psu.id, ownerName: psu.name, currency: input.currency, product: input.product,
        name: input.name,
      }));
      return summary(deps, account, psu.login);
    },

    async setStatus(iban: string, status: "enabled" | "blocked"): Promise<void> {
      const account = await byIban(deps, iban);
      if (account.status === "deleted") throw new OperatorError("The account is closed.", "iban");
      await store.transaction((tx) => core.setAccountStatus(tx, account.id, status));
    },

    /**
     * Closing keeps the account and its history; it needs a zero balance, so no money
     * disappears.
     */
    async close(iban: string): Promise<void> {
      const account = await byIban(deps, iban);
      const balances = await core.balances(store.db, account.id);
      if (balances.some((b) => b.amountMinor !== 0n)) {
        throw new OperatorError(
          "Only an account with a zero balance can be closed; move the money first.", "iban");
      }
      await store.transaction((tx) => core.setAccountStatus(tx, account.id, "deleted"));
    },

    async adjust(
      iban: string, direction: "credit" | "debit", amount: string, text: string,
    ): Promise<AccountSummary> {
      const account = await byIban(deps, iban);
      const parsed = parseAmount(amount, account.currency);
      if (!parsed.ok || parsed.minor <= 0n) {
        const units = `the minor units of ${account.currency}`;
        throw new OperatorError(`The amount must be positive with at most ${units}.`, "amount");
      }
      const outcome = await store.transaction(
        (tx) => core.adjustBalance(tx, account.id, direction, parsed.minor, text));
      if (outcome.status === "rejected") {
        throw new OperatorError(REFUSALS[outcome.reason] ?? `Refused: ${outcome.reason}.`, "iban");
      }
      const adjusted = await byIban(deps, iban);
      const owner = (await store.psus.find(store.db, account.psuId))?.login ?? "";
      return summary(deps, adjusted, owner);
    },
  };
}

export type AccountAdministration = ReturnType<typeof createAccountAdministration>;
