/**
 * The one SCA session machine behind every channel: login -> device -> code -> the channel's own
 * step (the review of an authorisation, the PSU's dashboard). It owns the rules every channel
 * shares: the session behind a cookie and its idle expiry (SCA_SESSION_IDLE_SECONDS), the step
 * order, a new session id after each factor, failures counted across both factors (factors.ts),
 * and the limit of codes sent. A channel plugs in what its session is for (ScaChannel); the
 * embedded API is one more ScaChannel. The bank app (decoupled) has no login session: its PSU is
 * bound to the phone, and one answer there with the app's PIN is both factors (BoundScaChannel),
 * its failures counted and blocked as the password's and the code's.
 */
import { hashSecret, newSecret } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { createScaFactors, type ScaFactors } from "./factors.js";
import type { LoginSession, LoginStep, Psu, ScaDevice } from "./model.js";
import type { LoginSessionPort } from "./ports.js";
import { refused, type Refusal, type ScaProblem, type StepResult } from "./problems.js";

/** What a channel's context carries: at least its session. */
type Context<Done extends string> = { session: LoginSession<LoginStep | Done> };

/** What every channel plugs in, with a login session or without: what the PSU is there for. */
export interface ScaPurpose<C> {
  /** False once what the session is for no longer waits for the PSU. */
  stillOpen(c: C): boolean;
  /** Why it no longer waits, where more can be said than that it was decided. */
  whyClosed?(c: C): ScaProblem;
  /**
   * Why this PSU may not authorise what the session is for (a payment from someone else's
   * account), asked right after the first factor: before a code is sent or spent.
   */
  refusal?(tx: Tx, c: C, psu: Psu): Promise<ScaProblem | null>;
  /** The channel's own records, in the step's transaction. */
  onIdentified(tx: Tx, c: C, psu: Psu): Promise<void>;
  onAuthenticated(tx: Tx, c: C, psu: Psu): Promise<void>;
}

/** What a session is for: its context on each request, and what happens after each factor. */
export interface ScaChannel<Done extends string, C extends Context<Done>> extends ScaPurpose<C> {
  sessions: LoginSessionPort<C["session"]>;
  /** The step after both factors. */
  authenticated: Done;
  /**
   * True for a channel without a cookie (embedded: the TPP's certificate and the authorisation
   * carry the session), which has no session to fix and so keeps its id.
   */
  cookieless?: boolean;
  /** The session's context, or why it cannot go on. */
  context(tx: Tx, session: C["session"]): Promise<C | ScaProblem>;
  /**
   * Whether an SCA exemption (RTS 2018/389) spares this PSU the second factor, asked right after
   * the password; the channel records which one. `browser`: the secret of the browser's
   * known-device cookie, if it sent one.
   */
  exempts?(tx: Tx, c: C, psu: Psu, browser: string | undefined): Promise<boolean>;
  /** What a code is bound to (RTS art. 5 dynamic linking), and the SMS that carries it. */
  binding(c: C, psu: Psu): string;
  /** The SMS of a code; `tx` for what it names beyond the context (a debtor account's name). */
  /** `psuId`: the PSU the code goes to. */
  smsText(c: C, code: string, tx: Tx, psuId: string): string | Promise<string>;
  /** The channel's own record of the chosen device, in the step's transaction. */
  onDeviceChosen(tx: Tx, c: C, device: ScaDevice): Promise<void>;
}

/** One channel's machine: what every step below works with. */
interface Machine<Done extends string, C extends Context<Done>> {
  deps: Deps;
  channel: ScaChannel<Done, C>;
  factors: ScaFactors;
}

type Step<Done extends string> = LoginStep | Done;

const nowIso = (deps: Pick<Deps, "clock">) => deps.clock.now().toISOString();

/** Sessions last seen before this moment are idle for too long (SCA_SESSION_IDLE_SECONDS). */
export function idleBefore({ clock, settings }: Pick<Deps, "clock" | "settings">): string {
  return new Date(clock.now().getTime() - settings.scaSessionIdleSeconds * 1000).toISOString();
}

