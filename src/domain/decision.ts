/**
 * The outcome of a PSU's decision on the review, for any resource: taken, or why it was refused
 * (what became of the resource, the result page reads from it). The session machine
 * (authorisation.ts) calls the deciders in payment/decision.ts and consent/decision.ts; they see
 * only this much of its session.
 */
import type { ScaProblem } from "./sca/problems.js";

export type Decision = { ok: true } | { ok: false; problem: ScaProblem };

/** What a decider reads of the SCA session it is called from. */
export interface DecisionContext {
  session: { psuId: string | null };
  authorisation: { id: string };
  resource: { type: "payment"; cancellation?: boolean } | { type: "consent" };
}

