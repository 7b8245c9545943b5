/**
 * The PSU's decision on a payment or on its cancellation, inside the session's transaction: a
 * confirmed payment is executed on the core at once when due; every status change goes through
 * the payment's transition table.
 */
import { dateInZone } from "../../lib/clock.js";
import { newTimeOrderedUuid } from "../../lib/ids.js";
import type { Tx } from "../ports.js";
import { settleAuthorisation, type Decision, type DecisionContext } from "../decision.js";
import type { Deps } from "../deps.js";
import { executeDue } from "./execution.js";
import type { Payment } from "./model.js";
import { movePayment } from "./transitions.js";
import { changeScaStatusOf } from "../sca/transitions.js";

/** The review's verdict on a payment: the PSU must own the debtor account. */
export async function paymentProblem(deps: Deps, tx: Tx, psuId: string | null, p: Payment) {
  const debtor = await deps.core.findAccountByIban(tx, p.debtorAccount.iban);
  if (!debtor || debtor.psuId !== psuId) return "debtor_not_owned";
  if (debtor.status !== "enabled") return "debtor_blocked";
  return null;
}

/** The payments (a bulk's payments) whose payee's name did not match (NMTC). */
async function unmatchedPayees({ store }: Deps, tx: Tx, payment: Payment): Promise<Payment[]> {
  const all = payment.service === "bulk-payments"
    ? await store.payments.entriesOf(tx, payment.id) : [payment];
  return all.filter((p) => p.vop?.result === "NMTC");
}

/** The PSU confirmed despite no match: kept on the payments and in the audit log. */
async function recordOverride(
  { store }: Deps, tx: Tx, payment: Payment, unmatched: readonly Payment[], at: string,
): Promise<void> {
  await store.payments.markVopOverridden(tx, unmatched.map((p) => p.id), at);
  await store.audit.append(tx, [{
    id: newTimeOrderedUuid(), at, tppId: payment.tppId, requestId: null, psuIp: null,
    method: "PSU", path: VOP_OVERRIDE_PATH, resourceId: payment.id, status: 200, ms: 0,
  }]);
}

/** How the audit log names a confirmation despite no match (README, Verification of Payee). */
export const VOP_OVERRIDE_PATH = "/sca/confirm (payee name: no match, confirmed)";

export async function decidePayment(
  deps: Deps, tx: Tx, ctx: DecisionContext, payment: Payment,
  { confirm, acknowledgedNoMatch = false }: { confirm: boolean; acknowledgedNoMatch?: boolean },
): Promise<Decision> {
  if (ctx.resource.type === "payment" && ctx.resource.cancellation) {
    return decideCancellation(deps, tx, ctx, payment, confirm);
  }
  const { clock, settings } = deps;
  const at = clock.now().toISOString();
  if (!confirm) {
    if (!(await movePayment(deps, tx, payment, "decline", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await settleAuthorisation(deps, tx, ctx, "fail", at);
    return { ok: true };
  }
  const psuId = ctx.session.psuId ?? "";
  const problem = await paymentProblem(deps, tx, psuId, payment);
  if (problem) return { ok: false, problem };
  const unmatched = await unmatchedPayees(deps, tx, payment);
  if (unmatched.length > 0 && !acknowledgedNoMatch) {
    return { ok: false, problem: "vop_unacknowledged" };
  }
  if (!(await movePayment(deps, tx, payment, "authorise", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  if (unmatched.length > 0) await recordOverride(deps, tx, payment, unmatched, at);
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  const today = dateInZone(clock.now(), settings.timeZone);
  if (payment.requestedExecutionDate === null || payment.requestedExecutionDate <= today) {
    await executeDue(deps, tx, payment, psuId);
  }
  return { ok: true };
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
  if (!confirm) {
    await settleAuthorisation(deps, tx, ctx, "fail", at);
    return { ok: true };
  }
  const problem = await paymentProblem(deps, tx, ctx.session.psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await movePayment(deps, tx, payment, "cancelAuthorised", { at }))) {
    return { ok: false, problem: "already_decided" };
  }
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  await changeScaStatusOf(store, tx, payment.id, "fail", at);
  return { ok: true };
}