const idle = (deps: Pick<Deps, "clock" | "settings">, session: LoginSession) =>
  Date.parse(session.lastSeenAt) < Date.parse(idleBefore(deps));

/** The live session behind a cookie, in its context; one idle for too long is ended. */
async function live<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, tx: Tx, secret: string | undefined, lang?: string,
): Promise<C | ScaProblem> {
  const { sessions } = m.channel;
  const found = secret ? await sessions.find(tx, hashSecret(secret)) : undefined;
  if (!found) return "session_expired";
  if (idle(m.deps, found)) {
    await sessions.remove(tx, found.id);
    return "session_expired";
  }
  const c = await m.channel.context(tx, { ...found, lang: lang ?? found.lang });
  if (typeof c !== "string") await sessions.touch(tx, found.id, nowIso(m.deps), c.session.lang);
  return c;
}

/** Runs `work` on the live session at `step` while its purpose is open, or answers why not. */
function atStep<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, secret: string | undefined, step: Step<Done>,
  work: (tx: Tx, c: C) => Promise<StepResult>,
): Promise<StepResult> {
  return m.deps.store.transaction(async (tx) => {
    const c = await live(m, tx, secret);
    if (typeof c === "string") return refused(c);
    if (c.session.step !== step) return refused("wrong_step");
    if (!m.channel.stillOpen(c)) return refused(m.channel.whyClosed?.(c) ?? "already_decided");
    return work(tx, c);
  });
}

/** Session fixation defence: a new id (the cookie's secret) and CSRF token after each factor. */
async function rotate(
  m: Machine<string, Context<string>>, tx: Tx, session: LoginSession, secret: string,
) {
  if (m.channel.cookieless) return secret;
  const next = newSecret();
  await m.channel.sessions.rename(tx, session.id, hashSecret(next), newSecret());
  return next;
}

function sendCode<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, tx: Tx, sessionId: string, c: C, target: { psu: Psu; device: ScaDevice },
) {
  return m.factors.sendCode(tx, sessionId, target, m.channel.binding(c, target.psu),
    (code) => m.channel.smsText(c, code, tx, target.psu.id));
}

/** The chosen device is recorded, and an SMS device gets its first code. */
async function useDevice<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, tx: Tx, sessionId: string, c: C, target: { psu: Psu; device: ScaDevice },
) {
  await m.channel.onDeviceChosen(tx, c, target.device);
  if (target.device.kind === "sms") await sendCode(m, tx, sessionId, c, target);
}

/** Exempted (RTS 2018/389): the password alone, then the channel's step at once. */
async function withoutSecondFactor<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, tx: Tx, c: C, psu: Psu, secret: string | undefined,
) {
  if (!(await m.channel.sessions.advance(tx, c.session.id, "login", {
    step: m.channel.authenticated, psuId: psu.id,
  }))) return refused("wrong_step");
  await m.channel.onIdentified(tx, c, psu);
  const authenticated = { ...c, session: { ...c.session, psuId: psu.id } };
  await m.channel.onAuthenticated(tx, authenticated, psu);
  return { ok: true, secret: await rotate(m, tx, c.session, secret ?? "") } as const;
}

async function login<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, secret: string | undefined, loginName: string, password: string,
  browser?: string,
) {
  const checked = await m.factors.checkPassword(loginName, password);
  return atStep(m, secret, "login", async (tx, c) => {
    const found = await m.factors.identify(tx, checked);
    if (!found.ok) return found;
    const { psu, devices } = found;
    const refusal = await m.channel.refusal?.(tx, c, psu);
    if (refusal) return refused(refusal);
    if (await m.channel.exempts?.(tx, c, psu, browser)) {
      return withoutSecondFactor(m, tx, c, psu, secret);
    }
    // With several devices the PSU chooses one first; with one, it is the chosen method.
    const device = devices.length === 1 ? devices[0] : undefined;
    if (!(await m.channel.sessions.advance(tx, c.session.id, "login", {
      step: device ? "code" : "device", psuId: psu.id, deviceId: device?.id,
    }))) return refused("wrong_step");
    await m.channel.onIdentified(tx, c, psu);
    const next = await rotate(m, tx, c.session, secret ?? "");
    if (device) await useDevice(m, tx, hashSecret(next), c, { psu, device });
    return { ok: true, secret: next } as const;
  });
}

