/**
 * The authorisation of a payment or consent by its PSU, and the PSU's redirect session.
 */
export type ScaStatus = "received" | "psuIdentified" | "psuAuthenticated" | "finalised" | "failed";
export type ResourceType = "payment" | "consent";
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
}

export interface ScaSession {
  id: string;
  authorisationId: string;
  step: ScaStep;
  psuId: string | null;
  deviceId: string | null;
  csrf: string;
  lang: string;
  lastSeenAt: string;
}

export interface Psu {
  id: string;
  login: string;
  name: string;
  passwordHash: string;
  status: "enabled" | "blocked";
  failedAttempts: number;
  blockedUntil: string | null;
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

/** The PSU's own dashboard: login, device choice and code as in an authorisation, then the overview. */
export type DashboardStep = "login" | "device" | "code" | "dashboard";

export interface PsuSession {
  id: string;
  step: DashboardStep;
  psuId: string | null;
  deviceId: string | null;
  csrf: string;
  lang: string;
  lastSeenAt: string;
}
