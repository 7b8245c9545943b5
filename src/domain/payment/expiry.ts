/**
 * Status changes of a payment outside the PSU's decision: rejection when SCA was not completed
 * in time, and cancellation by the TPP. Every change is a compare-and-set on the status, so of
 * two racing requests exactly one wins and the other sees the new status.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { cancellationTooLate } from "../kernel/errors.js";
import { awaitsPsu, type Payment } from "./model.js";
import { movePayment } from "./transitions.js";
import { changeScaStatusOf } from "../sca/transitions.js";

export const SCA_EXPIRED = "sca_expired";

/** Whether `payment` still awaits the PSU after the SCA timeout, i.e. due to become RJCT. */
export function scaExpired({ settings }: Pick<Deps, "settings">, payment: Payment, now: Date):
  boolean {
  const deadline = Date.parse(payment.createdAt) + settings.paymentScaTimeoutSeconds * 1000;
  return awaitsPsu(payment.status) && now.getTime() > deadline;
}

/**
 * A payment still awaiting the PSU after the SCA timeout becomes RJCT (reason sca_expired), and
 * its open authorisations fail. Applied lazily wherever a payment is read or acted upon, so no
 * sweep is needed for correctness. Returns the payment as it now stands.
 */
export async function rejectIfScaExpired(deps: Deps, tx: Tx, payment: Payment): Promise<Payment> {
  const { store, clock } = deps;
  const now = clock.now();
  if (!scaExpired(deps, payment, now)) return payment;
  const at = now.toISOString();
  const change = { at, reason: SCA_EXPIRED };
  if (await movePayment(deps, tx, payment, "expireSca", change)) {
    await changeScaStatusOf(store, tx, payment.id, "fail", at);
  }
  return (await store.payments.find(tx, payment.id)) ?? payment;
}

/**
 * Cancels a payment the PSU has not authorised yet (CANC at once). Throws CANCELLATION_INVALID
 * for a payment that is already executed, rejected or cancelled.
 */
export async function cancelUnauthorised(deps: Deps, tx: Tx, found: Payment): Promise<void> {
  const { store, clock } = deps;
  const payment = await rejectIfScaExpired(deps, tx, found);
  const at = clock.now().toISOString();
  const cancelled = awaitsPsu(payment.status)
    && (await movePayment(deps, tx, payment, "cancel", { at }));
  if (cancelled) {
    await changeScaStatusOf(store, tx, payment.id, "fail", at);
    return;
  }
  const now = awaitsPsu(payment.status) ? "CANC" : payment.status;
  throw cancellationTooLate(now);
}