/** The PSU of a session and the device it chose, once it has both. */
export async function psuAndDevice(deps: Pick<Deps, "store">, tx: Tx, session: LoginSession) {
  const { psus } = deps.store;
  const psu = session.psuId ? await psus.find(tx, session.psuId) : undefined;
  const device = session.deviceId ? await psus.findDevice(tx, session.deviceId) : undefined;
  return psu && device ? { psu, device } : undefined;
}

/** The PSU's choice among its devices, one of its own only. */
function chooseDevice<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, secret: string | undefined, deviceId: string,
) {
  const { psus } = m.deps.store;
  return atStep(m, secret, "device", async (tx, c) => {
    const psu = c.session.psuId ? await psus.find(tx, c.session.psuId) : undefined;
    const owned = psu ? await psus.devices(tx, psu.id) : [];
    const device = owned.find((d: ScaDevice) => d.id === deviceId);
    if (!psu || !device || !(await m.channel.sessions.advance(tx, c.session.id, "device", {
      step: "code", deviceId: device.id,
    }))) return refused("wrong_step");
    await useDevice(m, tx, c.session.id, c, { psu, device });
    return { ok: true, secret: secret ?? "" } as const;
  });
}

/** A fresh SMS code (the old one stops working), up to CODE_SENDS_MAX per session. */
function resendCode<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, secret: string | undefined,
) {
  return atStep(m, secret, "code", async (tx, c) => {
    const found = await psuAndDevice(m.deps, tx, c.session);
    if (found?.device.kind !== "sms") return refused("wrong_step");
    const sent = await sendCode(m, tx, c.session.id, c, found);
    return sent === "ok" ? { ok: true, secret: secret ?? "" } as const : refused(sent);
  });
}

function verifyCode<Done extends string, C extends Context<Done>>(
  m: Machine<Done, C>, secret: string | undefined, code: string,
) {
  return atStep(m, secret, "code", async (tx, c) => {
    const found = await psuAndDevice(m.deps, tx, c.session);
    if (!found) return refused("wrong_step");
    const binding = m.channel.binding(c, found.psu);
    const outcome = await m.factors.verifyCode(tx, c.session.id, binding, found, code);
    if (outcome !== "ok") return { ok: false, ...outcome } as const;
    const { authenticated } = m.channel;
    if (!(await m.channel.sessions.advance(tx, c.session.id, "code", { step: authenticated }))) {
      return refused("wrong_step");
    }
    await m.channel.onAuthenticated(tx, c, found.psu);
    return { ok: true, secret: await rotate(m, tx, c.session, secret ?? "") } as const;
  });
}

/** What a page shows of the session: its PSU, its device, and the devices to choose from. */
async function factorsOf(deps: Pick<Deps, "store">, tx: Tx, session: LoginSession) {
  const { psus } = deps.store;
  const psu = session.psuId ? (await psus.find(tx, session.psuId)) ?? null : null;
  const device = session.deviceId ? (await psus.findDevice(tx, session.deviceId)) ?? null : null;
  const devices = session.step === "device" && psu ? await psus.devices(tx, psu.id) : [];
  return { psu, device, devices };
}

/**
 * What every channel's session starts as, behind `secret` (its cookie's, or the embedded
 * channel's derived one): at the login step, its id the secret's hash.
 */
export function freshSession(
  { clock }: Pick<Deps, "clock">, secret: string, lang: string,
): LoginSession<"login"> {
  return {
    id: hashSecret(secret), step: "login", psuId: null, deviceId: null, csrf: newSecret(), lang,
    lastSeenAt: clock.now().toISOString(),
  };
}

/** A new session of an authorisation; `returnTo` for one the OAuth server opened. */
export async function openScaSession(
  deps: Pick<Deps, "clock" | "store">, tx: Tx,
  opened: { secret: string; authorisationId: string; lang: string; returnTo?: string },
): Promise<void> {
  const session = freshSession(deps, opened.secret, opened.lang);
  await deps.store.scaSessions.insert(tx, {
    ...session, authorisationId: opened.authorisationId, returnTo: opened.returnTo,
  }, session.lastSeenAt);
}

