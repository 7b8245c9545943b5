/**
 * The PSU's side of an authorisation: the redirect session, login, authorisation code, and the
 * decision (confirm or cancel) on a payment or a consent. Every step is a compare-and-set on the
 * session, so a replayed or raced form post changes nothing.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { hashSecret, newSecret, newUuid } from "../lib/ids.js";
import { formatAmount } from "../lib/money.js";
import { verifyTotp } from "../lib/totp.js";
import type { Tx } from "../store/db.js";
import type { Authorisation, Psu, ScaDevice, ScaSession } from "./authorisation-model.js";
import type { Consent } from "./consents-model.js";
import type { Deps } from "./deps.js";
import { consentChoices, decideConsent, decidePayment, paymentProblem } from "./decisions.js";
import { rejectIfScaExpired } from "./payment-lifecycle.js";
import type { BankAccount } from "./core-banking.js";
import type { Payment } from "./payments-model.js";

/** A page-level problem the PSU sees; never says which factor was wrong. */
export type ScaProblem =
  | "session_expired" | "link_invalid" | "link_used" | "already_decided" | "credentials_invalid"
  | "psu_blocked" | "code_invalid" | "code_expired" | "wrong_step" | "no_device";

export type ScaResource =
  | { type: "payment"; payment: Payment }
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
  /** For a consent: the accounts to choose from, and named IBANs the PSU does not hold. */
  accounts: BankAccount[];
  foreign: string[];
}

export type PageView = SessionContext & { device: ScaDevice | null; review: Review | null };

