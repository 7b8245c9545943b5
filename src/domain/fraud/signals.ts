/**
 * Fraud signals (PSR arts. 83 and 89 in the Commission's proposal COM(2023) 367): a PSU reports a
 * payment as fraud (the operator's `payment report-fraud`, the dashboard's action); a payee IBAN
 * that two or more distinct PSUs of this bank reported is flagged, and so is one another PSP
 * shared through an information-sharing arrangement. The PSU's review warns of a flagged payee.
 */
import type { StoreDeps } from "../deps.js";
import type { Tx } from "../kernel/ports.js";

/** PSR art. 83(3), proposal: at least two different PSUs notified the same identifier. */
export const REPORTERS_MIN = 2;

/** Statuses of an executed credit transfer: only what left the account can be reported. */
const EXECUTED: readonly string[] = ["ACSC", "ACCC", "ACSP"];

/** A payment as a report needs it, whatever its aggregate says besides. */
export interface ReportedPayment { id: string; status: string; creditorAccount: { iban: string } }

export type ReportOutcome = "reported" | "already_reported" | "not_executed";

/** An executed credit transfer to a payee IBAN (a bulk's own row has none: its payments do). */
export const isReportable = (payment: ReportedPayment): boolean =>
  EXECUTED.includes(payment.status) && payment.creditorAccount.iban !== "";

/** Records `psuId`'s report of `payment` as fraud. */
export async function reportFraud(
  { store, clock }: StoreDeps<"fraudSignals", "clock">, tx: Tx, payment: ReportedPayment,
  psuId: string,
): Promise<ReportOutcome> {
  if (!isReportable(payment)) return "not_executed";
  const recorded = await store.fraudSignals.report(tx, {
    paymentId: payment.id, psuId, payeeIban: payment.creditorAccount.iban,
    at: clock.now().toISOString(),
  });
  return recorded ? "reported" : "already_reported";
}

/** Whether the payee IBAN is flagged now. */
export async function isFlagged(
  { store }: StoreDeps<"fraudSignals">, tx: Tx, iban: string,
): Promise<boolean> {
  return (await store.fraudSignals.flaggedAmong(tx, [iban], REPORTERS_MIN)).length > 0;
}

/** Of the payments, the ids of those whose payee IBAN is flagged. */
export async function flaggedPayments(
  { store }: StoreDeps<"fraudSignals">, tx: Tx,
  payments: readonly { id: string; creditorAccount: { iban: string } }[],
): Promise<string[]> {
  const ibans = [...new Set(payments.map((p) => p.creditorAccount.iban))];
  const flagged = new Set(await store.fraudSignals.flaggedAmong(tx, ibans, REPORTERS_MIN));
  return payments.filter((p) => flagged.has(p.creditorAccount.iban)).map((p) => p.id);
}
