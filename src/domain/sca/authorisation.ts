/**
 * The PSU's side of an authorisation: the redirect session (opened by the TPP's link), the two
 * factors of the SCA session machine (session.ts), the review, and the decision (confirm or
 * cancel) on a payment or a consent. Every step is a compare-and-set on the session, so a
 * replayed or raced form post changes nothing.
 */
import { dateInZone } from "../../lib/clock.js";
import { hashSecret } from "../../lib/ids.js";
import { totpAt } from "../../lib/totp.js";
import type { Tx } from "../ports.js";
import { afterDecision } from "../basket/carry-out.js";
import { awaitingItems, basketProblem } from "../basket/decision.js";
import { laterSignerProblem } from "../consent/decision.js";
import { consentChoices, type Grantable } from "../consent/grants.js";
import { signingProblem } from "../payment/decision.js";
import { ownAccountTransfers } from "../payment/payee-check.js";
import type { Decision } from "../decision.js";
import type { Deps } from "../deps.js";
import {
  confirmationCodeOf, decideResource, holdForConfirmation, type PsuDecision,
} from "./confirmation.js";
import type { BasketResource, SessionContext } from "./context.js";
import type { ScaDevice } from "./model.js";
import { refused, type ScaProblem } from "./problems.js";
import { awaitingDecision, closedProblem, redirectChannel } from "./redirect-channel.js";
import { createRedirectLinks } from "./redirect-links.js";
import { createScaSessionMachine } from "./session.js";

export type { ScaResource, SessionContext } from "./context.js";
export { backToTpp, type EntryView, type RedirectClaims } from "./redirect-links.js";
export type { ScaProblem } from "./problems.js";

export interface Review {
  /** Why the PSU cannot confirm, if so (e.g. the debtor account is not theirs). */
  problem: ScaProblem | null;
  /** For a consent: the accounts and cards to choose from, and named ones the PSU does not hold. */
  accounts: Grantable[];
  foreign: string[];
  /** For a payment from the PSU's own account: what the PSU's online banking shows of it. */
  debtor: DebtorOverview | null;
  /** For a payment: the day it executes when not at once on confirm (a future date). */
  executesOn: string | null;
  /** The payments whose payee account is the payer's own: no name check to heed (README). */
  ownPayees: string[];
}

export interface DebtorOverview {
  name: string | null;
  product: string | null;
  availableMinor: bigint;
  currency: string;
  /** The amount exceeds what the account may pay now, overdraft included: the bank would refuse. */
  short: boolean;
}

export type PageView = SessionContext & {
  /** AUTHORISATION_CONFIRMATION: the code the way back carries while the TPP's is awaited. */
  confirmationCode?: string;
  device: ScaDevice | null;
  /** The PSU's devices while it chooses one (step "device"), otherwise empty. */
  devices: ScaDevice[];
  review: Review | null;
};


/**
 * A basket's review: why the PSU cannot confirm (a payment from an account not its own), and the
 * accounts its consents name that the PSU does not hold (those consents will be refused).
 */
async function basketReview(
  deps: Deps, tx: Tx, psuId: string, resource: BasketResource,
): Promise<Review> {
  const foreign: string[] = [];
  for (const consent of awaitingItems(resource).consents) {
    foreign.push(...(await consentChoices(deps, tx, psuId, consent)).foreign);
  }
  const problem = await basketProblem(deps, tx, psuId, resource);
  const ownPayees = await ownAccountTransfers(deps, tx, awaitingItems(resource).payments);
  return { problem, accounts: [], foreign, debtor: null, executesOn: null, ownPayees };
}

async function reviewOf(deps: Deps, tx: Tx, ctx: SessionContext): Promise<Review | null> {
  const psuId = ctx.session.psuId;
  if (ctx.session.step !== "review" || !psuId) return null;
  const { resource } = ctx;
  if (resource.type === "basket") return basketReview(deps, tx, psuId, resource);
  if (resource.type === "consent") {
    const { consent } = resource;
    const choices = await consentChoices(deps, tx, psuId, consent);
    const problem = consent.status === "partiallyAuthorised"
      ? await laterSignerProblem(deps, tx, psuId, consent) : null;
    return { problem, ...choices, debtor: null, executesOn: null, ownPayees: [] };
  }
  const problem = await signingProblem(deps, tx, psuId, resource.payment,
    { once: !resource.cancellation });
  const debtor = problem ? null : await debtorOverview(deps, tx, resource);
  const { requestedExecutionDate: date } = resource.payment;
  const today = dateInZone(deps.clock.now(), deps.settings.timeZone);
  const executesOn = date !== null && date > today ? date : null;
  const { entries, payment } = resource;
  const ownPayees = await ownAccountTransfers(deps, tx, entries.length > 0 ? entries : [payment]);
  return { problem, accounts: [], foreign: [], debtor, executesOn, ownPayees };
}

async function debtorOverview(
  deps: Deps, tx: Tx, resource: Extract<SessionContext["resource"], { type: "payment" }>,
): Promise<DebtorOverview | null> {
  const { core } = deps;
  const p = resource.payment;
  const account = await core.findAccountByIban(tx, p.debtorAccount.iban);
  const available = account && (await core.availableBalance(tx, account.id));
  const spendable = account && (await core.spendableBalance(tx, account.id));
  if (!account || available === undefined || spendable === undefined) return null;
  return {
    name: account.name, product: account.product, availableMinor: available,
    currency: account.currency, short: !resource.cancellation && p.amountMinor > spendable,
  };
}

/**
 * A decided session stays, at step "done", until it idles out: so that what comes after the
 * decision (a double click, the back button, a reload) can still lead back to the TPP.
 */
const endSession = (deps: Deps, tx: Tx, ctx: SessionContext) =>
  deps.store.scaSessions.advance(tx, ctx.session.id, ctx.session.step, { step: "done" });

/** The bank already refused the consent at the review (accounts not the PSU's). */
function refusedByBank(ctx: SessionContext): boolean {
  return ctx.resource.type === "consent" && ctx.resource.consent.status === "rejected"
    && ctx.authorisation.scaStatus === "failed" && ctx.session.step === "review";
}

/** The SMS "sent" to a PSU, newest first: the sandbox's stand-in for a phone. */
async function sandboxSms(deps: Deps, login: string) {
  const { store } = deps;
  const psu = await store.psus.findByLogin(store.db, login);
  const messages = psu ? await store.sca.smsOf(store.db, psu.id, 50) : [];
  return messages.map((m) => ({ to: m.phone, text: m.text, sentAt: m.created_at }));
}

/**
 * The code the PSU's authenticator app shows now: the sandbox's stand-in for oathtool. Undefined
 * for an unknown login or a PSU without an app.
 */
async function sandboxTotp(deps: Deps, login: string) {
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
async function rememberDevice(deps: Deps, secret: string | undefined, browser: string) {
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
    : decideResource(deps, tx, ctx, decision);
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
      return { ...ctx, device, devices, review: await reviewOf(deps, tx, ctx),
        ...awaitedCode(ctx, secret) };
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
      if (!awaitingDecision(ctx.resource)) {
        if (await decidedHere(tx, ctx)) return { ok: true, decided: ctx.authorisation };
        // The bank refused already (a consent for accounts not the PSU's): cancel leads back.
        if (decision.confirm || !refusedByBank(ctx)) return refused(closedProblem(ctx.resource));
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
