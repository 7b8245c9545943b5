/**
 * The PSU's decision on a consent, inside the session's transaction: confirmed, the consent is
 * granted on the accounts the PSU selected; every status change goes through the consent's
 * transition table.
 */
import type { Tx } from "../ports.js";
import { settleAuthorisation, type Decision, type DecisionContext } from "../decision.js";
import type { Deps } from "../deps.js";
import { consentChoices, grantFor, type PsuChoice } from "./grants.js";
import type { Consent } from "./model.js";
import { moveConsent, replaceRecurring } from "./transitions.js";

export async function decideConsent(
  deps: Deps, tx: Tx, ctx: DecisionContext, consent: Consent,
  decision: { confirm: boolean; ibans: readonly string[] } & Partial<PsuChoice>,
): Promise<Decision> {
  const { store, clock } = deps;
  const at = clock.now().toISOString();
  const psuId = ctx.session.psuId ?? "";
  const choices = psuId ? await consentChoices(deps, tx, psuId, consent)
    : { accounts: [], foreign: [] };
  if (!decision.confirm || choices.foreign.length > 0) {
    if (!(await moveConsent(deps, tx, consent.id, "reject", { at }))) {
      return { ok: false, problem: "already_decided" };
    }
    await settleAuthorisation(deps, tx, ctx, "fail", at);
    return { ok: true };
  }
  const selected = choices.accounts.filter((acc) => decision.ibans.includes(acc.reference));
  if (selected.length === 0 || selected.length !== new Set(decision.ibans).size) {
    return { ok: false, problem: "no_account_selected" };
  }
  if (!(await moveConsent(deps, tx, consent.id, "authorise", { at, psuId, authorisedAt: at }))) {
    return { ok: false, problem: "already_decided" };
  }
  const choice = { balances: decision.balances ?? [], transactions: decision.transactions ?? [] };
  await store.consents.grantAccounts(tx, consent.id,
    selected.map((acc) => grantFor(consent, acc, choice)));
  // As peers do: a new recurring consent replaces the PSU's older one at the same TPP.
  if (consent.recurringIndicator) await replaceRecurring(deps, tx, consent, psuId, at);
  await settleAuthorisation(deps, tx, ctx, "finalise", at);
  return { ok: true };
}
