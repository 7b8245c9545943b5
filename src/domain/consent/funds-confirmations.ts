/**
 * Confirmation of funds (PIIS): does the account hold the amount right now? Answers only yes or
 * no, never the balance, against the available balance at the instant of the request.
 */
import { isValidPan, readMaskedPan } from "../../lib/pan.js";
import type { CardReference } from "../account-information/core-banking.js";
import type { StoreDeps } from "../deps.js";
import { formatError, referenceUnknown } from "../kernel/errors.js";
import { readAccount, readAmount, type AccountInput } from "../payment/rules.js";

export interface FundsConfirmationInput {
  account: AccountInput;
  cardNumber?: string;
  payee?: string;
  instructedAmount: { currency: string; amount: string | number };
}

/** A card named as {"maskedPan": ...} or {"pan": ...}; null for an IBAN. Throws FORMAT_ERROR. */
function readCardReference(input: AccountInput): CardReference | null {
  if (typeof input !== "object" || (input.pan === undefined && input.maskedPan === undefined)) {
    return null;
  }
  if (input.pan !== undefined) {
    if (typeof input.pan === "string" && isValidPan(input.pan)) return { pan: input.pan };
    throw formatError("body", "account.pan", "account.pan is not a valid card number.");
  }
  const masked = typeof input.maskedPan === "string" ? readMaskedPan(input.maskedPan) : null;
  if (masked !== null) return { maskedPan: masked };
  throw formatError("body", "account.maskedPan", "account.maskedPan is not a masked card number.");
}

export function createFundsConfirmations({ store, core }: StoreDeps<"db", "core">) {
  /** Throws FORMAT_ERROR for a malformed account or amount, RESOURCE_UNKNOWN for a foreign IBAN. */
  async function fundsAvailable(input: FundsConfirmationInput): Promise<boolean> {
    const card = readCardReference(input.account);
    if (card) return cardFundsAvailable(card, input);
    const reference = readAccount(input.account, "account");
    const amountMinor = readAmount(input.instructedAmount);
    const found = await core.findAccountWithAvailable(store.db, reference.iban);
    if (!found || found.account.status === "deleted") {
      throw referenceUnknown("account", "The account is not held at this bank.");
    }
    const { account, availableMinor } = found;
    if (account.currency !== input.instructedAmount.currency) return false;
    if (account.status !== "enabled") return false;
    return availableMinor >= amountMinor;
  }

  /** A card answers against its available credit: the unused limit less pending debits. */
  async function cardFundsAvailable(
    reference: CardReference, input: FundsConfirmationInput,
  ): Promise<boolean> {
    const amountMinor = readAmount(input.instructedAmount);
    const card = await core.findCardAccount(store.db, reference);
    if (!card || card.status === "deleted") {
      throw referenceUnknown("account", "The card is not issued by this bank.");
    }
    if (card.currency !== input.instructedAmount.currency || card.status !== "enabled") {
      return false;
    }
    const available = (await core.cardBalances(store.db, card.id))
      .find((b) => b.balanceType === "interimAvailable");
    return available !== undefined && available.amountMinor >= amountMinor;
  }

  return { fundsAvailable };
}

export type FundsConfirmations = ReturnType<typeof createFundsConfirmations>;
