/**
 * What a PSU's decision does to its payment or consent, inside the session's transaction:
 * a confirmed payment is executed on the core at once; a confirmed consent is granted on the
 * accounts the PSU selected. All status changes are compare-and-set.
 */
import { dateInZone } from "../lib/clock.js";
import type { Tx } from "../store/db.js";
import type { SessionContext } from "./sca/context.js";
import type { ScaProblem } from "./sca/problems.js";
import { changeScaStatus, changeScaStatusOf } from "./sca/transitions.js";
import type { Consent, GrantedAccount } from "./consents-model.js";
import type { Deps } from "./deps.js";
import type { Payment } from "./payments-model.js";
import { executionDate } from "./standing-orders.js";
import type { ExecutionOutcome } from "./core-banking.js";

export type Decision = { ok: true; redirectTo: string } | { ok: false; problem: ScaProblem };

/** Where a refusal sends the browser: the Nok URI when the TPP gave one. */
const nokTarget = (r: { redirectUri: string; nokRedirectUri: string | null }) =>
  r.nokRedirectUri ?? r.redirectUri;

/** The review's verdict on a payment: the PSU must own the debtor account. */
export async function paymentProblem(deps: Deps, tx: Tx, psuId: string | null, p: Payment) {
  const debtor = await deps.core.findAccountByIban(tx, p.debtorAccount.iban);
  if (!debtor || debtor.psuId !== psuId) return "debtor_not_owned";
  if (debtor.status !== "enabled") return "debtor_blocked";
  return null;
}

