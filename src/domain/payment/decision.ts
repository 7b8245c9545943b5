/**
 * The PSU's decision on a payment or on its cancellation, inside the session's transaction: a
 * confirmed payment is executed on the core at once when due; every status change goes through
 * the payment's transition table.
 */
import { dateInZone } from "../../lib/clock.js";
import { newTimeOrderedUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import {
  exemptionTaken, settleAuthorisation, type Decision, type DecisionContext,
} from "../sca/decision.js";
import type { Deps } from "../deps.js";
import { executeDue } from "./execution.js";
import { awaitsPsu, type Payment } from "./model.js";
import { unmatchedPayees } from "./payee-check.js";
import { movePayment } from "./transitions.js";
import { spendExemption } from "../exemptions/payments.js";
import { auditExemption } from "../exemptions/audit.js";
import type { ScaExemption } from "../sca/model.js";
import { changeScaStatusOf } from "../sca/transitions.js";
import type { ScaProblem } from "../sca/problems.js";
import {
  signatureEvent, signaturesBefore, signedBy, type SignatureEvent,
} from "../signatures/signatures.js";

/** The PSU's right on the payment's debtor account, if the account is there and enabled. */
async function debtorRight(deps: Deps, tx: Tx, psuId: string | null, p: Payment) {
  const debtor = await deps.core.findAccountByIban(tx, p.debtorAccount.iban);
  const right = debtor && psuId !== null ? await deps.core.rightOn(tx, psuId, debtor) : undefined;
  if (!debtor || right === undefined) return "debtor_not_owned";
  return debtor.status === "enabled" ? right : "debtor_blocked";
}

/**
 * Whether the PSU may see the payment (or its cancellation) at all: it must hold the debtor
 * account, or be a user of the company that does.
 */
export async function paymentProblem(
  deps: Deps, tx: Tx, psuId: string | null, p: Payment,
): Promise<ScaProblem | null> {
  const right = await debtorRight(deps, tx, psuId, p);
  return right === "debtor_not_owned" || right === "debtor_blocked" ? right : null;
}

/**
 * Whether the PSU may decide it: as paymentProblem, and a company's user needs the right to sign
 * and, with `once` (a signature on the payment itself, not on its cancellation or its basket),
 * signs it only once.
 */
export async function signingProblem(
  deps: Deps, tx: Tx, psuId: string | null, p: Payment, { once = true } = {},
): Promise<ScaProblem | null> {
  const right = await debtorRight(deps, tx, psuId, p);
  if (right === "debtor_not_owned" || right === "debtor_blocked") return right;
  if (right === "viewer") return "no_signing_right";
  if (!once || psuId === null) return null;
  return (await signedBy(deps, tx, p.id, psuId)) ? "already_signed" : null;
}

/** The payment, or a bulk's payments. */
async function paymentsOf({ store }: Deps, tx: Tx, payment: Payment): Promise<Payment[]> {
  return payment.service === "bulk-payments"
    ? store.payments.entriesOf(tx, payment.id) : [payment];
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

/**
 * One more signature, as a compare-and-set on the payment's count. A signature another user gave
 * meanwhile (committed while this transaction ran, as PostgreSQL lets it see) is counted first,
 * so two users signing at once both count; never the same user twice. Bounded by the signatures
 * the payment needs.
 */
async function sign(
  deps: Deps, tx: Tx, payment: Payment, change: { at: string; psuId: string },
): Promise<SignatureEvent | null> {
  let current = payment;
  for (let attempt = 0; attempt < (payment.signaturesRequired ?? 1); attempt += 1) {
    const event = signatureEvent(current);
    const moved = await movePayment(deps, tx, current, event,
      { ...change, signaturesBefore: signaturesBefore(current) });
    if (moved) return event;
    const fresh = await deps.store.payments.find(tx, payment.id);
    if (!fresh || !awaitsPsu(fresh.status) || fresh.signatures === current.signatures
      || (await signedBy(deps, tx, payment.id, change.psuId))) return null;
    current = fresh;
  }
  return null;
}

/** The PSU's signature, with the exemption its password-only login took, if any. */
interface Signature { payment: Payment; psuId: string; at: string; exemption: ScaExemption | null }

/**
 * One more signature (the payment ACTC after the last), and with an exemption taken at login the
 * payment counted as one without a second factor (in the audit log with its article); neither
 * when the exemption no longer holds.
 */
async function signWithin(
  deps: Deps, tx: Tx, s: Signature,
): Promise<SignatureEvent | "already_decided" | "exemption_spent"> {
  const { payment, psuId, at, exemption } = s;
  const done: { event: SignatureEvent | null; spent: boolean } = { event: null, spent: true };
  const kept = await deps.store.savepoints.keepIf(tx, async () => {
    done.event = await sign(deps, tx, payment, { at, psuId });
    if (!done.event) return false;
    done.spent = exemption === null
      || (await spendExemption(deps, tx, exemption, { psuId, payment }));
    return done.spent;
  });
  if (!kept || !done.event) return done.spent ? "already_decided" : "exemption_spent";
  if (exemption) {
    await auditExemption(deps, tx, { exemption, tppId: payment.tppId, resourceId: payment.id, at });
  }
  return done.event;
}

export async function decidePayment(
  deps: Deps, tx: Tx, ctx: DecisionContext, payment: Payment,
  { confirm, acknowledgedNoMatch = false }: { confirm: boolean; acknowledgedNoMatch?: boolean },
): Promise<Decision> {
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
  const problem = await signingProblem(deps, tx, psuId, payment);
  if (problem) return { ok: false, problem };
  const unmatched = await unmatchedPayees(deps, tx, await paymentsOf(deps, tx, payment));
  if (unmatched.length > 0 && !acknowledgedNoMatch) {
    return { ok: false, problem: "vop_unacknowledged" };
  }
  const exemption = await exemptionTaken(deps, tx, ctx);
  const event = await signWithin(deps, tx, { payment, psuId, at, exemption });
  if (event === "already_decided" || event === "exemption_spent") {
    return { ok: false, problem: event };
  }
  if (unmatched.length > 0) await recordOverride(deps, tx, payment, unmatched, at);
  await settleAuthorisation(deps, tx, ctx, exemption ? "exempt" : "finalise", at, psuId);
  if (event === "signPartly") return { ok: true };
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
  const problem = await signingProblem(deps, tx, ctx.session.psuId, payment, { once: false });
  if (problem) return { ok: false, problem };
  if (!(await movePayment(deps, tx, payment, "cancelAuthorised", { at }))) {
    return { ok: false, problem: "already_decided" };
  }
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  await changeScaStatusOf(store, tx, payment.id, "fail", at);
  return { ok: true };
}
