/**
 * The payment resource: its fields and its statuses, in the spec's words.
 */
import type { VopOutcome } from "../vop/ports.js";

/** An ISO 20022 initiation message, as its status report names it back. */
export interface InitiationMessage {
  /** The message's version, e.g. "pain.001.001.03". */
  name: string;
  messageId: string;
  paymentInformationId: string;
}

export type TransactionStatus =
  | "RCVD" | "PDNG" | "ACTC" | "ACCP" | "ACSP" | "ACSC" | "ACCC" | "RJCT" | "CANC" | "PATC"
  | "PART" | "RCVC" | "RVCM" | "RVNC";

/**
 * Received and waiting for the PSU: RCVD, or with the TPP reading the Verification of Payee in
 * the status, RCVC (matched), RVCM (mismatch), RVNC (not checked); PATC once some but not all of
 * the signatures it needs are given (multi-level SCA).
 */
export const AWAITING_PSU = ["RCVD", "RCVC", "RVCM", "RVNC", "PATC"] as const satisfies
  readonly TransactionStatus[];

export const awaitsPsu = (status: TransactionStatus): boolean =>
  (AWAITING_PSU as readonly TransactionStatus[]).includes(status);

export const PAYMENT_PRODUCTS = ["sepa-credit-transfers", "instant-sepa-credit-transfers"] as const;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];
export const PAYMENT_SERVICES = ["payments", "periodic-payments", "bulk-payments"] as const;
export type PaymentService = (typeof PAYMENT_SERVICES)[number];

export const FREQUENCIES = [
  "Daily", "Weekly", "EveryTwoWeeks", "Monthly", "EveryTwoMonths", "Quarterly", "SemiAnnual",
  "Annual",
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** A periodic payment's schedule (Berlin Group standingOrderDetails). */
export interface StandingOrder {
  startDate: string;
  endDate: string | null;
  frequency: Frequency;
  /**
   * Day of the month (1-31, 31 = ultimo) or, for Weekly/EveryTwoWeeks, of the week
   * (1 = Monday).
   */
  dayOfExecution: number | null;
  executionRule: "following" | "preceding" | null;
}

export interface PostalAddress {
  streetName: string | null;
  buildingNumber: string | null;
  townName: string | null;
  postCode: string | null;
  country: string;
}

export interface AccountReference { iban: string; currency: string | null }

export interface Payment {
  id: string;
  tppId: string;
  service: PaymentService;
  product: PaymentProduct;
  status: TransactionStatus;
  statusReason: string | null;
  psuId: string | null;
  debtorAccount: AccountReference;
  creditorAccount: AccountReference;
  creditorName: string;
  creditorAgent: string | null;
  creditorAddress: PostalAddress | null;
  amountMinor: bigint;
  currency: string;
  remittance: string | null;
  endToEndId: string | null;
  /** For a standing order: the date its next execution is due, null once none is left. */
  requestedExecutionDate: string | null;
  standingOrder: StandingOrder | null;
  /** How many executions of a standing order have been attempted (booked or rejected). */
  executions: number;
  /** For one payment of a bulk: the bulk's id (its own status and booking). */
  bulkId: string | null;
  /** For a bulk: booked all or nothing in one database transaction (true) or payment by payment. */
  batchBooking: boolean | null;
  /** Verification of Payee at creation; null for a bulk's own row (its payments have theirs). */
  vop: VopOutcome | null;
  /** When the PSU confirmed although the payee's name did not match (NMTC). */
  vopOverriddenAt: string | null;
  /** The pain.001 message it came in; absent or null for a payment initiated in JSON. */
  initiationMessage?: InitiationMessage | null;
  /**
   * Multi-level SCA: how many different users of the debtor's company must authorise it (fixed at
   * creation from the account's mandate), and how many have; absent: one, none yet.
   */
  signaturesRequired?: number;
  signatures?: number;
  redirectUri: string;
  nokRedirectUri: string | null;
  createdAt: string;
  updatedAt: string;
  /** Created through openFinance 2.x (/v2); absent: NextGenPSD2 1.3 (/v1). */
  apiVersion?: "v2";
  /** A /v2 bulk's paymentInformationId, as the TPP gave it. */
  paymentInformationId?: string;
  /** When the TPP confirmed the payee after a close or no match (VOP 1.1); absent: it did not. */
  creditorConfirmedAt?: string;
}