export async function decidePayment(
  deps: Deps, tx: Tx, ctx: SessionContext, payment: Payment, confirm: boolean,
): Promise<Decision> {
  if (ctx.resource.type === "payment" && ctx.resource.cancellation) {
    return decideCancellation(deps, tx, ctx, payment, confirm);
  }
  const { store, clock, settings } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  if (!confirm) {
    if (!(await store.payments.transition(tx, payment.id, ["RCVD"], "CANC", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await changeScaStatus(store.sca, tx, auth, "fail", at);
    return { ok: true, redirectTo: nokTarget(payment) };
  }
  const psuId = ctx.session.psuId ?? "";
  const problem = await paymentProblem(deps, tx, psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await store.payments.transition(tx, payment.id, ["RCVD"], "ACTC", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  await changeScaStatus(store.sca, tx, auth, "finalise", at);
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
  deps: Deps, tx: Tx, ctx: SessionContext, payment: Payment, confirm: boolean,
): Promise<Decision> {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  if (!confirm) {
    await changeScaStatus(store.sca, tx, auth, "fail", at);
    return { ok: true, redirectTo: nokTarget(payment) };
  }
  const problem = await paymentProblem(deps, tx, ctx.session.psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await store.payments.transition(tx, payment.id, ["ACTC"], "CANC", { at }))) {
    return { ok: false, problem: "already_decided" };
  }
  await changeScaStatus(store.sca, tx, auth, "finalise", at);
  await changeScaStatusOf(store.sca, tx, payment.id, "fail", at);
  return { ok: true, redirectTo: payment.redirectUri };
}

/** Executes what is due of an ACTC payment: the payment itself, or a standing order's next execution. */
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
 * Books a bulk's payments, as one batch or one by one as the TPP preferred, after claiming the
 * bulk (compare-and-set). The bulk ends ACSC when all were booked, PATC when some, RJCT when none.
 */
async function executeBulk(deps: Deps, tx: Tx, bulk: Payment, psuId: string) {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  if (!(await store.payments.transition(tx, bulk.id, ["ACTC"], "ACSC", { at, psuId }))) return;
  const entries = await store.payments.entriesOf(tx, bulk.id);
  const outcomes = await (bulk.batchBooking ? bookBatch : bookEach)(deps, tx, entries);
  for (const [i, entry] of entries.entries()) {
    const outcome = outcomes[i];
    const reason = outcome?.status === "rejected" ? outcome.reason : null;
    await store.payments.transition(tx, entry.id, ["RCVD"], reason ? "RJCT" : "ACSC", { at, psuId, reason });
  }
  const firstRefusal = outcomes.find(refused);
  if (firstRefusal?.status !== "rejected") return;
  const booked = outcomes.filter((o) => !refused(o)).length;
  await store.payments.transition(tx, bulk.id, ["ACSC"], booked === 0 ? "RJCT" : "PATC",
    { at, psuId, reason: firstRefusal.reason });
}

/**
 * A SEPA credit transfer to another bank was booked to the clearing account and settles with
 * the creditor's bank later, when the bank is set to model that delay; an instant payment
 * settles at once, one within the bank at booking.
 */
async function settlesLater(deps: Deps, tx: Tx, payment: Payment): Promise<boolean> {
  if (!deps.settings.clearingSettlementSeconds || payment.product !== "sepa-credit-transfers") return false;
  return (await deps.core.findAccountByIban(tx, payment.creditorAccount.iban)) === undefined;
}

/**
 * Books a standing order's next execution, claimed first by advancing its counter (compare-and-
 * set), so no execution is booked twice and none after a cancellation. A rejected execution
 * (e.g. insufficient funds) is skipped with its reason noted; the order goes on.
 */
async function executeInstalment(deps: Deps, tx: Tx, payment: Payment) {
  const { store, clock } = deps;
  const order = payment.standingOrder;
  if (!order) return;
  const n = payment.executions;
  const at = clock.now().toISOString();
  const nextDate = executionDate(order, n + 1);
  if (!(await store.payments.advanceStandingOrder(tx, payment.id, n, { at, nextDate }))) return;
  const outcome = await book(deps, tx, payment, instalmentId(payment.id, n));
  if (outcome.status === "rejected") await store.payments.noteReason(tx, payment.id, outcome.reason);
}

/** The core's booking id of execution n (from 0) of a standing order. */
export function instalmentId(paymentId: string, n: number): string {
  return `${paymentId}-${n + 1}`;
}

/** Books one order on the core under `bookingId`, the id the core books at most once. */
async function book(deps: Deps, tx: Tx, payment: Payment, bookingId: string): Promise<ExecutionOutcome> {
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
 * Books an ACTC payment on the core and moves it to ACSC or RJCT. The status is claimed first
 * (compare-and-set), so a cancellation that won the race leaves nothing booked.
 */
export async function executeNow(deps: Deps, tx: Tx, payment: Payment, psuId: string) {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  if (!(await store.payments.transition(tx, payment.id, ["ACTC"], "ACSC", { at, psuId }))) return;
  const outcome = await book(deps, tx, payment, payment.id);
  if (outcome.status === "rejected") {
    await store.payments.transition(tx, payment.id, ["ACSC"], "RJCT", { at, psuId, reason: outcome.reason });
  } else if (await settlesLater(deps, tx, payment)) {
    await store.payments.transition(tx, payment.id, ["ACSC"], "ACSP", { at, psuId });
  }
}

/** An account or a card the PSU may grant, named as a TPP names it: by IBAN or masked PAN. */
export interface Grantable { id: string; reference: string; currency: string; product: string | null }

/** A consent that names nothing and sets no flag: the PSU picks accounts and what each shares. */
export function isBankOffered(consent: Consent): boolean {
  const a = consent.access;
  return a.accounts.length + a.balances.length + a.transactions.length === 0
    && a.availableAccounts === null && a.availableAccountsWithBalance === null && a.allPsd2 === null;
}

/** The accounts and cards a consent lets the PSU choose from, and named ones the PSU does not hold. */
export async function consentChoices(deps: Deps, tx: Tx, psuId: string, consent: Consent) {
  const own: Grantable[] = [
    ...(await deps.core.listAccountsOfPsu(tx, psuId)).map((a) => ({ ...a, reference: a.iban })),
    ...(await deps.core.listCardAccountsOfPsu(tx, psuId)).map((c) => ({ ...c, reference: c.maskedPan })),
  ].map(({ id, reference, currency, product }) => ({ id, reference, currency, product }));
  const a = consent.access;
  const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
  if (named.length === 0) return { accounts: own, foreign: [] as string[] };
  return {
    accounts: own.filter((acc) => named.includes(acc.reference)),
    foreign: named.filter((ref) => !own.some((acc) => acc.reference === ref)),
  };
}

/**
 * What a consent shares of one account or card; the review page shows exactly this to the PSU.
 * On a bank-offered consent the PSU's own choice decides, everything unless told otherwise.
 */
export function grantFor(consent: Consent, account: Grantable, choice?: PsuChoice): GrantedAccount {
  const a = consent.access;
  const grant = (balances: boolean, transactions: boolean) => ({ accountId: account.id, balances, transactions });
  if (a.allPsd2 !== null) return grant(true, true);
  if (a.availableAccountsWithBalance !== null) return grant(true, false);
  if (a.availableAccounts !== null) return grant(false, false);
  if (isBankOffered(consent)) {
    return choice ? grant(choice.balances.includes(account.reference), choice.transactions.includes(account.reference))
      : grant(true, true);
  }
  return grant(a.balances.includes(account.reference), a.transactions.includes(account.reference));
}

/** The PSU's ticks on the review: accounts, and per account whether balances and transactions go. */
export interface PsuChoice { balances: readonly string[]; transactions: readonly string[] }

export async function decideConsent(
  deps: Deps, tx: Tx, ctx: SessionContext, consent: Consent,
  decision: { confirm: boolean; ibans: readonly string[] } & Partial<PsuChoice>,
): Promise<Decision> {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  const psuId = ctx.session.psuId ?? "";
  const choices = psuId ? await consentChoices(deps, tx, psuId, consent) : { accounts: [], foreign: [] };
  if (!decision.confirm || choices.foreign.length > 0) {
    if (!(await store.consents.transition(tx, consent.id, ["received"], "rejected", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await changeScaStatus(store.sca, tx, auth, "fail", at);
    return { ok: true, redirectTo: nokTarget(consent) };
  }
  const selected = choices.accounts.filter((acc) => decision.ibans.includes(acc.reference));
  if (selected.length === 0 || selected.length !== new Set(decision.ibans).size) {
    return { ok: false, problem: "no_account_selected" };
  }
  if (!(await store.consents.transition(tx, consent.id, ["received"], "valid", { at, psuId, authorisedAt: at }))) {
    return { ok: false, problem: "already_decided" };
  }
  const choice = { balances: decision.balances ?? [], transactions: decision.transactions ?? [] };
  await store.consents.grantAccounts(tx, consent.id, selected.map((acc) => grantFor(consent, acc, choice)));
  // As peers do: a new recurring consent replaces the PSU's older one at the same TPP.
  if (consent.recurringIndicator) await store.consents.terminateOtherRecurring(tx, consent, psuId, at);
  await changeScaStatus(store.sca, tx, auth, "finalise", at);
  return { ok: true, redirectTo: consent.redirectUri };
}
