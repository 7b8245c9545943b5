/**
 * The outcome of a PSU's decision on the review, for any resource: taken, or why it was refused
 * (what became of the resource, the result page reads from it). The session machine
 * (authorisation.ts) calls the deciders in payment/decision.ts and consent/decision.ts; they see
 * only this much of its session.
 */
import type { Tx } from "./ports.js";
import type { Deps } from "./deps.js";
import type { ScaExemption } from "./sca/model.js";
import type { ScaProblem } from "./sca/problems.js";
import { changeScaStatus } from "./sca/transitions.js";

export type Decision = { ok: true } | { ok: false; problem: ScaProblem };

/** What a decider reads of the SCA session it is called from. */
export interface DecisionContext {
  session: { psuId: string | null };
  /** Null for an item of a signing basket: the basket's authorisation took the decision. */
  authorisation: { id: string } | null;
  resource: { type: "payment"; cancellation?: boolean } | { type: "consent" } | { type: "basket" };
}

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

