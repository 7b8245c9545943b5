/**
 * The redirect channel of the SCA session machine: a session per authorisation, opened by the
 * TPP's scaRedirect link, whose context is the subject being authorised. It records the
 * authorisation's scaStatus and chosen method as the PSU passes each factor.
 */
import { hashSecret } from "../../lib/ids.js";
import { BROWSER_APPROACHES, type ScaApproach } from "../../lib/sca-approaches.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { SessionContext } from "./context.js";
import type { Authorisation, LoginStep, Psu, ScaStep } from "./model.js";
import type { ScaChannel } from "./session.js";
import { testPsuExemption } from "./test-psus.js";
import { loadSubject } from "./subjects.js";
import { changeScaStatus } from "./transitions.js";

type AuthorisationContext = Omit<SessionContext, "session">;

/** An authorisation with what it is about, as it stands now; undefined once the subject is gone. */
export async function contextOf(
  deps: Deps, tx: Tx, authorisation: Authorisation,
): Promise<AuthorisationContext | undefined> {
  const subject = await loadSubject(deps, tx, authorisation);
  if (!subject) return undefined;
  const { owner } = subject;
  return {
    authorisation, subject, resource: subject.view,
    tppName: (await deps.store.tpps.name(tx, authorisation.tppId)) ?? authorisation.tppId,
    redirectUri: owner.redirectUri, nokRedirectUri: owner.nokRedirectUri,
  };
}

/**
 * An authorisation with what it is about, whether or not a session is open for it yet; only of
 * `approaches`, since each channel serves its own (a redirect link never opens an embedded one).
 */
export async function authorisationContext(
  deps: Deps, tx: Tx, authorisationId: string, approaches: readonly ScaApproach[],
): Promise<AuthorisationContext | undefined> {
  const authorisation = await deps.store.sca.findAuthorisation(tx, authorisationId);
  if (!authorisation || !approaches.includes(authorisation.approach ?? "redirect")) return;
  return contextOf(deps, tx, authorisation);
}

/** Art. 18's known device: a browser (by its cookie) this PSU passed SCA in before. */
async function knownDevice(
  deps: Pick<Deps, "store">, tx: Tx, psu: Psu, browser: string | undefined,
) {
  return browser !== undefined
    && deps.store.exemptions.isKnownDevice(tx, hashSecret(browser), psu.id);
}

type AfterLogin = Exclude<ScaStep, LoginStep>;

export function redirectChannel(deps: Deps): ScaChannel<AfterLogin, SessionContext> {
  const { store, clock } = deps;
  const nowIso = () => clock.now().toISOString();

  /** A session the OAuth server opened goes back to it, whatever the resource's URIs. */
  async function context(tx: Tx, session: SessionContext["session"]) {
    const found = await authorisationContext(
      deps, tx, session.authorisationId, BROWSER_APPROACHES);
    if (!found) return "link_invalid" as const;
    const back = session.returnTo;
    return back ? { session, ...found, redirectUri: back, nokRedirectUri: back }
      : { session, ...found };
  }

  return {
    sessions: store.scaSessions,
    authenticated: "review",
    context,
    stillOpen: (ctx) => ctx.subject.awaiting,
    whyClosed: (ctx) => ctx.subject.closedProblem,
    // Right after the password: someone other than the PSU the TPP named, or than the debtor
    // account's holder, learns it before any code is spent.
    refusal: async (tx, ctx, psu) => {
      const named = ctx.authorisation.namedPsu;
      if (named && named !== psu.login) return "psu_not_named";
      return ctx.subject.refusal(tx, psu.id);
    },
    async exempts(tx, ctx, psu, browser) {
      const { exemption: exemptionOf } = ctx.subject;
      if (!exemptionOf) return false;
      // The sandbox's test PSUs take the same branch on every run (test-psus.ts).
      const testPsu = testPsuExemption(deps, psu);
      const exemption = testPsu !== undefined ? testPsu
        : await exemptionOf(tx, psu.id, () => knownDevice(deps, tx, psu, browser));
      if (exemption) await store.exemptions.recordExemption(tx, ctx.authorisation.id, exemption);
      return exemption !== null;
    },
    binding: (ctx) => ctx.subject.binding,
    smsText: async (ctx, code, tx, psuId) => deps.smsTexts.text(ctx.session.lang,
      await ctx.subject.sms(tx, ctx.tppName, psuId), code),
    async onIdentified(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "identify", nowIso(), psu.id);
    },
    async onDeviceChosen(tx, ctx, device) {
      await store.sca.chooseMethod(tx, ctx.authorisation.id, device.id);
    },
    async onAuthenticated(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "authenticate", nowIso());
      await ctx.subject.onAuthenticated(tx, ctx.authorisation.id, psu.id);
    },
  };
}
