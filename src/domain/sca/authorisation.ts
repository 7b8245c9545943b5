/**
 * The PSU's side of an authorisation: the redirect session (opened by the TPP's link), the two
 * factors of the SCA session machine (session.ts), the review, and the decision (confirm or
 * cancel) on the subject (subject.ts). Every step is a compare-and-set on the session, so a
 * replayed or raced form post changes nothing.
 */
import { hashSecret } from "../../lib/ids.js";
import { totpAt } from "../../lib/totp.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { confirmationCodeOf, holdForConfirmation } from "./confirmation.js";
import type { SessionContext } from "./context.js";
import type { ScaDevice } from "./model.js";
import { refused, type ScaProblem } from "./problems.js";
import { redirectChannel } from "./redirect-channel.js";
import { createRedirectLinks } from "./redirect-links.js";
import { createScaSessionMachine } from "./session.js";
import type { Decision, PsuDecision, ReceiptAccount, Review } from "./subject.js";
import { afterDecision } from "./subjects.js";

export type { SessionContext } from "./context.js";
export { backToTpp, type EntryView, type RedirectClaims } from "./redirect-links.js";
export type { ScaProblem } from "./problems.js";

export type PageView = SessionContext & {
  /** AUTHORISATION_CONFIRMATION: the code the way back carries while the TPP's is awaited. */
  confirmationCode?: string;
  device: ScaDevice | null;
  /** The PSU's devices while it chooses one (step "device"), otherwise empty. */
  devices: ScaDevice[];
  review: Review | null;
  /** After the decision on a payment: the account its receipt names. */
  receipt: ReceiptAccount | null;
};

/** On the review: what the PSU may decide. */
function reviewOf(tx: Tx, ctx: SessionContext): Promise<Review> | null {
  const psuId = ctx.session.psuId;
  return ctx.session.step === "review" && psuId ? ctx.subject.review(tx, psuId) : null;
}

/**
 * A decided session stays, at step "done", until it idles out: so that what comes after the
 * decision (a double click, the back button, a reload) can still lead back to the TPP.
 */
const endSession = (deps: Pick<Deps, "store">, tx: Tx, ctx: SessionContext) =>
  deps.store.scaSessions.advance(tx, ctx.session.id, ctx.session.step, { step: "done" });

/** The bank already refused the subject at the review (a consent's accounts not the PSU's). */
function refusedByBank(ctx: SessionContext): boolean {
  return ctx.subject.refusedAtReview
    && ctx.authorisation.scaStatus === "failed" && ctx.session.step === "review";
}

/** The SMS "sent" to a PSU, newest first: the sandbox's stand-in for a phone. */
async function sandboxSms(deps: Pick<Deps, "store">, login: string) {
  const { store } = deps;
  const psu = await store.psus.findByLogin(store.db, login);
  const messages = psu ? await store.sca.smsOf(store.db, psu.id, 50) : [];
  return messages.map((m) => ({ to: m.phone, text: m.text, sentAt: m.created_at }));
}

/**
 * The code the PSU's authenticator app shows now: the sandbox's stand-in for oathtool. Undefined
 * for an unknown login or a PSU without an app.
 */
async function sandboxTotp(deps: Pick<Deps, "store" | "clock">, login: string) {
  const { store, clock } = deps;
  const psu = await store.psus.findByLogin(store.db, login);
  const devices = psu ? await store.psus.devices(store.db, psu.id) : [];
  const secret = devices.find((d) => d.kind === "totp")?.secret;
  if (!secret) return undefined;
  const nowMs = clock.now().getTime();
  return { code: totpAt(secret, nowMs), validForSeconds: 30 - Math.floor(nowMs / 1000) % 30 };
}

/**
 * After the second factor: the browser (its device cookie's secret) becomes a known device of
 * the session's PSU, for RTS art. 18.
 */
async function rememberDevice(
  deps: Pick<Deps, "store" | "clock">, secret: string | undefined, browser: string,
) {
  const { store } = deps;
  await store.transaction(async (tx) => {
    const session = secret ? await store.scaSessions.find(tx, hashSecret(secret)) : undefined;
    if (!session?.psuId || session.step !== "review") return;
    const at = deps.clock.now().toISOString();
    await store.exemptions.rememberDevice(tx, hashSecret(browser), session.psuId, at);
  });
}

