/**
 * The PSU's side of an authorisation: the redirect session, login, authorisation code, and the
 * decision (confirm or cancel) on a payment or a consent. Every step is a compare-and-set on the
 * session, so a replayed or raced form post changes nothing.
 */
import { hashSecret, newSecret } from "../../lib/ids.js";
import { formatAmount } from "../../lib/money.js";
import type { Tx } from "../../store/db.js";
import type { Authorisation, Psu, ScaDevice, ScaSession } from "./model.js";
import type { Consent } from "../consents-model.js";
import type { Deps } from "../deps.js";
import {
  consentChoices, decideConsent, decidePayment, paymentProblem, type Grantable, type PsuChoice,
} from "../decisions.js";
import { rejectIfScaExpired } from "../payment-lifecycle.js";
import type { Payment } from "../payments-model.js";
import { createScaFactors, sha256, type ScaProblem } from "./factors.js";

export type { ScaProblem } from "./factors.js";

export type ScaResource =
  | { type: "payment"; payment: Payment; cancellation: boolean; entries: Payment[] }
  | { type: "consent"; consent: Consent };

export interface SessionContext {
  session: ScaSession;
  authorisation: Authorisation;
  resource: ScaResource;
  tppName: string;
  redirectUri: string;
  nokRedirectUri: string | null;
}

export interface Review {
  /** Why the PSU cannot confirm, if so (e.g. the debtor account is not theirs). */
  problem: string | null;
  /** For a consent: the accounts and cards to choose from, and named ones the PSU does not hold. */
  accounts: Grantable[];
  foreign: string[];
}

export type PageView = SessionContext & {
  device: ScaDevice | null;
  /** The PSU's devices while it chooses one (step "device"), otherwise empty. */
  devices: ScaDevice[];
  review: Review | null;
};

export type StepResult = { ok: true; secret: string } | { ok: false; problem: ScaProblem };

/** The dynamic link of RTS art. 5: a code is bound to exactly this amount and payee. */
export function bindingOf(resource: ScaResource): string {
  if (resource.type === "consent") return sha256(`consent|${resource.consent.id}`);
  const p = resource.payment;
  return sha256(`${resource.cancellation ? "cancellation" : "payment"}|${p.id}|${p.amountMinor}|${p.currency}|${p.creditorAccount.iban}|${p.creditorName}`);
}

