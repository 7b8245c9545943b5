/**
 * The payment's lifecycle (transactionStatus) as one table: each event names the statuses it may
 * leave and the one it reaches. Every change of a payment's status goes through `movePayment`,
 * a compare-and-set on the row, so of two racing events exactly one wins; the store only applies
 * what this table says.
 */
import type { Tx } from "../kernel/ports.js";
import type { StoreDeps } from "../deps.js";
import { AWAITING_PSU, type Payment, type TransactionStatus } from "./model.js";

/** What a payment's status change writes: the row and the outbox. */
type PaymentStore = StoreDeps<"payments" | "notifications">;

export interface PaymentTransition { from: readonly TransactionStatus[]; to: TransactionStatus }

export const PAYMENT_TRANSITIONS = {
  /**
   * The TPP confirmed the payee after showing the PSU a close or no match (VOP 1.1,
   * creditor-confirmation on /v2): the payment may now be authorised.
   */
  confirmCreditor: { from: ["RVCM"], to: "RCVD" },
  /** The PSU confirmed the payment on the review (the last signature it needed). */
  authorise: { from: AWAITING_PSU, to: "ACTC" },
  /** One user of the debtor's company signed; more signatures are needed (multi-level SCA). */
  signPartly: { from: AWAITING_PSU, to: "PATC" },
  /** The PSU refused it on the review. */
  decline: { from: AWAITING_PSU, to: "CANC" },
  /** The TPP cancelled it before the PSU authorised it. */
  cancel: { from: AWAITING_PSU, to: "CANC" },
  /** The PSU confirmed the cancellation of an authorised payment not yet executed. */
  cancelAuthorised: { from: ["ACTC"], to: "CANC" },
  /**
   * The PSU withdrew, on its dashboard, a standing order a TPP initiated (PSR): no further
   * executions; the TPP learns it like any status change.
   */
  withdraw: { from: ["ACTC"], to: "CANC" },
  /** The PSU did not complete SCA in time. */
  expireSca: { from: AWAITING_PSU, to: "RJCT" },
  /** The PSU rejected it in the bank's app (decoupled approach). */
  refuseSca: { from: AWAITING_PSU, to: "RJCT" },
  /** Booked and settled: within the bank, instant, or no clearing delay modelled. */
  book: { from: ["ACTC"], to: "ACSC" },
  /** Booked to the clearing account; settles with the creditor's bank later. */
  bookToClearing: { from: ["ACTC"], to: "ACSP" },
  /** The core refused the booking (e.g. insufficient funds). */
  refuseBooking: { from: ["ACTC"], to: "RJCT" },
  /**
   * A bulk of which the core booked some payments and refused others: PART (partially accepted);
   * the Berlin Group keeps PATC for multi-level authorisation.
   */
  bookPartly: { from: ["ACTC"], to: "PART" },
  /** The creditor's bank settled a payment booked to clearing. */
  settle: { from: ["ACSP"], to: "ACCC" },
  /** A standing order's execution other than its last: booked or refused, the order goes on. */
  runInstalment: { from: ["ACTC"], to: "ACTC" },
  /** A standing order's last execution: the order is completed. */
  completeOrder: { from: ["ACTC"], to: "ACSC" },
  /** One payment of a bulk, booked with its bulk. */
  bookEntry: { from: AWAITING_PSU, to: "ACSC" },
  /** One payment of a bulk, refused by the core or with its bulk. */
  refuseEntry: { from: AWAITING_PSU, to: "RJCT" },
  /** One payment of a bulk, cancelled with its bulk. */
  cancelEntry: { from: AWAITING_PSU, to: "CANC" },
} as const satisfies Record<string, PaymentTransition>;

/**
 * The "create" rows: the status a payment is created in, from none. RCVD; where the TPP reads the
 * Verification of Payee in the status (Client-VOP-Requested, Berlin Group 1.3.16), the check's:
 * every payee matched, one did not or only closely, one could not be checked (payee-check.ts).
 */
export const PAYMENT_CREATION = {
  create: { from: [], to: "RCVD" },
  createPayeesMatched: { from: [], to: "RCVC" },
  createPayeeMismatched: { from: [], to: "RVCM" },
  createPayeeUnchecked: { from: [], to: "RVNC" },
} as const satisfies Record<string, PaymentTransition>;

export type PaymentEvent = keyof typeof PAYMENT_TRANSITIONS;

export const PAYMENT_EVENTS = Object.keys(PAYMENT_TRANSITIONS) as PaymentEvent[];

/** What a bulk's payments still awaiting the PSU do when the bulk ends without being booked. */
const ENTRIES_FOLLOW: Partial<Record<TransactionStatus, PaymentEvent>> = {
  CANC: "cancelEntry", RJCT: "refuseEntry",
};

export interface StatusChange {
  at: string; reason?: string | null; psuId?: string;
  /** A signature: the change happens only if the payment still has this many (then one more). */
  signaturesBefore?: number;
  /** The TPP's creditor confirmation: when it came is kept. */
  creditorConfirmed?: boolean;
}

/**
 * Applies `event` to the payment as a compare-and-set on its status; returns whether this call
 * made the change. A bulk that ends unbooked takes its payments still awaiting the PSU with it.
 */
export async function movePayment(
  { store }: PaymentStore, tx: Tx, payment: Pick<Payment, "id" | "service" | "bulkId">,
  event: PaymentEvent, change: StatusChange,
): Promise<boolean> {
  const { from, to }: PaymentTransition = PAYMENT_TRANSITIONS[event];
  if (!(await store.payments.transition(tx, payment.id, from, to, change))) return false;
  await store.notifications.queue(tx, [{ resourceId: payment.id, transactionStatus: to }],
    change.at);
  const follow = ENTRIES_FOLLOW[to];
  if (follow && payment.service === "bulk-payments" && payment.bulkId === null) {
    const entries: PaymentTransition = PAYMENT_TRANSITIONS[follow];
    await store.payments.transitionEntries(tx, payment.id, entries.from, entries.to, change.at);
  }
  return true;
}

/**
 * Records a standing order's execution number `executions + 1` (compare-and-set on its counter
 * and status): the order runs on, or is completed when no execution is left (`nextDate` null).
 */
export async function advanceOrder(
  { store }: PaymentStore, tx: Tx, payment: Pick<Payment, "id" | "executions">,
  change: { at: string; nextDate: string | null; reason: string | null },
): Promise<boolean> {
  const event = change.nextDate === null ? "completeOrder" : "runInstalment";
  const { from, to }: PaymentTransition = PAYMENT_TRANSITIONS[event];
  const advanced = await store.payments.advanceStandingOrder(tx, payment.id, payment.executions,
    { from, to, ...change });
  if (advanced && event === "completeOrder") {
    await store.notifications.queue(tx, [{ resourceId: payment.id, transactionStatus: to }],
      change.at);
  }
  return advanced;
}
