/**
 * The PSU's decision taken where there is no review page: the embedded code, the bank app's
 * approval or rejection, a decoupled request that timed out. The TPP (embedded) or the app
 * showed the payment with its payee check's outcome first, so a name that did not match counts
 * as seen; a consent grants what it names, since nothing lets the PSU choose.
 */
import type { Tx } from "../ports.js";
import { decideBasket } from "../basket/decision.js";
import { decideConsent } from "../consent/decision.js";
import { consentChoices } from "../consent/grants.js";
import { decidePayment } from "../payment/decision.js";
import type { Decision } from "../decision.js";
import type { Deps } from "../deps.js";
import { SCA_EXPIRED } from "../payment/expiry.js";
import { movePayment } from "../payment/transitions.js";
import type { ScaResource } from "./context.js";
import { changeScaStatus } from "./transitions.js";

export interface DecisionAt {
  session: { psuId: string | null };
  /** Null for an item of a signing basket, decided by its basket's authorisation. */
  authorisation: { id: string } | null;
  resource: ScaResource;
}

export async function decideWithoutReview(
  deps: Deps, tx: Tx, ctx: DecisionAt, confirm: boolean,
): Promise<Decision> {
  const { resource } = ctx;
  if (resource.type === "payment") {
    return decidePayment(deps, tx, ctx, resource.payment, { confirm, acknowledgedNoMatch: true });
  }
  if (resource.type === "basket") {
    return decideBasket(deps, tx, ctx, resource, { confirm, acknowledgedNoMatch: true });
  }
  const psuId = ctx.session.psuId;
  const choices = confirm && psuId
    ? await consentChoices(deps, tx, psuId, resource.consent) : { accounts: [] };
  return decideConsent(deps, tx, ctx, resource.consent,
    { confirm, ibans: choices.accounts.map((a) => a.reference) });
}

/**
 * The PSU rejected in the bank app, or left the request unanswered (`timedOut`): the SCA failed,
 * so a payment is RJCT (the customer's own reason, or sca_expired), a consent rejected and a
 * cancellation not made.
 */
export async function refuseWithoutReview(
  deps: Deps, tx: Tx, ctx: DecisionAt, timedOut: boolean,
): Promise<void> {
  const { resource } = ctx;
  const at = deps.clock.now().toISOString();
  if (resource.type === "consent") {
    await decideConsent(deps, tx, ctx, resource.consent, { confirm: false, ibans: [] });
  } else if (resource.type === "basket") {
    await decideBasket(deps, tx, ctx, resource, { confirm: false });
  } else if (!resource.cancellation) {
    await movePayment(deps, tx, resource.payment, timedOut ? "expireSca" : "refuseSca",
      { at, ...(timedOut && { reason: SCA_EXPIRED }) });
  }
  if (ctx.authorisation) await changeScaStatus(deps.store, tx, ctx.authorisation.id, "fail", at);
}
