/**
 * The storage the payment aggregate needs, declared here and implemented by the store (or a
 * bank's own). Every status change is a compare-and-set whose statuses come from
 * transitions.ts: the repository never decides a status itself.
 */
import type { Tx } from "../kernel/ports.js";
import type { Payment, TransactionStatus } from "./model.js";

export interface StatusMove { from: readonly TransactionStatus[]; to: TransactionStatus }

export interface PaymentSearch { tppId?: string; psuId?: string; iban?: string; limit: number }

export interface PaymentRepository {
  insert(tx: Tx, payment: Payment): Promise<void>;
  /** A payment of another TPP is indistinguishable from an unknown one. */
  findForTpp(tx: Tx, id: string, tppId: string): Promise<Payment | undefined>;
  find(tx: Tx, id: string): Promise<Payment | undefined>;
  /** The operator's search across TPPs, newest first; an IBAN matches debtor or creditor. */
  search(tx: Tx, query: PaymentSearch): Promise<Payment[]>;
  /** A PSU's payments, newest first: the ones it decided on and any from its own accounts. */
  ofPsu(tx: Tx, psuId: string, ownIbans: readonly string[], limit: number): Promise<Payment[]>;
  /** Authorised payments whose execution date has come (the bank's calendar date `today`). */
  dueForExecution(tx: Tx, today: string, limit: number): Promise<Payment[]>;
  /** Payments booked to clearing (ACSP) whose last change is at or before `before`. */
  dueForSettlement(tx: Tx, before: string, limit: number): Promise<Payment[]>;
  /** The payments of a bulk, in the order the TPP gave them. */
  entriesOf(tx: Tx, bulkId: string): Promise<Payment[]>;
  /** Standing orders from one debtor IBAN that still have executions to come. */
  standingOrdersOf(tx: Tx, debtorIban: string): Promise<Payment[]>;
  /**
   * Compare-and-set on the status (and, with `signaturesBefore`, on the count of signatures,
   * which it raises by one); answers whether this call made the change.
   */
  transition(
    tx: Tx, id: string, from: readonly TransactionStatus[], to: TransactionStatus,
    change: { at: string; reason?: string | null; psuId?: string; signaturesBefore?: number;
      creditorConfirmed?: boolean },
  ): Promise<boolean>;
  /** Compare-and-set on the status of a bulk's payments. */
  transitionEntries(
    tx: Tx, bulkId: string, from: readonly TransactionStatus[], to: TransactionStatus, at: string,
  ): Promise<void>;
  /** The PSU confirmed these payments although their payee's name did not match. */
  markVopOverridden(tx: Tx, ids: readonly string[], at: string): Promise<void>;
  /** Compare-and-set on a standing order's execution counter and status. */
  advanceStandingOrder(
    tx: Tx, id: string, executions: number,
    change: StatusMove & { at: string; nextDate: string | null; reason: string | null },
  ): Promise<boolean>;
}
