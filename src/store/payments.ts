/** Payments: rows ↔ Payment, always scoped to the TPP that created them. */
import type { Selectable } from "kysely";
import type { Payment, TransactionStatus } from "../domain/payments-model.js";
import type { Tx } from "./db.js";
import type { PaymentTable } from "./schema.js";

function toPayment(row: Selectable<PaymentTable>): Payment {
  return {
    id: row.id,
    tppId: row.tpp_id,
    service: row.service as Payment["service"],
    product: row.product as Payment["product"],
    status: row.status as TransactionStatus,
    statusReason: row.status_reason,
    psuId: row.psu_id,
    debtorAccount: { iban: row.debtor_iban, currency: row.debtor_currency },
    creditorAccount: { iban: row.creditor_iban, currency: row.creditor_currency },
    creditorName: row.creditor_name,
    creditorAgent: row.creditor_agent,
    creditorAddress: row.creditor_address ? JSON.parse(row.creditor_address) : null,
    amountMinor: BigInt(row.amount),
    currency: row.currency,
    remittance: row.remittance,
    endToEndId: row.end_to_end_id,
    requestedExecutionDate: row.requested_execution_date,
    redirectUri: row.redirect_uri,
    nokRedirectUri: row.nok_redirect_uri,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const paymentRepository = {
  async insert(tx: Tx, p: Payment): Promise<void> {
    await tx.insertInto("payments").values({
      id: p.id, tpp_id: p.tppId, service: p.service, product: p.product, status: p.status,
      status_reason: p.statusReason, psu_id: p.psuId,
      debtor_iban: p.debtorAccount.iban, debtor_currency: p.debtorAccount.currency,
      creditor_iban: p.creditorAccount.iban, creditor_currency: p.creditorAccount.currency,
      creditor_name: p.creditorName, creditor_agent: p.creditorAgent,
      creditor_address: p.creditorAddress ? JSON.stringify(p.creditorAddress) : null,
      amount: p.amountMinor, currency: p.currency, remittance: p.remittance,
      end_to_end_id: p.endToEndId, requested_execution_date: p.requestedExecutionDate,
      redirect_uri: p.redirectUri, nok_redirect_uri: p.nokRedirectUri,
      created_at: p.createdAt, updated_at: p.updatedAt,
    }).execute();
  },

  /** A payment of another TPP is indistinguishable from an unknown one. */
  async findForTpp(tx: Tx, id: string, tppId: string): Promise<Payment | undefined> {
    const row = await tx.selectFrom("payments").selectAll()
      .where("id", "=", id).where("tpp_id", "=", tppId).executeTakeFirst();
    return row && toPayment(row);
  },

  /** The operator's search across TPPs, newest first; an IBAN matches debtor or creditor. */
  async search(tx: Tx, q: { tppId?: string; psuId?: string; iban?: string; limit: number }): Promise<Payment[]> {
    let query = tx.selectFrom("payments").selectAll();
    if (q.tppId !== undefined) query = query.where("tpp_id", "=", q.tppId);
    if (q.psuId !== undefined) query = query.where("psu_id", "=", q.psuId);
    const iban = q.iban;
    if (iban !== undefined) query = query.where((eb) => eb.or([eb("debtor_iban", "=", iban), eb("creditor_iban", "=", iban)]));
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(q.limit).execute();
    return rows.map(toPayment);
  },

  async find(tx: Tx, id: string): Promise<Payment | undefined> {
    const row = await tx.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toPayment(row);
  },

  /** Authorised payments whose execution date has come (the bank's calendar date `today`). */
  async dueForExecution(tx: Tx, today: string, limit: number): Promise<Payment[]> {
    const rows = await tx.selectFrom("payments").selectAll()
      .where("status", "=", "ACTC").where("requested_execution_date", "<=", today)
      .orderBy("requested_execution_date").orderBy("id").limit(limit).execute();
    return rows.map(toPayment);
  },

  /**
   * Compare-and-set: moves the payment only if it is still in one of `from`, so two racing
   * requests never both win. Returns whether this call made the change.
   */
  async transition(
    tx: Tx, id: string, from: readonly TransactionStatus[], to: TransactionStatus,
    change: { at: string; reason?: string | null; psuId?: string },
  ): Promise<boolean> {
    let update = tx.updateTable("payments")
      .set({ status: to, updated_at: change.at, status_reason: change.reason ?? null })
      .where("id", "=", id).where("status", "in", [...from]);
    if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
