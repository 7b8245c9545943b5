/**
 * Status changes of a payment outside the PSU's decision: rejection when SCA was not completed
 * in time, and cancellation by the TPP. Every change is a compare-and-set on the status, so of
 * two racing requests exactly one wins and the other sees the new status.
 */
import { dateInZone } from "../lib/clock.js";
import type { Tx } from "../store/db.js";
import { executeDue } from "./decisions.js";
import type { Deps } from "./deps.js";
import { Xs2aError } from "./errors.js";
import type { Payment } from "./payments-model.js";
import { changeScaStatusOf } from "./sca/transitions.js";

export const SCA_EXPIRED = "sca_expired";

/** Whether `payment` is still RCVD after the SCA timeout, i.e. due to become RJCT. */
export function scaExpired({ settings }: Pick<Deps, "settings">, payment: Payment, now: Date):
  boolean {
  const deadline = Date.parse(payment.createdAt) + settings.paymentScaTimeoutSeconds * 1000;
  return payment.status === "RCVD" && now.getTime() > deadline;
}

/**
 * A payment still RCVD after the SCA timeout becomes RJCT (reason sca_expired), and its open
 * authorisations fail. Applied lazily wherever a payment is read or acted upon, so no sweep is
 * needed for correctness. Returns the payment as it now stands.
 */
export async function rejectIfScaExpired(deps: Deps, tx: Tx, payment: Payment): Promise<Payment> {
  const { store, clock } = deps;
  const now = clock.now();
  if (!scaExpired(deps, payment, now)) return payment;
  const at = now.toISOString();
  const change = { at, reason: SCA_EXPIRED };
  if (await store.payments.transition(tx, payment.id, ["RCVD"], "RJCT", change)) {
    await changeScaStatusOf(store.sca, tx, payment.id, "fail", at);
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
  const cancelled = payment.status === "RCVD"
    && (await store.payments.transition(tx, payment.id, ["RCVD"], "CANC", { at }));
  if (cancelled) {
    await changeScaStatusOf(store.sca, tx, payment.id, "fail", at);
    return;
  }
  const now = payment.status === "RCVD" ? "CANC" : payment.status;
  throw new Xs2aError("CANCELLATION_INVALID", "state",
    `The payment can no longer be cancelled: its status is ${now}.`);
}

/**
 * Executes the authorised future-dated payments and standing-order executions that are due, each
 * in its own transaction, then settles payments to other banks; returns how many it executed and
 * settled. Safe to run concurrently or repeatedly: the status change is a
 * compare-and-set and the core books a payment id at most once.
 */
export async function executeDuePayments(deps: Deps, now: Date): Promise<number> {
  const { store, settings } = deps;
  const today = dateInZone(now, settings.timeZone);
  const due = await store.payments.dueForExecution(store.db, today, 500);
  let executed = 0;
  // A standing order whose runs were missed (the bank was down) catches up one execution at a time.
  for (const payment of due) {
    for (let more = true; more;) {
      more = await store.transaction(async (tx) => {
        const current = await store.payments.find(tx, payment.id);
        const date = current?.requestedExecutionDate;
        if (current?.status !== "ACTC" || !date || date > today) return false;
        await executeDue(deps, tx, current, current.psuId ?? "");
        executed += 1;
        return current.standingOrder !== null;
      });
    }
  }
  return executed + (await settleClearing(deps, now));
}

/**
 * Payments to other banks whose settlement time has passed go from ACSP to ACCC (compare-and-
 * set, so two runs settle each once). Returns how many it settled.
 */
async function settleClearing(deps: Deps, now: Date): Promise<number> {
  const { store, settings } = deps;
  if (!settings.clearingSettlementSeconds) return 0;
  const before = new Date(now.getTime() - settings.clearingSettlementSeconds * 1000).toISOString();
  const due = await store.payments.dueForSettlement(store.db, before, 500);
  let settled = 0;
  for (const payment of due) {
    const at = now.toISOString();
    if (await store.payments.transition(store.db, payment.id, ["ACSP"], "ACCC", { at })) settled += 1;
  }
  return settled;
}