export function createScaSessionMachine<Done extends string, C extends Context<Done>>(
  deps: Deps, channel: ScaChannel<Done, C>,
) {
  const m: Machine<Done, C> = { deps, channel, factors: createScaFactors(deps) };
  type Work = (tx: Tx, c: C) => Promise<StepResult>;
  type Secret = string | undefined;
  return {
    live: (tx: Tx, secret: Secret, lang?: string) => live(m, tx, secret, lang),
    atStep: (secret: Secret, step: Step<Done>, work: Work) => atStep(m, secret, step, work),
    login: (secret: Secret, loginName: string, password: string, browser?: string) =>
      login(m, secret, loginName, password, browser),
    chooseDevice: (secret: Secret, deviceId: string) => chooseDevice(m, secret, deviceId),
    resendCode: (secret: Secret) => resendCode(m, secret),
    verifyCode: (secret: Secret, code: string) => verifyCode(m, secret, code),
    factorsOf: (tx: Tx, session: LoginSession) => factorsOf(deps, tx, session),
  };
}

/**
 * A channel whose PSU is bound to the device it decides on (the bank app: possession of the
 * phone, knowledge of its PIN), so that one answer there stands for both factors.
 */
export interface BoundScaChannel<C extends object> extends ScaPurpose<C> {
  /** What `key` (an authorisation) asks of this PSU now, or why it cannot go on. */
  context(tx: Tx, key: string, psu: Psu): Promise<C | ScaProblem>;
  /** The PSU declined on its device: no factor is needed to say no. */
  onDeclined(tx: Tx, c: C, psu: Psu): Promise<void>;
}

/** A bound PSU's answer: approved, its factor (the PIN) right or wrong, or declined. */
export type BoundAnswer = { approve: true; factorPassed: boolean } | { approve: false };

export type BoundOutcome = { ok: true } | ({ ok: false } & Refusal);

/**
 * The PSU's answer on its bound device: a wrong factor counts with its failures on every
 * channel, and a blocked PSU may not answer at all; then as after the code on any channel.
 */
function answerBound<C extends object>(
  deps: Deps, factors: ScaFactors, channel: BoundScaChannel<C>, psuId: string, key: string,
  answer: BoundAnswer,
): Promise<BoundOutcome> {
  return deps.store.transaction(async (tx): Promise<BoundOutcome> => {
    const psu = await deps.store.psus.find(tx, psuId);
    const failed = answer.approve && !answer.factorPassed;
    const refusal = psu && (await factors.boundFactor(tx, psu, failed));
    if (!psu || refusal) return { ok: false, ...(refusal ?? refused("wrong_step")) };
    const c = await channel.context(tx, key, psu);
    if (typeof c === "string") return refused(c);
    if (!channel.stillOpen(c)) return refused(channel.whyClosed?.(c) ?? "already_decided");
    if (!answer.approve) {
      await channel.onDeclined(tx, c, psu);
      return { ok: true };
    }
    const problem = await channel.refusal?.(tx, c, psu);
    if (problem) return refused(problem);
    await factors.passed(tx, psu.id);
    await channel.onAuthenticated(tx, c, psu);
    return { ok: true };
  });
}

export function createBoundScaMachine<C extends object>(deps: Deps, channel: BoundScaChannel<C>) {
  const factors = createScaFactors(deps);
  return {
    /** What the device shows the PSU of `key`, if it still waits; shown, the PSU is identified. */
    async shown(tx: Tx, key: string, psu: Psu): Promise<C | undefined> {
      const c = await channel.context(tx, key, psu);
      if (typeof c === "string" || !channel.stillOpen(c)) return undefined;
      await channel.onIdentified(tx, c, psu);
      return c;
    },
    answer: (psuId: string, key: string, answer: BoundAnswer) =>
      answerBound(deps, factors, channel, psuId, key, answer),
  };
}