/** With AUTHORISATION_CONFIRMATION a confirmation waits for the TPP's code; else it decides. */
function takeDecision(
  deps: Deps, tx: Tx, ctx: SessionContext, decision: PsuDecision, secret: string | undefined,
): Promise<Decision> {
  return decision.confirm && deps.settings.authorisationConfirmation
    ? holdForConfirmation(deps, tx, ctx, decision, secret ?? "")
    : ctx.subject.decide(tx, ctx, decision);
}

/** The code the way back carries while the authorisation awaits the TPP's confirmation. */
function awaitedCode(ctx: SessionContext, secret: string | undefined) {
  const { id, scaStatus } = ctx.authorisation;
  return scaStatus === "unconfirmed" && secret && ctx.session.step === "done"
    ? { confirmationCode: confirmationCodeOf(secret, id) } : {};
}

export function createAuthorisations(deps: Deps) {
  const { store } = deps;
  const machine = createScaSessionMachine(deps, redirectChannel(deps));

  /** What a page shows: the session, its device and, on the review, what the PSU may decide. */
  async function view(secret: string | undefined): Promise<PageView | ScaProblem> {
    return store.transaction(async (tx) => {
      const ctx = await machine.live(tx, secret);
      if (typeof ctx === "string") return ctx;
      const { device, devices } = await machine.factorsOf(tx, ctx.session);
      const receipt = ctx.session.step === "done" ? await ctx.subject.receipt?.(tx) : null;
      return { ...ctx, device, devices, review: await reviewOf(tx, ctx),
        receipt: receipt ?? null, ...awaitedCode(ctx, secret) };
    });
  }

  /**
   * Whether this session's own first click decided, in a transaction that committed while this
   * one ran (PostgreSQL reads each statement afresh): a double click gets that outcome.
   */
  async function decidedHere(tx: Tx, ctx: SessionContext): Promise<boolean> {
    return (await store.scaSessions.find(tx, ctx.session.id))?.step === "done";
  }

  /**
   * Ends the session with the PSU's decision; the session stays, at "done", for the result. A
   * basket's items are carried out once the decision is committed.
   */
  async function decide(secret: string | undefined, decision: PsuDecision): Promise<Decision> {
    const outcome = await decideInSession(secret, decision);
    if (outcome.ok && outcome.decided) await afterDecision(deps, outcome.decided);
    return outcome.ok ? { ok: true } : outcome;
  }

  async function decideInSession(
    secret: string | undefined, decision: PsuDecision,
  ): Promise<Decision & { decided?: SessionContext["authorisation"] }> {
    return store.transaction(async (tx) => {
      const ctx = await machine.live(tx, secret);
      if (typeof ctx === "string") return refused(ctx);
      // A second click (or a reload) after the decision gets the first one's outcome.
      if (ctx.session.step === "done") return { ok: true };
      if (decision.confirm && ctx.session.step !== "review") return refused("wrong_step");
      if (!ctx.subject.awaiting) {
        if (await decidedHere(tx, ctx)) return { ok: true, decided: ctx.authorisation };
        // The bank refused already (a consent for accounts not the PSU's): cancel leads back.
        if (decision.confirm || !refusedByBank(ctx)) return refused(ctx.subject.closedProblem);
        await endSession(deps, tx, ctx);
        return { ok: true };
      }
      const outcome = await takeDecision(deps, tx, ctx, decision, secret);
      const lostRace = !outcome.ok
        && (outcome.problem === "already_decided" || outcome.problem === "already_signed");
      if (lostRace && (await decidedHere(tx, ctx))) return { ok: true };
      if (!outcome.ok) return outcome;
      await endSession(deps, tx, ctx);
      return { ...outcome, decided: ctx.authorisation };
    });
  }

  const { login, chooseDevice, resendCode, verifyCode } = machine;
  return {
    ...createRedirectLinks(deps), login, chooseDevice, resendCode, verifyCode, view, decide,
    rememberDevice: (secret: string | undefined, browser: string) =>
      rememberDevice(deps, secret, browser),
    sandboxSms: (login: string) => sandboxSms(deps, login),
    sandboxTotp: (login: string) => sandboxTotp(deps, login),
  };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
