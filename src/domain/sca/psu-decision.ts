/**
 * The PSU's decision taken where there is no review page: the embedded code, the bank app's
 * approval or rejection, a decoupled request that timed out. The TPP (embedded) or the app
 * showed the subject first, so the subject decides on everything it names (ScaSubject's
 * decideWithoutReview); a refusal fails the authorisation with it.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { DecisionContext, ScaSubject } from "./subject.js";
import { changeScaStatus } from "./transitions.js";

/**
 * The PSU rejected in the bank app, or left the request unanswered (`timedOut`): the SCA failed,
 * so the subject is refused (a payment RJCT, a consent rejected, a cancellation not made).
 */
export async function refuseWithoutReview(
  deps: Pick<Deps, "store" | "clock">, tx: Tx, ctx: DecisionContext & { subject: ScaSubject },
  timedOut: boolean,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  await ctx.subject.refuseWithoutReview(tx, ctx, timedOut);
  if (ctx.authorisation) await changeScaStatus(deps.store, tx, ctx.authorisation.id, "fail", at);
}
