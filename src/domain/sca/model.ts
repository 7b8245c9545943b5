/**
 * The authorisation of a payment or consent by its PSU, the PSU, its devices, and the PSU's login
 * sessions: one per authorisation (redirect) and one for the PSU's dashboard.
 */
import type { ScaApproach } from "../../lib/sca-approaches.js";

export type ScaStatus =
  | "received" | "psuIdentified" | "psuAuthenticated" | "scaMethodSelected" | "unconfirmed"
  | "finalised" | "failed" | "exempted";

/**
 * An exemption from strong customer authentication (Commission Delegated Regulation 2018/389,
 * as amended by 2022/2360), by its article: art. 10a account information within 180 days of the
 * last SCA, 13 trusted beneficiaries, 14 recurring transactions, 16 low-value payments, 18
 * transaction risk analysis; and "sandbox", no article: the sandbox's test PSU whose SCA is
 * always exempted, so that a TPP's automated tests meet that branch on every run. The PSU still
 * gives its password: exempt from the second factor (for art. 10a, from a new SCA), never from
 * authenticating.
 */
export type ScaExemption = "10a" | "13" | "14" | "16" | "18" | "sandbox";
/** What an authorisation's link opens: a payment, a consent, or a signing basket of both. */
export type ResourceType = "payment" | "consent" | "basket";
export type ScaStep = "login" | "device" | "code" | "review" | "done";
export type DeviceKind = "totp" | "sms";

/** What an authorisation is for: a payment or consent, or the cancellation of a payment. */
export type AuthorisedResource = ResourceType | "payment-cancellation";

export interface Authorisation {
  id: string;
  resourceType: AuthorisedResource;
  resourceId: string;
  tppId: string;
  scaStatus: ScaStatus;
  psuId: string | null;
  lang: string;
  /** The login the TPP named (PSU-ID): no other PSU may complete this authorisation. */
  namedPsu?: string | null;
  /** Who carries the PSU's factors: the bank's pages (redirect) or the TPP (embedded). */
  approach?: ScaApproach;
  /** When the TPP started it (as stored; absent on one not stored yet). */
  createdAt?: string;
  /** The exemption the PSU's password-only login took instead of the second factor, if any. */
  exemption?: ScaExemption | null;
}

/** The steps of every login, whatever the channel; each channel names the step after them. */
export type LoginStep = "login" | "device" | "code";

/** A PSU's login in progress or done, behind a cookie (its id is the cookie's hash). */
export interface LoginSession<Step extends string = string> {
  id: string;
  step: Step;
  psuId: string | null;
  deviceId: string | null;
  csrf: string;
  lang: string;
  lastSeenAt: string;
}

export interface ScaSession extends LoginSession<ScaStep> {
  authorisationId: string;
  /**
   * Where the browser goes once the PSU decided, instead of the TPP's redirect URI: the OAuth
   * server's interaction, for a session it opened.
   */
  returnTo?: string | null;
}

/**
 * What the sandbox plays for a test PSU (TPP test automation), never outside sandbox mode: its
 * code is always 123456 (and, "exempted", its password alone authorises wherever an exemption
 * could apply), its bank app rejects every request, or its app never answers.
 */
export type SandboxBehaviour = "fixed_code" | "exempted" | "app_rejects" | "app_silent";

export interface Psu {
  id: string;
  login: string;
  name: string;
  passwordHash: string;
  status: "enabled" | "blocked";
  failedAttempts: number;
  blockedUntil: string | null;
  sandbox?: SandboxBehaviour | null;
}

export interface ScaDevice {
  id: string;
  psuId: string;
  kind: DeviceKind;
  label: string;
  secret: string | null;
  phone: string | null;
  lastTotpStep: bigint | null;
}

/**
 * The PSU's own dashboard: login, device choice and code as in an authorisation, then the
 * overview.
 */
export type DashboardStep = "login" | "device" | "code" | "dashboard";

export type PsuSession = LoginSession<DashboardStep>;
