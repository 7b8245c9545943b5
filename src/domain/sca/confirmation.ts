/**
 * Berlin Group's authorisation confirmation (AUTHORISATION_CONFIRMATION): the PSU's confirmation
 * on the review is held, the authorisation `unconfirmed`, and the redirect back carries a
 * one-time code; only the TPP that sends that code on the authorisation makes the decision
 * happen. A redirect caught by someone else, without the TPP's certificate, decides nothing.
 */
import { createHmac } from "node:crypto";
import { hashSecret } from "../../lib/ids.js";
import { BROWSER_APPROACHES } from "../../lib/sca-approaches.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { Authorisation, ScaStatus } from "./model.js";
import { refused } from "./problems.js";
import { authorisationContext } from "./redirect-channel.js";
import type { Decision, DecisionContext, PsuDecision, ScaSubject } from "./subject.js";
import { afterDecision } from "./subjects.js";
import { changeScaStatus } from "./transitions.js";

type DecisionAt = DecisionContext & { subject: ScaSubject };

/**
 * The code of one browser session's confirmation: derived from the session cookie's secret, so
 * the result page (and a reload of it) can show it while only its hash is stored.
 */
export function confirmationCodeOf(sessionSecret: string, authorisationId: string): string {
  return createHmac("sha256", sessionSecret).update(`confirmationCode|${authorisationId}`)
    .digest("base64url").slice(0, 22);
}

/**
 * The PSU confirmed on the review: the decision is tried and undone (so that the review still
 * says at once what stands in its way), then held for the TPP's code.
 */
export async function holdForConfirmation(
  deps: Deps, tx: Tx, ctx: DecisionAt & { session: { psuId: string | null } },
  decision: PsuDecision, sessionSecret: string,
): Promise<Decision> {
  const trial: { outcome: Decision } = { outcome: { ok: true } };
  await deps.store.savepoints.keepIf(tx, async () => {
    trial.outcome = await ctx.subject.decide(tx, ctx, decision);
    return false;
  });
  const { authorisation, session } = ctx;
  if (!trial.outcome.ok || !authorisation || !session.psuId) return trial.outcome;
  const at = deps.clock.now().toISOString();
  if (!(await changeScaStatus(deps.store, tx, authorisation.id, "awaitConfirmation", at))) {
    return refused("already_decided");
  }
  await deps.store.confirmations.hold(tx, {
    authorisationId: authorisation.id, psuId: session.psuId, decision: JSON.stringify(decision),
    codeHash: hashSecret(confirmationCodeOf(sessionSecret, authorisation.id)),
  }, at);
  return { ok: true };
}

/** Why a confirmation changed nothing: the code was wrong, or nothing awaits one. */
export type ConfirmationRefusal = "code_wrong" | "not_unconfirmed";

export type ConfirmationOutcome =
  | { ok: true; scaStatus: ScaStatus } | { ok: false; problem: ConfirmationRefusal };

/** The subject as it stands now: lapsed ones rejected first. */
async function current(deps: Deps, tx: Tx, authorisationId: string) {
  const found = await authorisationContext(deps, tx, authorisationId, BROWSER_APPROACHES);
  return found && { ...found, subject: await found.subject.current(tx) };
}

/** A wrong code counts; as many as a PSU's failed logins end the authorisation. */
async function wrongCode(
  deps: Pick<Deps, "store" | "clock" | "settings">, tx: Tx, id: string,
): Promise<ConfirmationOutcome> {
  const attempts = await deps.store.confirmations.countAttempt(tx, id);
  if (attempts >= deps.settings.loginFailuresMax) await failHeld(deps, tx, id);
  return { ok: false, problem: "code_wrong" };
}

async function failHeld(deps: Pick<Deps, "store" | "clock">, tx: Tx, id: string): Promise<void> {
  await deps.store.confirmations.drop(tx, id);
  await changeScaStatus(deps.store, tx, id, "fail", deps.clock.now().toISOString());
}

async function confirmIn(
  deps: Deps, tx: Tx, authorisationId: string, code: string,
): Promise<ConfirmationOutcome> {
  const { store } = deps;
  const pending = await store.confirmations.find(tx, authorisationId);
  const found = await current(deps, tx, authorisationId);
  if (!pending || found?.authorisation.scaStatus !== "unconfirmed") {
    return { ok: false, problem: "not_unconfirmed" };
  }
  // The payment or consent stopped waiting (it lapsed): the held decision goes with it.
  if (!found.subject.awaiting) {
    await failHeld(deps, tx, authorisationId);
    return { ok: false, problem: "not_unconfirmed" };
  }
  if (!(await store.confirmations.take(tx, authorisationId, hashSecret(code)))) {
    return wrongCode(deps, tx, authorisationId);
  }
  const decided = await found.subject.decide(tx,
    { ...found, session: { psuId: pending.psuId } }, JSON.parse(pending.decision) as PsuDecision);
  if (!decided.ok) await failHeld(deps, tx, authorisationId);
  const after = await store.sca.findAuthorisation(tx, authorisationId);
  return { ok: true, scaStatus: after?.scaStatus ?? "failed" };
}

/**
 * The TPP's confirmation code on its own authorisation: right, the held decision happens now
 * (once: the code is used up); wrong, nothing but the attempt is counted.
 */
export async function confirmAuthorisation(
  deps: Deps, authorisation: Authorisation, code: string,
): Promise<ConfirmationOutcome> {
  const outcome = await deps.store.transaction((tx) => confirmIn(deps, tx, authorisation.id, code));
  if (outcome.ok) await afterDecision(deps, authorisation);
  return outcome;
}
