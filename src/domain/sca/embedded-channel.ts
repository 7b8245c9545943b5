/**
 * The embedded channel of the SCA session machine (Berlin Group's embedded approach): the TPP
 * carries the PSU's password and code with PUT on the authorisation. Its session has no cookie:
 * the authorisation, reached only with the TPP's certificate, keys it. Its statuses are the
 * guidelines': the password -> psuAuthenticated, the device -> scaMethodSelected, the code ->
 * the decision at once (there is no review page) -> finalised.
 */
import { hashSecret } from "../../lib/ids.js";
import type { Deps } from "../deps.js";
import type { SessionContext } from "./context.js";
import { embeddedRefusal } from "./embedded-refusals.js";
import type { ScaStep } from "./model.js";
import { authorisationContext, redirectChannel } from "./redirect-channel.js";
import type { ScaChannel } from "./session.js";
import { changeScaStatus } from "./transitions.js";

/** The session's key: derived from the authorisation, which only its TPP can name. */
export const embeddedSessionId = (authorisationId: string) =>
  hashSecret(embeddedSecret(authorisationId));

export const embeddedSecret = (authorisationId: string) => `embedded:${authorisationId}`;

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
      const found = await authorisationContext(deps, tx, session.authorisationId, ["embedded"]);
      return found ? { session, ...found } : "link_invalid" as const;
    },
    // Without a review to show it, a company's user who may not sign learns it before any code.
    refusal: async (tx, ctx, psu) => (await redirect.refusal?.(tx, ctx, psu))
      ?? ctx.subject.signingProblem(tx, psu.id),
    async onIdentified(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "authenticate", nowIso(), psu.id);
    },
    async onDeviceChosen(tx, ctx, device) {
      await store.sca.chooseMethod(tx, ctx.authorisation.id, device.id);
      await changeScaStatus(store, tx, ctx.authorisation.id, "selectMethod", nowIso());
    },
    async onAuthenticated(tx, ctx) {
      const decision = await ctx.subject.decideWithoutReview(tx, ctx, true);
      // Thrown, so the code's use and the session's step roll back with the refused decision.
      if (!decision.ok) throw embeddedRefusal(decision);
    },
  };
}
