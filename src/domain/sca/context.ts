/** What an authorisation's session is about: the resource the PSU decides on, and its TPP. */
import type { Consent } from "../consent/model.js";
import type { Payment } from "../payment/model.js";
import type { Authorisation, ScaSession } from "./model.js";

export type ScaResource =
  | { type: "payment"; payment: Payment; cancellation: boolean; entries: Payment[] }
  | { type: "consent"; consent: Consent };

export interface SessionContext {
  session: ScaSession;
  authorisation: Authorisation;
  resource: ScaResource;
  tppName: string;
  redirectUri: string;
  nokRedirectUri: string | null;
}
