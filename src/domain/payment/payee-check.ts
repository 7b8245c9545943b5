/**
 * Verification of Payee at initiation: every credit transfer's payee (each payment of a bulk)
 * is checked once the request passed the rules and before anything is stored, outside the
 * database transaction, so a slow payee bank holds no lock. With Client-VOP-Requested the TPP
 * also reads the outcome in the status (Berlin Group 1.3.16: RCVC, RVCM, RVNC).
 */
import type { Deps } from "../deps.js";
import type { CheckedPayee, VopOutcome } from "../vop/ports.js";
import { NOT_POSSIBLE } from "../vop/verification.js";
import type { Tx } from "../kernel/ports.js";
import type { Payment, TransactionStatus } from "./model.js";
import { PAYMENT_CREATION } from "./transitions.js";

/** A payee and the transfer's currency: a scheme answers for some currencies only. */
export type Payee = CheckedPayee;

export interface PayeeChecks {
  /** The TPP asked to read the outcome in the status (Client-VOP-Requested: true). */
  requested: boolean;
  outcomes: ReadonlyMap<string, VopOutcome>;
}

const keyOf = (p: Payee) => `${p.iban}\n${p.name}\n${p.currency}`;

/** Checks each distinct payee once, all at once (a bulk is bounded by BULK_PAYMENT_ENTRIES_MAX). */
export async function checkPayees(
  { store, vop }: Pick<Deps, "store" | "vop">, payees: readonly Payee[], requested: boolean,
): Promise<PayeeChecks> {
  const distinct = [...new Map(payees.map((p) => [keyOf(p), p])).values()];
  const outcomes = await Promise.all(distinct.map(async (p) =>
    [keyOf(p), await vop.verify(store.db, p)] as const));
  return { requested, outcomes: new Map(outcomes) };
}

export function outcomeOf(checks: PayeeChecks, payee: Payee): VopOutcome {
  return checks.outcomes.get(keyOf(payee)) ?? NOT_POSSIBLE;
}

/** Whether a payee the TPP reads the outcome of did not match, or only closely (RVCM). */
export const mismatched = (checks: PayeeChecks, outcomes: Iterable<VopOutcome>): boolean =>
  checks.requested && [...outcomes].some((o) => o.result === "NMTC" || o.result === "CMTC");

/**
 * The status a payment is created in (transitions.ts, its "create" rows): RCVD, or with
 * Client-VOP-Requested the check's: RCVC when every payee matched, RVCM when one did not or only
 * closely, RVNC when one could not be checked.
 */
export function createdStatus(checks: PayeeChecks, outcomes: readonly VopOutcome[]):
  TransactionStatus {
  if (!checks.requested) return PAYMENT_CREATION.create.to;
  if (mismatched(checks, outcomes)) return PAYMENT_CREATION.createPayeeMismatched.to;
  return outcomes.some((o) => o.result === "NOAP") ? PAYMENT_CREATION.createPayeeUnchecked.to
    : PAYMENT_CREATION.createPayeesMatched.to;
}

/** The ids of the payments whose payee account is the debtor account holder's own. */
export async function ownAccountTransfers(
  { vop }: Pick<Deps, "vop">, tx: Tx, payments: readonly Payment[],
): Promise<string[]> {
  const own: string[] = [];
  for (const p of payments) {
    const transfer = { debtor: p.debtorAccount.iban, creditor: p.creditorAccount.iban };
    if (await vop.ownAccount(tx, transfer)) own.push(p.id);
  }
  return own;
}

/**
 * The payments whose payee's name did not match (NMTC), leaving out transfers to the holder's own
 * accounts: each of these needs the PSU's tick before Confirm.
 */
export async function unmatchedPayees(
  deps: Pick<Deps, "vop">, tx: Tx, payments: readonly Payment[],
): Promise<Payment[]> {
  const unmatched = payments.filter((p) => p.vop?.result === "NMTC");
  const own = await ownAccountTransfers(deps, tx, unmatched);
  return unmatched.filter((p) => !own.includes(p.id));
}
