/**
 * The PSU's one decision on a signing basket, inside the session's transaction: the basket is
 * ACTC (or RJCT) and its authorisation finalised (or failed). Its items are carried out
 * afterwards, each in a transaction of its own (carry-out.ts), as if decided on their own.
 */
import type { Tx } from "../ports.js";
import { settleAuthorisation, type Decision, type DecisionContext } from "../decision.js";
import type { Deps } from "../deps.js";
import { awaitsPsu } from "../payment/model.js";
import { paymentProblem } from "../payment/decision.js";
import type { BasketResource } from "../sca/context.js";
import type { ScaProblem } from "../sca/problems.js";
import { moveBasket } from "./transitions.js";

/** The basket's payments and consents that still await their PSU: what its SCA decides. */
export function awaitingItems(resource: BasketResource) {
  return {
    payments: resource.payments.filter((p) => awaitsPsu(p.status)),
    consents: resource.consents.filter((c) => c.status === "received"),
  };
}

/** Why this PSU may not confirm: the first payment from an account that is not (or no more) its. */
export async function basketProblem(
  deps: Deps, tx: Tx, psuId: string | null, resource: BasketResource,
): Promise<ScaProblem | null> {
  for (const payment of awaitingItems(resource).payments) {
    const problem = await paymentProblem(deps, tx, psuId, payment);
    if (problem) return problem;
  }
  return null;
}

export async function decideBasket(
  deps: Deps, tx: Tx, ctx: DecisionContext, resource: BasketResource,
  { confirm, acknowledgedNoMatch = false }: { confirm: boolean; acknowledgedNoMatch?: boolean },
): Promise<Decision> {
  const at = deps.clock.now().toISOString();
  const psuId = ctx.session.psuId ?? undefined;
  const { basket } = resource;
  if (!confirm) {
    if (!(await moveBasket(deps, tx, basket.id, "refuse", { at, psuId }))) {
      return { ok: false, problem: "already_decided" };
    }
    await settleAuthorisation(deps, tx, ctx, "fail", at);
    return { ok: true };
  }
  const problem = await basketProblem(deps, tx, ctx.session.psuId, resource);
  if (problem) return { ok: false, problem };
  const unmatched = awaitingItems(resource).payments.some((p) => p.vop?.result === "NMTC");
  if (unmatched && !acknowledgedNoMatch) return { ok: false, problem: "vop_unacknowledged" };
  if (!(await moveBasket(deps, tx, basket.id, "authorise", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  return { ok: true };
}
