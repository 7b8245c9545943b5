/**
 * The PSU's one decision on a signing basket, inside the session's transaction: the basket is
 * ACTC (or RJCT) and its authorisation finalised (or failed). Its items are carried out
 * afterwards, each in a transaction of its own (carry-out.ts), as if decided on their own.
 */
import type { Tx } from "../kernel/ports.js";
import { settleAuthorisation, type Decision, type DecisionContext } from "../sca/decision.js";
import type { Deps } from "../deps.js";
import { awaitsPsu } from "../payment/model.js";
import { signingProblem } from "../payment/decision.js";
import { unmatchedPayees } from "../payment/payee-check.js";
import { signatureEvent, signaturesBefore, signedBy } from "../signatures/signatures.js";
import type { ScaProblem } from "../sca/problems.js";
import { awaitsSignature } from "../consent/transitions.js";
import type { BasketView } from "./model.js";
import { moveBasket } from "./transitions.js";

/** The basket's payments and consents that still await their PSU: what its SCA decides. */
export function awaitingItems(resource: BasketView) {
  return {
    payments: resource.payments.filter((p) => awaitsPsu(p.status)),
    consents: resource.consents.filter((c) => awaitsSignature(c.status)),
  };
}

/**
 * Why this PSU may not confirm: the first payment from an account that is not (or no more) its,
 * or that it may only see; or it signed this basket already (multi-level SCA).
 */
export async function basketProblem(
  deps: Deps, tx: Tx, psuId: string | null, resource: BasketView,
): Promise<ScaProblem | null> {
  for (const payment of awaitingItems(resource).payments) {
    const problem = await signingProblem(deps, tx, psuId, payment, { once: false });
    if (problem) return problem;
  }
  const signed = psuId !== null && (await signedBy(deps, tx, resource.basket.id, psuId));
  return signed ? "already_signed" : null;
}

export async function decideBasket(
  deps: Deps, tx: Tx, ctx: DecisionContext, resource: BasketView,
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
  const unmatched = await unmatchedPayees(deps, tx, awaitingItems(resource).payments);
  if (unmatched.length > 0 && !acknowledgedNoMatch) {
    return { ok: false, problem: "vop_unacknowledged" };
  }
  const event = signatureEvent(basket);
  const change = { at, psuId, signaturesBefore: signaturesBefore(basket) };
  if (!(await moveBasket(deps, tx, basket.id, event, change))) {
    return { ok: false, problem: "already_decided" };
  }
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  return { ok: true };
}
