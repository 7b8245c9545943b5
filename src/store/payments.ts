/** Payments: rows ↔ Payment, always scoped to the TPP that created them. */
import { sql, type Selectable } from "kysely";
import type { Payment, TransactionStatus } from "../domain/payment/model.js";
import type { VopResult } from "../domain/vop/ports.js";
import type { PaymentRepository, StatusMove } from "../domain/payment/ports.js";
import { compiledInsert, compiledQuery } from "./compiled.js";
import type { Tx } from "./handle.js";
import type { PaymentTable } from "./schema.js";
import { withSignature } from "./signatures.js";

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
    standingOrder: row.standing_order ? JSON.parse(row.standing_order) : null,
    executions: Number(row.executions),
    bulkId: row.bulk_id,
    batchBooking: row.batch_booking === null ? null : Boolean(row.batch_booking),
    redirectUri: row.redirect_uri,
    nokRedirectUri: row.nok_redirect_uri,
    vop: row.vop_result === null ? null
      : { result: row.vop_result as VopResult, matchedName: row.vop_matched_name },
    vopOverriddenAt: row.vop_overridden_at,
    initiationMessage: row.initiation_message ? JSON.parse(row.initiation_message) : null,
    signaturesRequired: Number(row.signatures_required), signatures: Number(row.signatures),
    ...(row.api_version === "v2" ? { apiVersion: "v2" } : {}),
    ...(row.payment_information_id === null ? {}
      : { paymentInformationId: row.payment_information_id }),
    ...(row.creditor_confirmed_at === null ? {}
      : { creditorConfirmedAt: row.creditor_confirmed_at }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const insertPayment = compiledInsert("payments", [
  "id", "tpp_id", "service", "product", "status", "status_reason", "psu_id", "debtor_iban",
  "debtor_currency", "creditor_iban", "creditor_currency", "creditor_name", "creditor_agent",
  "creditor_address", "amount", "currency", "remittance", "end_to_end_id",
  "requested_execution_date", "standing_order", "executions", "bulk_id", "batch_booking",
  "redirect_uri", "nok_redirect_uri", "created_at", "updated_at", "vop_result",
  "vop_matched_name", "vop_overridden_at", "initiation_message", "signatures_required",
  "api_version", "payment_information_id",
]);

const paymentsWithIds = compiledQuery(["ids"] as const, (tx, p: { ids: readonly string[] }) =>
  tx.selectFrom("payments").selectAll().where(sql<boolean>`id = any(${p.ids})`));

/**
 * The payments of `ids`, of any TPP, by id: the shared reads' batch (PostgreSQL only), whose
 * callers each keep only their own TPP's (cached-reads.ts).
 */
export async function paymentsById(tx: Tx, ids: readonly string[]): Promise<Map<string, Payment>> {
  const { rows } = await paymentsWithIds(tx, { ids });
  return new Map(rows.map((row) => [row.id, toPayment(row)]));
}

export const paymentRepository = {
  async insert(tx: Tx, p: Payment): Promise<void> {
    await insertPayment(tx, {
      id: p.id, tpp_id: p.tppId, service: p.service, product: p.product, status: p.status,
      status_reason: p.statusReason, psu_id: p.psuId,
      debtor_iban: p.debtorAccount.iban, debtor_currency: p.debtorAccount.currency,
      creditor_iban: p.creditorAccount.iban, creditor_currency: p.creditorAccount.currency,
      creditor_name: p.creditorName, creditor_agent: p.creditorAgent,
      creditor_address: p.creditorAddress ? JSON.stringify(p.creditorAddress) : null,
      amount: p.amountMinor, currency: p.currency, remittance: p.remittance,
      end_to_end_id: p.endToEndId, requested_execution_date: p.requestedExecutionDate,
      standing_order: p.standingOrder ? JSON.stringify(p.standingOrder) : null,
      executions: p.executions, bulk_id: p.bulkId,
      batch_booking: p.batchBooking === null ? null : Number(p.batchBooking),
      redirect_uri: p.redirectUri, nok_redirect_uri: p.nokRedirectUri,
      created_at: p.createdAt, updated_at: p.updatedAt,
      vop_result: p.vop?.result ?? null, vop_matched_name: p.vop?.matchedName ?? null,
      vop_overridden_at: p.vopOverriddenAt,
      initiation_message: p.initiationMessage ? JSON.stringify(p.initiationMessage) : null,
      signatures_required: p.signaturesRequired ?? 1,
      api_version: p.apiVersion ?? null, payment_information_id: p.paymentInformationId ?? null,
    });
  },

  async markVopOverridden(tx: Tx, ids: readonly string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await tx.updateTable("payments").set({ vop_overridden_at: at }).where("id", "in", ids)
      .execute();
  },

  /** A payment of another TPP is indistinguishable from an unknown one. */
  async findForTpp(tx: Tx, id: string, tppId: string): Promise<Payment | undefined> {
    const row = await tx.selectFrom("payments").selectAll()
      .where("id", "=", id).where("tpp_id", "=", tppId).executeTakeFirst();
    return row && toPayment(row);
  },

  /** The operator's search across TPPs, newest first; an IBAN matches debtor or creditor. */
  async search(
    tx: Tx, q: { tppId?: string; psuId?: string; iban?: string; limit: number },
  ): Promise<Payment[]> {
    let query = tx.selectFrom("payments").selectAll();
    if (q.tppId !== undefined) query = query.where("tpp_id", "=", q.tppId);
    if (q.psuId !== undefined) query = query.where("psu_id", "=", q.psuId);
    const iban = q.iban;
    if (iban !== undefined) {
      query = query.where((eb) =>
        eb.or([eb("debtor_iban", "=", iban), eb("creditor_iban", "=", iban)]));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(q.limit).execute();
    return rows.map(toPayment);
  },

  /** A PSU's payments, newest first: the ones it decided on and any from its own accounts. */
  async ofPsu(
    tx: Tx, psuId: string, ownIbans: readonly string[], limit: number,
  ): Promise<Payment[]> {
    const rows = await tx.selectFrom("payments").selectAll()
      .where((eb) => eb.or([
        eb("psu_id", "=", psuId), ...ownIbans.map((iban) => eb("debtor_iban", "=", iban)),
      ]))
      .orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
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
   * Payments to other banks booked to clearing (ACSP) whose last change is at or before `before`.
   */
  async dueForSettlement(tx: Tx, before: string, limit: number): Promise<Payment[]> {
    const rows = await tx.selectFrom("payments").selectAll()
      .where("status", "=", "ACSP").where("updated_at", "<=", before)
      .orderBy("updated_at").orderBy("id").limit(limit).execute();
    return rows.map(toPayment);
  },

  /**
   * Compare-and-set on a standing order's execution counter and status: claims execution number
   * `executions + 1`, moves the status as the domain says and sets the date of the one after
   * (null: none left); with the reason it was not booked, if it was not. False when another run
   * claimed it or the order is no longer in one of `from`.
   */
  async advanceStandingOrder(
    tx: Tx, id: string, executions: number,
    change: StatusMove & { at: string; nextDate: string | null; reason: string | null },
  ): Promise<boolean> {
    const result = await tx.updateTable("payments")
      .set({
        executions: executions + 1, requested_execution_date: change.nextDate,
        status_reason: change.reason, updated_at: change.at, status: change.to,
      })
      .where("id", "=", id).where("status", "in", [...change.from])
      .where("executions", "=", executions)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** The payments of a bulk, in the order the TPP gave them. */
  async entriesOf(tx: Tx, bulkId: string): Promise<Payment[]> {
    const rows = await tx.selectFrom("payments").selectAll().where("bulk_id", "=", bulkId)
      .orderBy("id").execute();
    return rows.map(toPayment);
  },

  /**
   * The standing orders (periodic payments) from one debtor IBAN that still have executions to
   * come.
   */
  async standingOrdersOf(tx: Tx, debtorIban: string): Promise<Payment[]> {
    const rows = await tx.selectFrom("payments").selectAll()
      .where("debtor_iban", "=", debtorIban).where("service", "=", "periodic-payments")
      .where("status", "=", "ACTC").orderBy("created_at").orderBy("id").execute();
    return rows.map(toPayment);
  },

  /**
   * Compare-and-set: moves the payment only if it is still in one of `from`, so two racing
   * requests never both win. Returns whether this call made the change.
   */
  async transition(
    tx: Tx, id: string, from: readonly TransactionStatus[], to: TransactionStatus,
    change: { at: string; reason?: string | null; psuId?: string; signaturesBefore?: number;
      creditorConfirmed?: boolean },
  ): Promise<boolean> {
    let update = tx.updateTable("payments")
      .set({ status: to, updated_at: change.at, status_reason: change.reason ?? null })
      .where("id", "=", id).where("status", "in", [...from]);
    if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
    if (change.creditorConfirmed) update = update.set({ creditor_confirmed_at: change.at });
    update = withSignature(update, change.signaturesBefore);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Compare-and-set on the payments of a bulk; the reason stays that of each payment. */
  async transitionEntries(
    tx: Tx, bulkId: string, from: readonly TransactionStatus[], to: TransactionStatus, at: string,
  ): Promise<void> {
    await tx.updateTable("payments").set({ status: to, updated_at: at })
      .where("bulk_id", "=", bulkId).where("status", "in", [...from]).execute();
  },
} satisfies PaymentRepository;
