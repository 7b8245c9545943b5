/**
 * The PSU's decision on a payment or on its cancellation, inside the session's transaction: a
 * confirmed payment is executed on the core at once when due; every status change goes through
 * the payment's transition table.
 */
import { dateInZone } from "../../lib/clock.js";
import type { Tx } from "../ports.js";
import { nokTarget, type Decision, type DecisionContext } from "../decision.js";
import type { Deps } from "../deps.js";
import { executeDue } from "./execution.js";
import type { Payment } from "./model.js";
import { movePayment } from "./transitions.js";
import { changeScaStatus, changeScaStatusOf } from "../sca/transitions.js";

/** The review's verdict on a payment: the PSU must own the debtor account. */
export async function paymentProblem(deps: Deps, tx: Tx, psuId: string | null, p: Payment) {
  const debtor = await deps.core.findAccountByIban(tx, p.debtorAccount.iban);
  if (!debtor || debtor.psuId !== psuId) return "debtor_not_owned";
  if (debtor.status !== "enabled") return "debtor_blocked";
  return null;
}

export async function decidePayment(
  deps: Deps, tx: Tx, ctx: DecisionContext, payment: Payment, confirm: boolean,
): Promise<Decision> {
  if (ctx.resource.type === "payment" && ctx.resource.cancellation) {
    return decideCancellation(deps, tx, ctx, payment, confirm);
  }
  const { store, clock, settings } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  if (!confirm) {
    if (!(await movePayment(deps, tx, payment, "decline", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await changeScaStatus(store, tx, auth, "fail", at);
    return { ok: true, redirectTo: nokTarget(payment) };
  }
  const psuId = ctx.session.psuId ?? "";
  const problem = await paymentProblem(deps, tx, psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await movePayment(deps, tx, payment, "authorise", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  await changeScaStatus(store, tx, auth, "finalise", at);
  const today = dateInZone(clock.now(), settings.timeZone);
  if (payment.requestedExecutionDate === null || payment.requestedExecutionDate <= today) {
    await executeDue(deps, tx, payment, psuId);
  }
  return { ok: true, redirectTo: payment.redirectUri };
}

/**
 * The PSU's decision on cancelling an authorised payment not yet executed: confirmed, the payment
 * is CANC (compare-and-set against its execution) and no further execution happens.
 */
export async function decideCancellation(
  deps: Deps, tx: Tx, ctx: DecisionContext, payment: Payment, confirm: boolean,
): Promise<Decision> {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  if (!confirm) {
    await changeScaStatus(store, tx, auth, "fail", at);
    return { ok: true, redirectTo: nokTarget(payment) };
  }
  const problem = await paymentProblem(deps, tx, ctx.session.psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await movePayment(deps, tx, payment, "cancelAuthorised", { at }))) {
    return { ok: false, problem: "already_decided" };
  }
  await changeScaStatus(store, tx, auth, "finalise", at);
  await changeScaStatusOf(store, tx, payment.id, "fail", at);
  return { ok: true, redirectTo: payment.redirectUri };
}
