/**
 * The outcome of a PSU's decision on the review, for any resource: where the browser goes next,
 * or why the decision was refused. The session machine (authorisation.ts) calls the deciders in
 * payment/decision.ts and consent/decision.ts; they see only this much of its session.
 */
import type { ScaProblem } from "./sca/problems.js";

export type Decision = { ok: true; redirectTo: string } | { ok: false; problem: ScaProblem };

/** What a decider reads of the SCA session it is called from. */
export interface DecisionContext {
  session: { psuId: string | null };
  authorisation: { id: string };
  resource: { type: "payment"; cancellation?: boolean } | { type: "consent" };
}

/** Where a refusal sends the browser: the Nok URI when the TPP gave one. */
export const nokTarget = (r: { redirectUri: string; nokRedirectUri: string | null }) =>
  r.nokRedirectUri ?? r.redirectUri;

