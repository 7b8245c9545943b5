/**
 * The consent resource: what a TPP asked for, what the PSU granted, and its statuses.
 */
export type ConsentStatus =
  | "received" | "partiallyAuthorised" | "rejected" | "valid" | "revokedByPsu" | "expired"
  | "terminatedByTpp";

/** The access object as the TPP sent it, normalised to IBAN lists. */
export interface RequestedAccess {
  accounts: string[];
  balances: string[];
  transactions: string[];
  availableAccounts: string | null;
  availableAccountsWithBalance: string | null;
  allPsd2: string | null;
}

/** The 2.x consent types the bank offers: named accounts, or accounts the PSU picks here. */
export const CONSENT_TYPES = ["detailed", "aspspManaged"] as const;
export type ConsentType = typeof CONSENT_TYPES[number];

/** What a consent gives: access to account information, or answers to funds confirmations. */
export type ConsentKind = "account-access" | "funds-confirmation";

export interface GrantedAccount { accountId: string; balances: boolean; transactions: boolean }

export interface Consent {
  id: string;
  tppId: string;
  status: ConsentStatus;
  psuId: string | null;
  access: RequestedAccess;
  recurringIndicator: boolean;
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
  redirectUri: string;
  nokRedirectUri: string | null;
  createdAt: string;
  updatedAt: string;
  authorisedAt: string | null;
  /** Multi-level SCA, as for a payment: signatures needed and given; absent: one, none yet. */
  signaturesRequired?: number;
  signatures?: number;
  /** A funds-confirmation consent (PIIS) names one account; absent: account information. */
  kind?: "funds-confirmation";
  /** Absent: created on /v1. */
  apiVersion?: "v2";
  /** A /v2 consent's consentType. */
  consentType?: ConsentType;
}
