/**
 * What the use cases receive from app.ts: plain arguments, no container.
 */
import type { Clock } from "../lib/clock.js";
import type { Store } from "../store/db.js";
import type { ResourceType } from "./sca/model.js";
import type { CoreBanking } from "./core-banking.js";

export interface DomainSettings {
  timeZone: string;
  bankName: string;
  smsCodeTtlSeconds: number;
  scaSessionIdleSeconds: number;
  loginFailuresMax: number;
  loginBlockSeconds: number;
  consentValidityDaysMax: number;
  frequencyPerDayMax: number;
  /** A consent the PSU has not authorised after this long is rejected. */
  consentAuthorisationMinutes?: number;
  /** A payment not authorised within this time after its creation is rejected (RJCT). */
  paymentScaTimeoutSeconds: number;
  /** The most payments one bulk payment may carry. */
  bulkPaymentEntriesMax?: number;
  /** A payment to another bank is ACSP until this long after its booking, then ACCC; 0: ACSC. */
  clearingSettlementSeconds?: number;
}

/** Mints the PSU's redirect link; implemented by src/sca/redirect.ts (signed, single-use token). */
export interface ScaLinks {
  scaRedirect(link: {
    authorisationId: string;
    resourceType: ResourceType;
    redirectUri: string;
    nokRedirectUri: string | null;
    lang: string;
  }): Promise<string>;
}

export interface Passwords {
  /** With a null hash it still spends the time of a verification, then answers false. */
  verify(hash: string | null, password: string): Promise<boolean>;
}

export interface Deps {
  store: Store;
  core: CoreBanking;
  clock: Clock;
  settings: DomainSettings;
  scaLinks: ScaLinks;
  passwords: Passwords;
}

/** The calling TPP as the domain needs it: its tenant key and display name. */
export interface TppRef { id: string; name: string }

/** Where the PSU's browser goes afterwards, from the TPP's headers. */
export interface RedirectTargets { redirectUri: string; nokRedirectUri: string | null; lang: string }
