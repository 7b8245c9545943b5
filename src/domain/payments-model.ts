/**
 * The payment resource: its fields and its statuses, in the spec's words.
 */
export type TransactionStatus =
  | "RCVD" | "PDNG" | "ACTC" | "ACCP" | "ACSP" | "ACSC" | "ACCC" | "RJCT" | "CANC" | "PATC" | "PART";

export const PAYMENT_PRODUCTS = ["sepa-credit-transfers", "instant-sepa-credit-transfers"] as const;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];
export type PaymentService = "payments";

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
  requestedExecutionDate: string | null;
  redirectUri: string;
  nokRedirectUri: string | null;
  createdAt: string;
  updatedAt: string;
}