export type StepResult = { ok: true; secret: string } | { ok: false; problem: ScaProblem };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The dynamic link of RTS art. 5: a code is bound to exactly this amount and payee. */
export function bindingOf(resource: ScaResource): string {
  if (resource.type === "consent") return sha256(`consent|${resource.consent.id}`);
  const p = resource.payment;
  return sha256(`payment|${p.id}|${p.amountMinor}|${p.currency}|${p.creditorAccount.iban}|${p.creditorName}`);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createAuthorisations(deps: Deps) {
  const { store, clock, settings, passwords } = deps;
  const nowIso = () => clock.now().toISOString();

  async function loadResource(tx: Tx, a: Authorisation): Promise<ScaResource | undefined> {
    if (a.resourceType === "payment") {
      const payment = await store.payments.find(tx, a.resourceId);
      return payment && { type: "payment", payment: await rejectIfScaExpired(deps, tx, payment) };
    }
    const consent = await store.consents.find(tx, a.resourceId);
    return consent && { type: "consent", consent };
  }

  function awaitingDecision(resource: ScaResource): boolean {
    return resource.type === "payment"
      ? resource.payment.status === "RCVD"
      : resource.consent.status === "received";
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

  /** Counts a failure against the PSU; the limit-th consecutive one blocks for a while. */
  async function fail(tx: Tx, psu: Psu): Promise<ScaProblem> {
    const failures = psu.failedAttempts + 1;
    const blockedUntil = failures >= settings.loginFailuresMax
      ? new Date(clock.now().getTime() + settings.loginBlockSeconds * 1000).toISOString() : null;
    await store.psus.recordFailure(tx, psu.id, blockedUntil);
    return blockedUntil ? "psu_blocked" : "credentials_invalid";
  }

  function isBlocked(psu: Psu): boolean {
    return psu.status === "blocked"
      || (psu.blockedUntil !== null && psu.blockedUntil > nowIso());
  }

  async function login(secret: string | undefined, loginName: string, password: string): Promise<StepResult> {
    const psu = await store.psus.findByLogin(store.db, loginName);
    // Hash before any decision so that timing does not reveal which logins exist.
    const passwordOk = await passwords.verify(psu?.passwordHash ?? null, password);
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (ctx.session.step !== "login") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      const current = psu && (await store.psus.find(tx, psu.id));
      if (!current) return { ok: false, problem: "credentials_invalid" };
      if (isBlocked(current)) return { ok: false, problem: "psu_blocked" };
      if (!passwordOk) return { ok: false, problem: await fail(tx, current) };
      const device = (await store.psus.devices(tx, current.id))[0];
      if (!device) return { ok: false, problem: "no_device" };
      if (!(await store.sca.advanceSession(tx, ctx.session.id, "login", {
        step: "code", psuId: current.id, deviceId: device.id,
      }))) return { ok: false, problem: "wrong_step" };
      await store.sca.setScaStatus(tx, ctx.authorisation.id, ["received"], "psuIdentified", nowIso(), current.id);
      const next = await rotate(tx, ctx.session);
      if (device.kind === "sms") await sendCode(tx, hashSecret(next), current, device, ctx);
      return { ok: true, secret: next };
    });
  }

  function smsText(code: string, ctx: SessionContext): string {
    if (ctx.resource.type === "consent") {
      return `${settings.bankName}: your code ${code} allows ${ctx.tppName} to read your account data. `
        + "Never share it.";
    }
    const p = ctx.resource.payment;
    return `${settings.bankName}: your code ${code} authorises the payment of `
      + `${p.currency} ${formatAmount(p.amountMinor, p.currency)} to ${p.creditorName} `
      + `(${p.creditorAccount.iban}). Never share it.`;
  }

  async function sendCode(tx: Tx, sessionId: string, psu: Psu, device: ScaDevice, ctx: SessionContext) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const binding = bindingOf(ctx.resource);
    const expiresAt = new Date(clock.now().getTime() + settings.smsCodeTtlSeconds * 1000).toISOString();
    await store.sca.putChallenge(tx, sessionId, {
      codeHash: sha256(`${binding}:${code}`), binding, expiresAt, usedAt: null,
    });
    await store.sca.sendSms(tx, { id: newUuid(), psuId: psu.id, phone: device.phone ?? "", text: smsText(code, ctx), at: nowIso() });
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

  async function codeMatches(tx: Tx, ctx: SessionContext, device: ScaDevice, code: string) {
    if (device.kind === "totp") {
      const step = verifyTotp(device.secret ?? "", code, clock.now().getTime());
      return step !== null && (await store.psus.useTotpStep(tx, device.id, step)) ? "ok" : "code_invalid";
    }
    const challenge = await store.sca.findChallenge(tx, ctx.session.id);
    if (!challenge || challenge.usedAt !== null) return "code_invalid";
    if (challenge.expiresAt < nowIso()) return "code_expired";
    const binding = bindingOf(ctx.resource);
    if (!sameText(challenge.binding, binding)) return "code_invalid";
    if (!sameText(challenge.codeHash, sha256(`${binding}:${code}`))) return "code_invalid";
    return (await store.sca.useChallenge(tx, ctx.session.id, nowIso())) ? "ok" : "code_invalid";
  }

  async function verifyCode(secret: string | undefined, code: string): Promise<StepResult> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (ctx.session.step !== "code") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      const { psu, device } = await psuAndDevice(tx, ctx.session);
      if (!psu || !device) return { ok: false, problem: "wrong_step" };
      if (isBlocked(psu)) return { ok: false, problem: "psu_blocked" };
      const outcome = await codeMatches(tx, ctx, device, code.trim());
      if (outcome === "code_expired") return { ok: false, problem: outcome };
      if (outcome !== "ok") {
        const problem = await fail(tx, psu);
        return { ok: false, problem: problem === "psu_blocked" ? problem : "code_invalid" };
      }
      await store.psus.resetFailures(tx, psu.id);
      if (!(await store.sca.advanceSession(tx, ctx.session.id, "code", { step: "review" }))) {
        return { ok: false, problem: "wrong_step" };
      }
      await store.sca.setScaStatus(tx, ctx.authorisation.id, ["psuIdentified"], "psuAuthenticated", nowIso());
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
      return { ...ctx, device: device ?? null, review };
    });
  }

  /** The SMS "sent" to a PSU, newest first: the sandbox's stand-in for a phone. */
  async function sandboxSms(login: string) {
    const psu = await store.psus.findByLogin(store.db, login);
    const messages = psu ? await store.sca.smsOf(store.db, psu.id, 50) : [];
    return messages.map((m) => ({ to: m.phone, text: m.text, sentAt: m.created_at }));
  }

  /** Ends the session with the PSU's decision and tells where the browser goes next. */
  async function decide(
    secret: string | undefined, decision: { confirm: boolean; ibans: readonly string[] },
  ): Promise<{ ok: true; redirectTo: string } | { ok: false; problem: ScaProblem | string }> {
    return store.transaction(async (tx) => {
      const ctx = await context(tx, secret);
      if (typeof ctx === "string") return { ok: false, problem: ctx };
      if (decision.confirm && ctx.session.step !== "review") return { ok: false, problem: "wrong_step" };
      if (!awaitingDecision(ctx.resource)) return { ok: false, problem: "already_decided" };
      const outcome = ctx.resource.type === "payment"
        ? await decidePayment(deps, tx, ctx, ctx.resource.payment, decision.confirm)
        : await decideConsent(deps, tx, ctx, ctx.resource.consent, decision);
      if (!outcome.ok) return outcome;
      await store.sca.deleteSession(tx, ctx.session.id);
      return { ok: true, redirectTo: outcome.redirectTo };
    });
  }

  return { openSession, login, resendCode, verifyCode, view, decide, sandboxSms };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
