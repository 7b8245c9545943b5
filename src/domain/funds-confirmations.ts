/**
 * Confirmation of funds (PIIS): does the account hold the amount right now? Answers only yes or
 * no, never the balance, against the available balance at the instant of the request.
 */
import type { Deps } from "./deps.js";
import { Xs2aError } from "./errors.js";
import { readAccount, readAmount, type AccountInput } from "./payment-rules.js";

export interface FundsConfirmationInput {
  account: AccountInput;
  cardNumber?: string;
  payee?: string;
  instructedAmount: { currency: string; amount: string | number };
}

export function createFundsConfirmations({ store, core }: Pick<Deps, "store" | "core">) {
  /** Throws FORMAT_ERROR for a malformed account or amount, RESOURCE_UNKNOWN for a foreign IBAN. */
  async function fundsAvailable(input: FundsConfirmationInput): Promise<boolean> {
    const reference = readAccount(input.account, "account");
    const amountMinor = readAmount(input.instructedAmount);
    const account = await core.findAccountByIban(store.db, reference.iban);
    if (!account || account.status === "deleted") {
      throw new Xs2aError("RESOURCE_UNKNOWN", "body",
        "The account is not held at this bank.", "account");
    }
    if (account.currency !== input.instructedAmount.currency) return false;
    const balances = await core.balances(store.db, account.id);
    const available = balances.find((b) => b.balanceType === "interimAvailable");
    if (account.status !== "enabled" || available === undefined) return false;
    return available.amountMinor >= amountMinor;
  }

  return { fundsAvailable };
}

export type FundsConfirmations = ReturnType<typeof createFundsConfirmations>;
