/**
 * The signing basket (Berlin Group SBS): payments and consents of one TPP that their PSU
 * authorises with one SCA. The basket has its own status (transactionStatus_SBS); each item keeps
 * its own, which tells what became of it.
 */
import type { Consent } from "../consent/model.js";
import type { CreatedThrough } from "../kernel/interface.js";
import type { Payment } from "../payment/model.js";

export type BasketStatus = "RCVD" | "PATC" | "ACTC" | "RJCT" | "CANC";

/** What a basket holds, by the resource's id. */
export type BasketItemType = "payment" | "consent";

export interface BasketItem { type: BasketItemType; id: string }

/** `apiVersion`: the interface that created it (kernel/interface.ts). */
export interface Basket extends CreatedThrough {
  id: string;
  tppId: string;
  status: BasketStatus;
  /** The PSU who decided it, once decided. */
  psuId: string | null;
  /** In the order the TPP named them. */
  paymentIds: string[];
  consentIds: string[];
  redirectUri: string;
  nokRedirectUri: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Multi-level SCA: how many different users must sign it (the most any item needs, fixed at
   * creation) and how many have; absent: one, none yet.
   */
  signaturesRequired?: number;
  signatures?: number;
}

/** A basket as its SCA session sees it: with its items as they stand now. */
export interface BasketView {
  type: "basket"; basket: Basket; payments: Payment[]; consents: Consent[];
}
