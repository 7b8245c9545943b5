/**
 * Execution of an authorised payment on the core: the payment itself, a bulk's payments, or a
 * standing order's next execution, now or when due. The core books first; the outcome is then
 * recorded in the same transaction (compare-and-set), so no reader sees a status the payment
 * will lose, and a booking whose record loses a race is undone.
 */
import { dateInZone } from "../../lib/clock.js";
import type { Tx } from "../kernel/ports.js";
import type { ExecutionOutcome } from "../account-information/core-banking.js";
import type { Deps } from "../deps.js";
import { auditExemption } from "../exemptions/audit.js";
import type { ScaExemption } from "../sca/model.js";
import type { Payment } from "./model.js";
import { executionDate } from "./standing-orders.js";
import { advanceOrder, movePayment } from "./transitions.js";

/** Executes what is due of an ACTC payment: itself, or a standing order's next execution. */
export async function executeDue(deps: Deps, tx: Tx, payment: Payment, psuId: string) {
  if (payment.standingOrder) await executeInstalment(deps, tx, payment);
  else if (payment.service === "bulk-payments") await executeBulk(deps, tx, payment, psuId);
  else await executeNow(deps, tx, payment, psuId);
}

const refused = (o: ExecutionOutcome) => o.status === "rejected";

async function bookEach(deps: Deps, tx: Tx, entries: Payment[]): Promise<ExecutionOutcome[]> {
  const outcomes: ExecutionOutcome[] = [];
  for (const entry of entries) outcomes.push(await book(deps, tx, entry, entry.id));
  return outcomes;
}

/** All or nothing: one refused payment undoes the others, which all share its reason. */
async function bookBatch(deps: Deps, tx: Tx, entries: Payment[]): Promise<ExecutionOutcome[]> {
  let outcomes: ExecutionOutcome[] = [];
  await deps.store.savepoints.keepIf(tx, async () => {
    outcomes = await bookEach(deps, tx, entries);
    return !outcomes.some(refused);
  });
  const first = outcomes.find(refused);
  return first ? entries.map(() => first) : outcomes;
}

/**
 * Books a bulk's payments, as one batch or one by one as the TPP preferred, then records each
 * payment's outcome and the bulk's: ACSC when all were booked, PART when some, RJCT when none.
 * Should the bulk no longer be ACTC by then (a cancellation won the race), nothing stays booked.
 */
async function executeBulk(deps: Deps, tx: Tx, bulk: Payment, psuId: string) {
  const at = deps.clock.now().toISOString();
  await deps.store.savepoints.keepIf(tx, async () => {
    const entries = await deps.store.payments.entriesOf(tx, bulk.id);
    const outcomes = await (bulk.batchBooking ? bookBatch : bookEach)(deps, tx, entries);
    // The payments first: a bulk ending RJCT would otherwise take them along without a reason.
    for (const [i, entry] of entries.entries()) {
      const reason = reasonOf(outcomes[i]);
      const event = reason ? "refuseEntry" : "bookEntry";
      await movePayment(deps, tx, entry, event, { at, psuId, reason });
    }
    const reason = reasonOf(outcomes.find(refused));
    const booked = outcomes.filter((o) => !refused(o)).length;
    const event = !reason ? "book" : booked === 0 ? "refuseBooking" : "bookPartly";
    return movePayment(deps, tx, bulk, event, { at, psuId, reason });
  });
}

const reasonOf = (o: ExecutionOutcome | undefined) => (o?.status === "rejected" ? o.reason : null);

/**
 * A SEPA credit transfer to another bank was booked to the clearing account and settles with
 * the creditor's bank later, when the bank is set to model that delay; an instant payment
 * settles at once, one within the bank at booking.
 */
async function settlesLater(deps: Deps, tx: Tx, payment: Payment): Promise<boolean> {
  if (!deps.settings.clearingSettlementSeconds) return false;
  if (payment.product !== "sepa-credit-transfers") return false;
  return (await deps.core.findAccountByIban(tx, payment.creditorAccount.iban)) === undefined;
}

/**
 * Books a standing order's next execution, then claims it by advancing the order's counter
 * (compare-and-set): should another run have claimed it or a cancellation won, the booking is
 * undone, so none is booked twice and none after a cancellation. A rejected execution (e.g.
 * insufficient funds) is skipped with its reason noted; the order goes on.
 */
async function executeInstalment(deps: Deps, tx: Tx, payment: Payment) {
  const order = payment.standingOrder;
  if (!order) return;
  const n = payment.executions;
  const at = deps.clock.now().toISOString();
  const nextDate = executionDate(order, n + 1);
  const claimed = await deps.store.savepoints.keepIf(tx, async () => {
    const reason = reasonOf(await book(deps, tx, payment, instalmentId(payment.id, n)));
    return advanceOrder(deps, tx, payment, { at, nextDate, reason });
  });
  const exemption = recurringExemption(n);
  if (claimed && exemption) {
    await auditExemption(deps, tx, { exemption, tppId: payment.tppId, resourceId: payment.id, at },
      `standing order execution ${n + 1}`);
  }
}

/**
 * RTS art. 14: the PSU's SCA of a standing order covers its series (same amount, same payee,
 * neither of which can change); every execution after the first goes without one.
 */
export const recurringExemption = (n: number): ScaExemption | null => (n > 0 ? "14" : null);

/** The core's booking id of execution n (from 0) of a standing order. */
export function instalmentId(paymentId: string, n: number): string {
  return `${paymentId}-${n + 1}`;
}

/** Books one order on the core under `bookingId`, the id the core books at most once. */
async function book(deps: Deps, tx: Tx, payment: Payment, bookingId: string):
  Promise<ExecutionOutcome> {
  const { core } = deps;
  const debtor = await core.findAccountByIban(tx, payment.debtorAccount.iban);
  if (!debtor) return { status: "rejected", reason: "account_unknown" };
  return core.executePayment(tx, {
    paymentId: bookingId, debtorAccountId: debtor.id, debtorName: debtor.ownerName,
    creditorIban: payment.creditorAccount.iban, creditorName: payment.creditorName,
    amountMinor: payment.amountMinor, currency: payment.currency,
    remittance: payment.remittance, endToEndId: payment.endToEndId,
  });
}

/**
 * Books an ACTC payment on the core, then records the outcome (ACSC, ACSP or RJCT) in the same
 * transaction, so no reader sees a status the payment will lose. Should the payment no longer be
 * ACTC by then (a cancellation won the race), the booking is undone.
 */
export async function executeNow(deps: Deps, tx: Tx, payment: Payment, psuId: string) {
  const at = deps.clock.now().toISOString();
  await deps.store.savepoints.keepIf(tx, async () => {
    const reason = reasonOf(await book(deps, tx, payment, payment.id));
    const event = reason ? "refuseBooking"
      : (await settlesLater(deps, tx, payment)) ? "bookToClearing" : "book";
    return movePayment(deps, tx, payment, event, { at, psuId, reason });
  });
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
    if (await movePayment(deps, store.db, payment, "settle", { at })) settled += 1;
  }
  return settled;
}
