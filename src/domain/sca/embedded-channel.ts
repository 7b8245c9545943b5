/**
 * The embedded channel of the SCA session machine (Berlin Group's embedded approach): the TPP
 * carries the PSU's password and code with PUT on the authorisation. Its session has no cookie:
 * the authorisation, reached only with the TPP's certificate, keys it. Its statuses are the
 * guidelines': the password -> psuAuthenticated, the device -> scaMethodSelected, the code ->
 * the decision at once (there is no review page) -> finalised.
 */
import { hashSecret } from "../../lib/ids.js";
import type { Tx } from "../ports.js";
import { decideConsent } from "../consent/decision.js";
import { consentChoices } from "../consent/grants.js";
import { decidePayment } from "../payment/decision.js";
import type { Decision } from "../decision.js";
import type { Deps } from "../deps.js";
import type { SessionContext } from "./context.js";
import { embeddedRefusal } from "./embedded-refusals.js";
import type { Psu, ScaStep } from "./model.js";
import { authorisationContext, redirectChannel } from "./redirect-channel.js";
import type { ScaChannel } from "./session.js";
import { changeScaStatus } from "./transitions.js";

/** The session's key: derived from the authorisation, which only its TPP can name. */
export const embeddedSessionId = (authorisationId: string) =>
  hashSecret(embeddedSecret(authorisationId));

export const embeddedSecret = (authorisationId: string) => `embedded:${authorisationId}`;

/**
 * The code is the PSU's confirmation: the TPP showed the PSU the payment (and the outcome of
 * the payee check) before asking for it, so a payee name that did not match counts as seen.
 * A consent grants what it names, since no page lets the PSU choose.
 */
async function decideOnCode(deps: Deps, tx: Tx, ctx: SessionContext, psu: Psu) {
  const { resource } = ctx;
  if (resource.type === "payment") {
    return decidePayment(deps, tx, ctx, resource.payment,
      { confirm: true, acknowledgedNoMatch: true });
  }
  const { accounts } = await consentChoices(deps, tx, psu.id, resource.consent);
  return decideConsent(deps, tx, ctx, resource.consent,
    { confirm: true, ibans: accounts.map((a) => a.reference) });
}

export function embeddedChannel(deps: Deps): ScaChannel<Exclude<ScaStep, "login" | "device"
  | "code">, SessionContext> {
  const { store, clock } = deps;
  const redirect = redirectChannel(deps);
  const nowIso = () => clock.now().toISOString();
  return {
    ...redirect,
    cookieless: true,
    authenticated: "done",
    async context(tx, session) {
      const found = await authorisationContext(deps, tx, session.authorisationId, "embedded");
      return found ? { session, ...found } : "link_invalid" as const;
    },
    async onIdentified(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "authenticate", nowIso(), psu.id);
    },
    async onDeviceChosen(tx, ctx, device) {
      await store.sca.chooseMethod(tx, ctx.authorisation.id, device.id);
      await changeScaStatus(store, tx, ctx.authorisation.id, "selectMethod", nowIso());
    },
    async onAuthenticated(tx, ctx, psu) {
      const decision: Decision = await decideOnCode(deps, tx, ctx, psu);
      // Thrown, so the code's use and the session's step roll back with the refused decision.
      if (!decision.ok) throw embeddedRefusal(decision);
    },
  };
}