export function createAuthorisations(deps: Deps) {
  const { store, clock, settings } = deps;
  const factors = createScaFactors(deps);
  const nowIso = () => clock.now().toISOString();

  async function loadResource(tx: Tx, a: Authorisation): Promise<ScaResource | undefined> {
    if (a.resourceType !== "consent") {
      const payment = await store.payments.find(tx, a.resourceId);
      if (!payment) return undefined;
      const cancellation = a.resourceType === "payment-cancellation";
      // A bulk is reviewed payment by payment; its code binds its id and total.
      const entries = payment.service === "bulk-payments" ? await store.payments.entriesOf(tx, payment.id) : [];
      return { type: "payment", payment: await rejectIfScaExpired(deps, tx, payment), cancellation, entries };
    }
    const consent = await store.consents.find(tx, a.resourceId);
    return consent && { type: "consent", consent };
  }

  function awaitingDecision(resource: ScaResource): boolean {
    if (resource.type === "consent") return resource.consent.status === "received";
    return resource.payment.status === (resource.cancellation ? "ACTC" : "RCVD");
  }

  /** Exchanges a verified, unspent redirect token for a fresh session (the cookie's secret). */
  async function openSession(
    claims: { jti: string; authorisationId: string; expiresAt: string }, lang: string,
  ): Promise<StepResult> {
    return store.transaction(async (tx) => {
      if (!(await store.sca.spendToken(tx, claims.jti, claims.expiresAt))) {
        return { ok: false, problem: "link_used" } as const;
      }
      const authorisation = await store.sca.findAuthorisation(tx, claims.authorisationId);
      const resource = authorisation && (await loadResource(tx, authorisation));
      if (!authorisation || !resource) return { ok: false, problem: "link_invalid" } as const;
      if (!awaitingDecision(resource)) return { ok: false, problem: "already_decided" } as const;
      const secret = newSecret();
      await store.sca.insertSession(tx, {
        id: hashSecret(secret), authorisationId: authorisation.id, step: "login", psuId: null,
        deviceId: null, csrf: newSecret(), lang, lastSeenAt: nowIso(),
      }, nowIso());
      return { ok: true, secret } as const;
    });
  }

  /** The live session behind a cookie, with its resource; ends sessions idle for too long. */
  async function context(tx: Tx, secret: string | undefined): Promise<SessionContext | ScaProblem> {
    if (!secret) return "session_expired";
    const session = await store.sca.findSession(tx, hashSecret(secret));
    if (!session) return "session_expired";
    const idleMs = clock.now().getTime() - Date.parse(session.lastSeenAt);
    if (idleMs > settings.scaSessionIdleSeconds * 1000) {
      await store.sca.deleteSession(tx, session.id);
      return "session_expired";
    }
    const authorisation = await store.sca.findAuthorisation(tx, session.authorisationId);
    const resource = authorisation && (await loadResource(tx, authorisation));
    if (!authorisation || !resource) return "link_invalid";
    await store.sca.touchSession(tx, session.id, nowIso());
    const owner = resource.type === "payment" ? resource.payment : resource.consent;
    return {
      session, authorisation, resource,
      tppName: (await store.tpps.name(tx, authorisation.tppId)) ?? authorisation.tppId,
      redirectUri: owner.redirectUri, nokRedirectUri: owner.nokRedirectUri,
    };
  }

  async function rotate(tx: Tx, session: ScaSession): Promise<string> {
    const secret = newSecret();
    await store.sca.renameSession(tx, session.id, hashSecret(secret), newSecret());
    return secret;
  }

  async function login(secret: string | undefined, loginName: string, password: string): Promise<StepResult> {
    const checked = await factors.checkPassword(loginName, password);
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (ctx.session.step !== "login") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      const found = await factors.identify(tx, checked);
      if (!found.ok) return found;
      const { psu, devices } = found;
      // With several devices the PSU chooses one first; with one, it is the chosen method.
      const device = devices.length === 1 ? devices[0] : undefined;
      if (!(await store.sca.advanceSession(tx, ctx.session.id, "login", {
        step: device ? "code" : "device", psuId: psu.id, deviceId: device?.id,
      }))) return { ok: false, problem: "wrong_step" };
      await store.sca.setScaStatus(tx, ctx.authorisation.id, ["received"], "psuIdentified", nowIso(), psu.id);
      const next = await rotate(tx, ctx.session);
      if (device) await useDevice(tx, hashSecret(next), ctx, psu, device);
      return { ok: true, secret: next };
    });
  }

  /** Records the chosen device (the TPP sees it as chosenScaMethod) and sends an SMS code. */
  async function useDevice(tx: Tx, sessionId: string, ctx: SessionContext, psu: Psu, device: ScaDevice) {
    await store.psuSessions.chooseMethod(tx, ctx.authorisation.id, device.id);
    if (device.kind === "sms") await sendCode(tx, sessionId, psu, device, ctx);
  }

  /** The PSU's choice among its devices, one of its own only. */
  async function chooseDevice(secret: string | undefined, deviceId: string): Promise<StepResult> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      const psu = ctx.session.psuId ? await store.psus.find(tx, ctx.session.psuId) : undefined;
      const device = psu && (await store.psus.devices(tx, psu.id)).find((d) => d.id === deviceId);
      if (ctx.session.step !== "device" || !psu || !device) return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      if (!(await store.sca.advanceSession(tx, ctx.session.id, "device", { step: "code", deviceId: device.id }))) {
        return { ok: false, problem: "wrong_step" };
      }
      await useDevice(tx, ctx.session.id, ctx, psu, device);
      return { ok: true, secret: secret ?? "" };
    });
  }

  function smsText(code: string, ctx: SessionContext): string {
    if (ctx.resource.type === "consent") {
      return `${settings.bankName}: your code ${code} allows ${ctx.tppName} to read your account data. `
        + "Never share it.";
    }
    const p = ctx.resource.payment;
    const what = ctx.resource.cancellation ? "the cancellation of the payment" : "the payment";
    const amount = `${p.currency} ${formatAmount(p.amountMinor, p.currency)}`;
    const to = ctx.resource.entries.length > 0
      ? `${amount} in total to ${ctx.resource.entries.length} payees`
      : `${amount} to ${p.creditorName} (${p.creditorAccount.iban})`;
    return `${settings.bankName}: your code ${code} authorises ${what} of ${to}. Never share it.`;
  }

  async function sendCode(tx: Tx, sessionId: string, psu: Psu, device: ScaDevice, ctx: SessionContext) {
    await factors.sendCode(tx, sessionId, psu, device, bindingOf(ctx.resource), (code) => smsText(code, ctx));
  }

  /** Sends a fresh SMS code (the old one stops working). */
  async function resendCode(secret: string | undefined): Promise<StepResult> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      const { psu, device } = await psuAndDevice(tx, ctx.session);
      if (ctx.session.step !== "code" || !psu || device?.kind !== "sms") {
        return { ok: false, problem: "wrong_step" };
      }
      await sendCode(tx, ctx.session.id, psu, device, ctx);
      return { ok: true, secret: secret ?? "" };
    });
  }

  async function psuAndDevice(tx: Tx, session: ScaSession) {
    const psu = session.psuId ? await store.psus.find(tx, session.psuId) : undefined;
    const device = session.deviceId ? await store.psus.findDevice(tx, session.deviceId) : undefined;
    return { psu, device };
  }

  async function verifyCode(secret: string | undefined, code: string): Promise<StepResult> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (ctx.session.step !== "code") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      const { psu, device } = await psuAndDevice(tx, ctx.session);
      if (!psu || !device) return { ok: false, problem: "wrong_step" };
      const outcome = await factors.verifyCode(tx, ctx.session.id, bindingOf(ctx.resource), psu, device, code);
      if (outcome !== "ok") return { ok: false, problem: outcome };
      if (!(await store.sca.advanceSession(tx, ctx.session.id, "code", { step: "review" }))) {
        return { ok: false, problem: "wrong_step" };
      }
      await store.sca.setScaStatus(tx, ctx.authorisation.id, ["psuIdentified"], "psuAuthenticated", nowIso());
      if (ctx.resource.type === "consent") await rejectForeign(tx, ctx.authorisation.id, ctx.resource.consent, psu.id);
      return { ok: true, secret: await rotate(tx, ctx.session) };
    });
  }

  /** What a page shows: the session, its device and, on the review, what the PSU may decide. */
  async function view(secret: string | undefined): Promise<PageView | ScaProblem> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return ctx;
      const { device } = await psuAndDevice(tx, ctx.session);
      const psuId = ctx.session.psuId;
      let review: Review | null = null;
      if (ctx.session.step === "review" && psuId) {
        review = ctx.resource.type === "payment"
          ? { problem: await paymentProblem(deps, tx, psuId, ctx.resource.payment), accounts: [], foreign: [] }
          : { problem: null, ...(await consentChoices(deps, tx, psuId, ctx.resource.consent)) };
      }
      const devices = ctx.session.step === "device" && psuId ? await store.psus.devices(tx, psuId) : [];
      return { ...ctx, device: device ?? null, devices, review };
    });
  }

  /** The SMS "sent" to a PSU, newest first: the sandbox's stand-in for a phone. */
  async function sandboxSms(login: string) {
    const psu = await store.psus.findByLogin(store.db, login);
    const messages = psu ? await store.sca.smsOf(store.db, psu.id, 50) : [];
    return messages.map((m) => ({ to: m.phone, text: m.text, sentAt: m.created_at }));
  }

  /**
   * A consent naming accounts the PSU does not hold is rejected as soon as the PSU is known: the
   * PSU sees why on the review, the TPP sees it rejected.
   */
  async function rejectForeign(tx: Tx, authorisationId: string, consent: Consent, psuId: string) {
    if ((await consentChoices(deps, tx, psuId, consent)).foreign.length === 0) return;
    const at = nowIso();
    await store.consents.transition(tx, consent.id, ["received"], "rejected", { at });
    await store.sca.setScaStatus(tx, authorisationId, ["psuAuthenticated"], "failed", at);
  }

  function refusedByBank(ctx: SessionContext): boolean {
    return ctx.resource.type === "consent" && ctx.resource.consent.status === "rejected"
      && ctx.authorisation.scaStatus === "failed" && ctx.session.step === "review";
  }

  /** Ends the session with the PSU's decision and tells where the browser goes next. */
  async function decide(
    secret: string | undefined, decision: { confirm: boolean; ibans: readonly string[] } & Partial<PsuChoice>,
  ): Promise<{ ok: true; redirectTo: string } | { ok: false; problem: ScaProblem | string }> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (decision.confirm && ctx.session.step !== "review") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) {
        // The bank refused already (a consent for accounts not the PSU's): cancel leads back.
        if (decision.confirm || !refusedByBank(ctx)) return { ok: false, problem: "already_decided" };
        await store.sca.deleteSession(tx, ctx.session.id);
        return { ok: true, redirectTo: ctx.nokRedirectUri ?? ctx.redirectUri };
      }
      const outcome = ctx.resource.type === "payment"
        ? await decidePayment(deps, tx, ctx, ctx.resource.payment, decision.confirm)
        : await decideConsent(deps, tx, ctx, ctx.resource.consent, decision);
      if (!outcome.ok) return outcome;
      await store.sca.deleteSession(tx, ctx.session.id);
      return { ok: true, redirectTo: outcome.redirectTo };
    });
  }

  return { openSession, login, chooseDevice, resendCode, verifyCode, view, decide, sandboxSms };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
