/**
 * The outcome of a PSU's decision on the review, for any resource: taken, or why it was refused
 * (what became of the resource, the result page reads from it). The channels call each
 * subject's decider (sca/subject.ts); the deciders see only this much of the session.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { ScaExemption } from "./model.js";
import type { DecisionContext } from "./subject.js";
import { changeScaStatus } from "./transitions.js";

export type { Decision, DecisionContext } from "./subject.js";

/** The exemption the session's login took, if any; an item of a basket took none. */
export async function exemptionTaken(
  { store }: Pick<Deps, "store">, tx: Tx, ctx: DecisionContext,
): Promise<ScaExemption | null> {
  if (!ctx.authorisation) return null;
  return (await store.sca.findAuthorisation(tx, ctx.authorisation.id))?.exemption ?? null;
}

/** The decision's outcome on the session's authorisation, where it has one of its own. */
export async function settleAuthorisation(
  { store }: Pick<Deps, "store">, tx: Tx, ctx: DecisionContext,
  event: "finalise" | "exempt" | "fail", at: string, psuId?: string,
): Promise<void> {
  if (ctx.authorisation) await changeScaStatus(store, tx, ctx.authorisation.id, event, at, psuId);
}

