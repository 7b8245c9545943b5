/**
 * The consent's lifecycle (consentStatus) as one table: each event names the statuses it may
 * leave and the one it reaches. Every change of a consent's status goes through `moveConsent` (or,
 * for many consents at once, `lapseConsents` and `replaceRecurring`), a compare-and-set, so the
 * store only applies what this table says.
 */
import type { Tx } from "../kernel/ports.js";
import type { StoreDeps } from "../deps.js";
import type { Consent, ConsentStatus } from "./model.js";
import type { ConsentChange } from "./ports.js";

/** What a consent's status change writes: the row, the outbox, and its OAuth tokens going. */
type ConsentStore = StoreDeps<"consents" | "notifications" | "oauthRecords">;

export interface ConsentTransition { from: readonly ConsentStatus[]; to: ConsentStatus }

/** Not yet authorised: no signature, or some but not all of those it needs. */
export const AWAITING_SIGNATURE = ["received", "partiallyAuthorised"] as const satisfies
  readonly ConsentStatus[];

export const CONSENT_TRANSITIONS = {
  /** The PSU granted it after SCA (the last signature it needed). */
  authorise: { from: AWAITING_SIGNATURE, to: "valid" },
  /** One user of the company signed; more signatures are needed (multi-level SCA). */
  signPartly: { from: AWAITING_SIGNATURE, to: "partiallyAuthorised" },
  /** The PSU refused it, failed SCA, or it names accounts the PSU does not hold. */
  reject: { from: AWAITING_SIGNATURE, to: "rejected" },
  /** Not authorised within the time allowed after its creation. */
  expireUnauthorised: { from: AWAITING_SIGNATURE, to: "rejected" },
  /** Its last day passed, or a one-off consent has been used. */
  expire: { from: ["valid"], to: "expired" },
  /** The PSU revoked it (dashboard or operator). */
  revoke: { from: ["valid"], to: "revokedByPsu" },
  /** The TPP deleted it. */
  terminate: { from: [...AWAITING_SIGNATURE, "valid"], to: "terminatedByTpp" },
  /** A newer recurring consent of the same PSU at the same TPP replaced it. */
  replace: { from: ["valid"], to: "terminatedByTpp" },
} as const satisfies Record<string, ConsentTransition>;

/** The "create" row: the status a consent is created in, from none. */
export const CONSENT_CREATION = {
  create: { from: [], to: "received" },
} as const satisfies Record<string, ConsentTransition>;

/** The statuses no event leaves: the consent has ended, and only its history remains. */
export const ENDED_CONSENT: readonly ConsentStatus[] =
  ["rejected", "revokedByPsu", "expired", "terminatedByTpp"];

export const awaitsSignature = (status: ConsentStatus): boolean =>
  (AWAITING_SIGNATURE as readonly ConsentStatus[]).includes(status);

export type ConsentEvent = keyof typeof CONSENT_TRANSITIONS;

export const CONSENT_EVENTS = Object.keys(CONSENT_TRANSITIONS) as ConsentEvent[];

/** The status `event` leads to from `status`, or undefined when the table refuses it. */
export function consentAfter(status: ConsentStatus, event: ConsentEvent):
  ConsentStatus | undefined {
  const { from, to }: ConsentTransition = CONSENT_TRANSITIONS[event];
  return from.includes(status) ? to : undefined;
}

/**
 * Applies `event` as a compare-and-set on the status; answers whether this call changed it. A
 * consent no longer valid takes its OAuth tokens with it (a PSU's revocation on the dashboard).
 */
export async function moveConsent(
  { store }: ConsentStore, tx: Tx, consentId: string, event: ConsentEvent,
  change: ConsentChange,
): Promise<boolean> {
  const { from, to }: ConsentTransition = CONSENT_TRANSITIONS[event];
  if (!(await store.consents.transition(tx, consentId, from, to, change))) return false;
  if (to !== "valid") await store.oauthRecords.revokeResource(tx, consentId);
  await store.notifications.queue(tx, [{ resourceId: consentId, consentStatus: to }], change.at);
  return true;
}

/**
 * The rules by which a consent lapses on its own, written once: a valid consent after its last
 * day (validUntil before today), a received one never authorised (created before the cutoff).
 * The check on use reads them here; the sweep hands them to the store as they are.
 */
export interface LapseRule {
  event: ConsentEvent;
  field: "validUntil" | "createdAt";
  before: string;
}

export function lapseRules(today: string, authorisationCutoff: string): readonly LapseRule[] {
  return [
    { event: "expire", field: "validUntil", before: today },
    { event: "expireUnauthorised", field: "createdAt", before: authorisationCutoff },
  ];
}

/** The rule under which `consent` has lapsed, if any. */
export function lapseOf(consent: Consent, rules: readonly LapseRule[]): LapseRule | undefined {
  return rules.find((rule) => consentAfter(consent.status, rule.event) !== undefined
    && consent[rule.field] < rule.before);
}

/** Applies every lapse rule to all consents at once; returns how many each rule changed. */
export async function lapseConsents(
  { store }: ConsentStore, tx: Tx, rules: readonly LapseRule[], at: string,
): Promise<number[]> {
  const counts: number[] = [];
  for (const { event, field, before } of rules) {
    const { from, to }: ConsentTransition = CONSENT_TRANSITIONS[event];
    const ids = await store.consents.transitionWhere(tx, { from, to, field, before }, at);
    await store.notifications.queue(tx, ids.map((id) => ({ resourceId: id, consentStatus: to })),
      at);
    counts.push(ids.length);
  }
  return counts;
}

/** Ends the PSU's other valid recurring consents at the same TPP (as peers do). */
export async function replaceRecurring(
  { store }: ConsentStore, tx: Tx, keep: Consent, psuId: string, at: string,
): Promise<void> {
  const { from, to }: ConsentTransition = CONSENT_TRANSITIONS.replace;
  const ids = await store.consents.transitionOtherRecurring(tx, keep, psuId, { from, to }, at);
  await store.notifications.queue(tx, ids.map((id) => ({ resourceId: id, consentStatus: to })),
    at);
}
