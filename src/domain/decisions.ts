/**
 * What a PSU's decision does to its payment or consent, inside the session's transaction:
 * a confirmed payment is executed on the core at once; a confirmed consent is granted on the
 * accounts the PSU selected. All status changes are compare-and-set.
 */
import { dateInZone } from "../lib/clock.js";
import type { Tx } from "../store/db.js";
import type { SessionContext } from "./authorisation.js";
import type { Consent, GrantedAccount } from "./consents-model.js";
import type { BankAccount } from "./core-banking.js";
import type { Deps } from "./deps.js";
import type { Payment } from "./payments-model.js";

export type Decision = { ok: true; redirectTo: string } | { ok: false; problem: string };

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
  const { store, clock, settings } = deps;
  const at = clock.now().toISOString();
  const auth = ctx.authorisation.id;
  if (!confirm) {
    if (!(await store.payments.transition(tx, payment.id, ["RCVD"], "CANC", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await store.sca.setScaStatus(tx, auth, ["received", "psuIdentified", "psuAuthenticated"], "failed", at);
    return { ok: true, redirectTo: nokTarget(payment) };
  }
  const psuId = ctx.session.psuId ?? "";
  const problem = await paymentProblem(deps, tx, psuId, payment);
  if (problem) return { ok: false, problem };
  if (!(await store.payments.transition(tx, payment.id, ["RCVD"], "ACTC", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  await store.sca.setScaStatus(tx, auth, ["psuAuthenticated"], "finalised", at);
  const today = dateInZone(clock.now(), settings.timeZone);
  if (payment.requestedExecutionDate === null || payment.requestedExecutionDate <= today) {
    await executeNow(deps, tx, payment, psuId);
  }
  return { ok: true, redirectTo: payment.redirectUri };
}

/** Books an ACTC payment on the core and moves it to ACSC or RJCT (compare-and-set). */
export async function executeNow(deps: Deps, tx: Tx, payment: Payment, psuId: string) {
  const { store, core, clock } = deps;
  const debtor = await core.findAccountByIban(tx, payment.debtorAccount.iban);
  const outcome = debtor && await core.executePayment(tx, {
    paymentId: payment.id, debtorAccountId: debtor.id, debtorName: debtor.ownerName,
    creditorIban: payment.creditorAccount.iban, creditorName: payment.creditorName,
    amountMinor: payment.amountMinor, currency: payment.currency,
    remittance: payment.remittance, endToEndId: payment.endToEndId,
  });
  const at = clock.now().toISOString();
  if (outcome && outcome.status !== "rejected") {
    await store.payments.transition(tx, payment.id, ["ACTC"], "ACSC", { at, psuId });
  } else {
    const reason = outcome?.reason ?? "account_unknown";
    await store.payments.transition(tx, payment.id, ["ACTC"], "RJCT", { at, psuId, reason });
  }
}

/** The accounts a consent lets the PSU choose from, and requested IBANs the PSU does not hold. */
export async function consentChoices(deps: Deps, tx: Tx, psuId: string, consent: Consent) {
  const own = await deps.core.listAccountsOfPsu(tx, psuId);
  const a = consent.access;
  const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
  if (named.length === 0) return { accounts: own, foreign: [] as string[] };
  return {
    accounts: own.filter((acc) => named.includes(acc.iban)),
    foreign: named.filter((iban) => !own.some((acc) => acc.iban === iban)),
  };
}

/** What a consent shares of one account; the review page shows exactly this to the PSU. */
export function grantFor(consent: Consent, account: BankAccount): GrantedAccount {
  const a = consent.access;
  if (a.allPsd2 !== null) return { accountId: account.id, balances: true, transactions: true };
  if (a.availableAccountsWithBalance !== null) return { accountId: account.id, balances: true, transactions: false };
  if (a.availableAccounts !== null) return { accountId: account.id, balances: false, transactions: false };
  const named = a.accounts.length + a.balances.length + a.transactions.length > 0;
  if (!named) return { accountId: account.id, balances: true, transactions: true };
  return {
    accountId: account.id,
    balances: a.balances.includes(account.iban),
    transactions: a.transactions.includes(account.iban),
  };
}

export async function decideConsent(
  deps: Deps, tx: Tx, ctx: SessionContext, consent: Consent,
  decision: { confirm: boolean; ibans: readonly string[] },
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
    await store.sca.setScaStatus(tx, auth, ["received", "psuIdentified", "psuAuthenticated"], "failed", at);
    return { ok: true, redirectTo: nokTarget(consent) };
  }
  const selected = choices.accounts.filter((acc) => decision.ibans.includes(acc.iban));
  if (selected.length === 0 || selected.length !== new Set(decision.ibans).size) {
    return { ok: false, problem: "no_account_selected" };
  }
  if (!(await store.consents.transition(tx, consent.id, ["received"], "valid", { at, psuId, authorisedAt: at }))) {
    return { ok: false, problem: "already_decided" };
  }
  await store.consents.grantAccounts(tx, consent.id, selected.map((acc) => grantFor(consent, acc)));
  // As peers do: a new recurring consent replaces the PSU's older one at the same TPP.
  if (consent.recurringIndicator) await store.consents.terminateOtherRecurring(tx, consent, psuId, at);
  await store.sca.setScaStatus(tx, auth, ["psuAuthenticated"], "finalised", at);
  return { ok: true, redirectTo: consent.redirectUri };
}
