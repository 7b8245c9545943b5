/**
 * Card accounts of the embedded core: a card is a ledger account of kind "card", booked by the
 * same double-entry rules as any account, whose debits may reach its credit limit. Its statement
 * is the account's entries (the same index range seeks) with the card details of each transfer.
 */
import type {
  Balance, CardAccount, CardReference, CardTransaction, CoreBanking, StatementQuery,
} from "../domain/account-information/core-banking.js";
import { hashSecret } from "../lib/ids.js";
import type { Tx } from "../store/db.js";
import { cardRepository as cards, type CardRecord } from "../store/cards.js";
import type { LedgerAccountRecord, LedgerRepository } from "../store/ledger.js";

type Statements = Pick<CoreBanking, "statement" | "balances">;

function toCardAccount(a: LedgerAccountRecord, card: CardRecord): CardAccount | undefined {
  if (a.kind !== "card" || a.psuId === null) return undefined;
  return {
    id: a.id, maskedPan: card.maskedPan, currency: a.currency, psuId: a.psuId,
    ownerName: a.ownerName,
    name: a.name, product: a.product, status: a.status, usage: a.usage,
    creditLimitMinor: card.creditLimit,
  };
}

export function createCardAccounts(ledger: LedgerRepository, statements: Statements):
  Pick<CoreBanking, "getCardAccount" | "findCardAccount" | "listCardAccountsOfPsu" | "cardBalances"
    | "cardStatement"> {
  async function getCardAccount(tx: Tx, accountId: string): Promise<CardAccount | undefined> {
    const account = await ledger.getAccount(tx, accountId);
    const card = account?.kind === "card" ? await cards.cardOf(tx, accountId) : undefined;
    return account && card && toCardAccount(account, card);
  }

  async function findCardAccount(
    tx: Tx, reference: CardReference,
  ): Promise<CardAccount | undefined> {
    const card = await cards.findCard(tx, "pan" in reference
      ? { panHash: hashSecret(reference.pan) } : reference);
    return card && getCardAccount(tx, card.accountId);
  }

  async function listCardAccountsOfPsu(tx: Tx, psuId: string): Promise<CardAccount[]> {
    const found: CardAccount[] = [];
    for (const account of await ledger.accountsOfPsu(tx, psuId)) {
      const card = account.kind === "card" ? await getCardAccount(tx, account.id) : undefined;
      if (card) found.push(card);
    }
    return found;
  }

  async function cardBalances(tx: Tx, accountId: string): Promise<Balance[]> {
    const card = await cards.cardOf(tx, accountId);
    if (!card) return [];
    const balances = await statements.balances(tx, accountId);
    return balances.map((b) => (b.balanceType === "interimAvailable"
      ? { ...b, amountMinor: b.amountMinor + card.creditLimit, creditLimitIncluded: true }
      : { ...b, creditLimitIncluded: false }));
  }

  async function cardStatement(tx: Tx, accountId: string, query: StatementQuery) {
    const card = await cards.cardOf(tx, accountId);
    if (!card) return { transactions: [], page: 0, pageCount: 1 };
    const page = await statements.statement(tx, accountId, query);
    const details = await cards.detailsOf(tx, page.transactions.map((t) => t.transactionId));
    const transactions = page.transactions.map((t): CardTransaction => {
      const d = details.get(t.transactionId);
      const original = d?.originalAmount != null && d.originalCurrency !== null
        && d.exchangeRate !== null
        ? { amountMinor: d.originalAmount, currency: d.originalCurrency,
          exchangeRate: d.exchangeRate } : null;
      return {
        ...t, maskedPan: d?.maskedPan ?? card.maskedPan,
        transactionDate: d?.transactionDate ?? t.bookingDate,
        acceptorTransactionDateTime: d?.acceptorTime ?? null,
        merchantCategoryCode: d?.merchantCategoryCode ?? null,
        cardAcceptorId: d?.cardAcceptorId ?? null,
        cardAcceptorCity: d?.cardAcceptorCity ?? null,
        cardAcceptorCountry: d?.cardAcceptorCountry ?? null,
        original,
      };
    });
    return { ...page, transactions };
  }

  return { getCardAccount, findCardAccount, listCardAccountsOfPsu, cardBalances, cardStatement };
}
