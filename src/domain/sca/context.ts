/** What an authorisation's session is about: the resource the PSU decides on, and its TPP. */
import type { Basket } from "../basket/model.js";
import type { Consent } from "../consent/model.js";
import type { Payment } from "../payment/model.js";
import type { Authorisation, ScaSession } from "./model.js";

/**
 * A payment or consent (with `heldBy`, the signing basket that holds it, if one does: then only
 * the basket is authorised), or a basket with every payment and consent it names, as they stand.
 */
export type ScaResource =
  | { type: "payment"; payment: Payment; cancellation: boolean; entries: Payment[];
    heldBy?: string }
  | { type: "consent"; consent: Consent; heldBy?: string }
  | BasketResource;

export interface BasketResource {
  type: "basket"; basket: Basket; payments: Payment[]; consents: Consent[];
}

export interface SessionContext {
  session: ScaSession;
  authorisation: Authorisation;
  resource: ScaResource;
  tppName: string;
  redirectUri: string;
  nokRedirectUri: string | null;
}
