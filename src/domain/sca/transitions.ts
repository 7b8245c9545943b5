/**
 * The lifecycle of an authorisation's scaStatus, declared once: every change of scaStatus is one
 * of these events, applied as a compare-and-set from exactly the statuses listed here.
 */
import type { Tx } from "../kernel/ports.js";
import type { ScaStatus } from "./model.js";
import type { NotificationPort } from "../notification/ports.js";
import type { AuthorisationStatusPort } from "./ports.js";

/** Where an SCA status change is written, with the outbox that notifies a subscribed TPP. */
export interface ScaStatusStore { sca: AuthorisationStatusPort; notifications: NotificationPort }

/** The statuses in which the PSU may still go on; the resource still waits for them. */
export const OPEN_SCA_STATUSES = [
  "received", "psuIdentified", "psuAuthenticated", "scaMethodSelected",
] as const;

export const SCA_STATUSES: readonly ScaStatus[] = [
  ...OPEN_SCA_STATUSES, "unconfirmed", "finalised", "failed", "exempted",
];

export type ScaEvent =
  | "identify" | "authenticate" | "selectMethod" | "awaitConfirmation" | "finalise" | "exempt"
  | "fail";

export interface ScaTransition { from: readonly ScaStatus[]; to: ScaStatus }

export const SCA_TRANSITIONS: Readonly<Record<ScaEvent, ScaTransition>> = {
  /** The password was right: the PSU is known. */
  identify: { from: ["received"], to: "psuIdentified" },
  /**
   * The PSU proved who it is: on the bank's pages with the second factor after the password; in
   * the embedded approach, as Berlin Group counts it, with the password of the PSU the TPP named.
   */
  authenticate: { from: ["received", "psuIdentified"], to: "psuAuthenticated" },
  /** Embedded: the device the code comes from is known and the code is on its way. */
  selectMethod: { from: ["psuAuthenticated"], to: "scaMethodSelected" },
  /**
   * AUTHORISATION_CONFIRMATION: the PSU confirmed on the review, and nothing is decided until the
   * TPP sends the confirmation code its redirect carried (confirmation.ts).
   */
  awaitConfirmation: { from: ["psuIdentified", "psuAuthenticated"], to: "unconfirmed" },
  /**
   * The PSU confirmed (on the review, or with the embedded code), or the TPP confirmed what the
   * PSU did, and the resource decided.
   */
  finalise: { from: ["psuAuthenticated", "scaMethodSelected", "unconfirmed"], to: "finalised" },
  /**
   * The PSU confirmed after its password alone, the second factor exempted (model.ts
   * ScaExemption), and the resource decided: Berlin Group's final, successful `exempted`.
   */
  exempt: { from: ["psuIdentified", "psuAuthenticated", "unconfirmed"], to: "exempted" },
  /**
   * The PSU cancelled, the bank refused, the resource stopped waiting, or the TPP's confirmation
   * codes were wrong too often.
   */
  fail: { from: [...OPEN_SCA_STATUSES, "unconfirmed"], to: "failed" },
};

/**
 * The status an authorisation starts in: psuIdentified where the embedded approach's TPP named
 * the PSU (PSU-ID) on its start, as Berlin Group counts it; received otherwise. The decoupled
 * approach identifies when the PSU's app sees the request (decoupled.ts).
 */
export function initialScaStatus(
  start: { approach?: string | null; namedPsu?: string | null },
): ScaStatus {
  return start.approach === "embedded" && start.namedPsu ? "psuIdentified" : "received";
}

/** Applies `event` to one authorisation; false when its status did not allow it (a lost race). */
export async function changeScaStatus(
  store: ScaStatusStore, tx: Tx, id: string, event: ScaEvent, at: string, psuId?: string,
): Promise<boolean> {
  const { from, to } = SCA_TRANSITIONS[event];
  if (!(await store.sca.setScaStatus(tx, id, from, to, at, psuId))) return false;
  await store.notifications.queue(tx, [{ authorisationId: id, scaStatus: to }], at);
  return true;
}

/** Applies `event` to every authorisation of a resource that allows it. */
export async function changeScaStatusOf(
  store: ScaStatusStore, tx: Tx, resourceId: string, event: ScaEvent, at: string,
): Promise<void> {
  const { from, to } = SCA_TRANSITIONS[event];
  const ids = await store.sca.setScaStatusOf(tx, resourceId, from, to, at);
  await store.notifications.queue(tx, ids.map((id) => ({ authorisationId: id, scaStatus: to })),
    at);
}
