/**
 * What only card accounts have, beside their ledger account: the masked PAN, a hash of the full
 * PAN and the credit limit; and the card details of their transfers. Used by src/ledger/ only.
 */
import type { Selectable } from "kysely";
import type { Tx } from "./handle.js";
import type { CardAccountTable, CardTransactionDetailsTable } from "./schema.js";

export interface CardRecord {
  accountId: string; maskedPan: string; panHash: string; creditLimit: bigint;
}

export interface CardTransactionRecord {
  transferId: string;
  maskedPan: string;
  transactionDate: string;
  acceptorTime: string | null;
  merchantCategoryCode: string | null;
  cardAcceptorId: string | null;
  cardAcceptorCity: string | null;
  cardAcceptorCountry: string | null;
  originalAmount: bigint | null;
  originalCurrency: string | null;
  exchangeRate: string | null;
}

function toCard(r: Selectable<CardAccountTable>): CardRecord {
  return {
    accountId: r.account_id, maskedPan: r.masked_pan, panHash: r.pan_hash,
    creditLimit: BigInt(r.credit_limit),
  };
}

function toDetails(r: Selectable<CardTransactionDetailsTable>): CardTransactionRecord {
  return {
    transferId: r.transfer_id, maskedPan: r.masked_pan, transactionDate: r.transaction_date,
    acceptorTime: r.acceptor_time, merchantCategoryCode: r.merchant_category_code,
    cardAcceptorId: r.card_acceptor_id, cardAcceptorCity: r.card_acceptor_city,
    cardAcceptorCountry: r.card_acceptor_country,
    originalAmount: r.original_amount === null ? null : BigInt(r.original_amount),
    originalCurrency: r.original_currency, exchangeRate: r.exchange_rate,
  };
}

/** Below SQLite's bound-parameter limit for rows of eleven columns. */
const CHUNK = 80;

export const cardRepository = {
  async insertCards(tx: Tx, cards: readonly CardRecord[]): Promise<void> {
    if (cards.length === 0) return;
    await tx.insertInto("card_accounts").values(cards.map((c) => ({
      account_id: c.accountId, masked_pan: c.maskedPan, pan_hash: c.panHash,
      credit_limit: c.creditLimit,
    }))).execute();
  },

  async insertDetails(tx: Tx, details: readonly CardTransactionRecord[]): Promise<void> {
    for (let i = 0; i < details.length; i += CHUNK) {
      const chunk = details.slice(i, i + CHUNK);
      await tx.insertInto("card_transaction_details").values(chunk.map((d) => ({
        transfer_id: d.transferId, masked_pan: d.maskedPan, transaction_date: d.transactionDate,
        acceptor_time: d.acceptorTime, merchant_category_code: d.merchantCategoryCode,
        card_acceptor_id: d.cardAcceptorId, card_acceptor_city: d.cardAcceptorCity,
        card_acceptor_country: d.cardAcceptorCountry, original_amount: d.originalAmount,
        original_currency: d.originalCurrency, exchange_rate: d.exchangeRate,
      }))).execute();
    }
  },

  async cardOf(tx: Tx, accountId: string): Promise<CardRecord | undefined> {
    const row = await tx.selectFrom("card_accounts").selectAll()
      .where("account_id", "=", accountId).executeTakeFirst();
    return row && toCard(row);
  },

  async findCard(
    tx: Tx, by: { maskedPan: string } | { panHash: string },
  ): Promise<CardRecord | undefined> {
    const query = tx.selectFrom("card_accounts").selectAll();
    const row = await ("maskedPan" in by
      ? query.where("masked_pan", "=", by.maskedPan) : query.where("pan_hash", "=", by.panHash))
      .executeTakeFirst();
    return row && toCard(row);
  },

  /** The card details of one statement page's transfers: a primary-key seek per id. */
  async detailsOf(
    tx: Tx, transferIds: readonly string[],
  ): Promise<Map<string, CardTransactionRecord>> {
    if (transferIds.length === 0) return new Map();
    const rows = await tx.selectFrom("card_transaction_details").selectAll()
      .where("transfer_id", "in", [...transferIds]).execute();
    return new Map(rows.map((r) => [r.transfer_id, toDetails(r)]));
  },
};
