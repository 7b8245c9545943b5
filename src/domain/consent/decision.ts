/**
 * The PSU's decision on a consent, inside the session's transaction: confirmed, the consent is
 * granted on the accounts the PSU selected; every status change goes through the consent's
 * transition table. On a company's accounts that need several signatures, the first user's
 * choice is what every later user signs (multi-level SCA).
 */
import type { Tx } from "../kernel/ports.js";
import {
  exemptionTaken, settleAuthorisation, type Decision, type DecisionContext,
} from "../sca/decision.js";
import type { Deps } from "../deps.js";
import type { ScaProblem } from "../sca/problems.js";
import { signatureEvent, signaturesBefore, signedBy } from "../signatures/signatures.js";
import { consentChoices, grantFor, type PsuChoice } from "./grants.js";
import type { Consent } from "./model.js";
import { moveConsent, replaceRecurring } from "./transitions.js";
import { auditExemption } from "../exemptions/audit.js";

type ConsentDecision = { confirm: boolean; ibans: readonly string[] } & Partial<PsuChoice>;

export async function decideConsent(
  deps: Deps, tx: Tx, ctx: DecisionContext, consent: Consent, decision: ConsentDecision,
): Promise<Decision> {
  const psuId = ctx.session.psuId ?? "";
  const choices = psuId ? await consentChoices(deps, tx, psuId, consent)
    : { accounts: [], foreign: [] };
  if (!decision.confirm || choices.foreign.length > 0) return rejectConsent(deps, tx, ctx, consent);
  if (consent.status === "partiallyAuthorised") return signFurther(deps, tx, ctx, consent);
  const selected = choices.accounts.filter((acc) => decision.ibans.includes(acc.reference));
  if (selected.length === 0 || selected.length !== new Set(decision.ibans).size) {
    return { ok: false, problem: "no_account_selected" };
  }
  const signaturesRequired = Math.max(consent.signaturesRequired ?? 1,
    ...selected.map((acc) => acc.signaturesRequired ?? 1));
  const signed = await sign(deps, tx, ctx, { ...consent, signaturesRequired },
    { psuId, signaturesRequired });
  if (!signed.ok) return signed;
  const choice = { balances: decision.balances ?? [], transactions: decision.transactions ?? [] };
  await deps.store.consents.grantAccounts(tx, consent.id,
    selected.map((acc) => grantFor(consent, acc, choice)));
  return signed;
}

async function rejectConsent(
  deps: Deps, tx: Tx, ctx: DecisionContext, consent: Consent,
): Promise<Decision> {
  const at = deps.clock.now().toISOString();
  // The refusing PSU keeps it in its dashboard's history (PSR); a signer's stays the first's.
  const psuId = consent.psuId ?? ctx.session.psuId ?? undefined;
  if (!(await moveConsent(deps, tx, consent.id, "reject", { at, psuId }))) {
    return { ok: false, problem: "already_decided" };
  }
  await settleAuthorisation(deps, tx, ctx, "fail", at);
  return { ok: true };
}

/**
 * A later user's signature on what the first one chose: only a user who may sign for every
 * account granted, and only once.
 */
async function signFurther(
  deps: Deps, tx: Tx, ctx: DecisionContext, consent: Consent,
): Promise<Decision> {
  const psuId = ctx.session.psuId ?? "";
  const problem = await laterSignerProblem(deps, tx, psuId, consent);
  if (problem) return { ok: false, problem };
  return sign(deps, tx, ctx, consent, {});
}

/** Why `psuId` may not add its signature to a partly authorised consent, if so. */
export async function laterSignerProblem(
  deps: Deps, tx: Tx, psuId: string, consent: Consent,
): Promise<ScaProblem | null> {
  const granted = await deps.store.consents.grantedAccounts(tx, consent.id);
  const { accounts } = await consentChoices(deps, tx, psuId, consent);
  if (accounts.length < granted.length) return "no_signing_right";
  return (await signedBy(deps, tx, consent.id, psuId)) ? "already_signed" : null;
}

/**
 * One signature: the last one needed makes the consent valid (replacing the PSU's older
 * recurring one at the TPP, as peers do), an earlier one leaves it partially authorised.
 */
async function sign(
  deps: Deps, tx: Tx, ctx: DecisionContext, consent: Consent,
  first: { psuId?: string; signaturesRequired?: number },
): Promise<Decision> {
  const at = deps.clock.now().toISOString();
  const psuId = ctx.session.psuId ?? "";
  const event = signatureEvent(consent);
  const change = {
    at, ...first, signaturesBefore: signaturesBefore(consent),
    ...(event === "authorise" && { authorisedAt: at }),
  };
  if (!(await moveConsent(deps, tx, consent.id, event, change))) {
    return { ok: false, problem: "already_decided" };
  }
  if (event === "authorise" && consent.recurringIndicator) {
    await replaceRecurring(deps, tx, consent, consent.psuId ?? psuId, at);
  }
  // RTS art. 10a: a renewal within 180 days of the last SCA took the password only.
  const exemption = await exemptionTaken(deps, tx, ctx);
  if (exemption) {
    await auditExemption(deps, tx, { exemption, tppId: consent.tppId, resourceId: consent.id, at });
  }
  await settleAuthorisation(deps, tx, ctx, exemption ? "exempt" : "finalise", at, psuId);
  return { ok: true };
}
