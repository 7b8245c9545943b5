/**
 * The one SCA session machine behind every channel: login -> device -> code -> the channel's own
 * step (the review of an authorisation, the PSU's dashboard). It owns the rules every channel
 * shares: the session behind a cookie and its idle expiry (SCA_SESSION_IDLE_SECONDS), the step
 * order, a new session id after each factor, failures counted across both factors (factors.ts),
 * and the limit of codes sent. A channel plugs in what its session is for (ScaChannel); an
 * embedded or decoupled channel is one more ScaChannel.
 */
import { hashSecret, newSecret } from "../../lib/ids.js";
import type { Tx } from "../../store/db.js";
import type { Deps } from "../deps.js";
import { createScaFactors } from "./factors.js";
import type { LoginSession, LoginStep, Psu, ScaDevice } from "./model.js";
import type { LoginSessionPort } from "./ports.js";
import { refused, type ScaProblem, type StepResult } from "./problems.js";

/** What a session is for: its context on each request, and what happens after each factor. */
/** What a channel's context carries: at least its session. */
type Context<Done extends string> = { session: LoginSession<LoginStep | Done> };

export interface ScaChannel<Done extends string, C extends Context<Done>> {
  sessions: LoginSessionPort<C["session"]>;
  /** The step after both factors. */
  authenticated: Done;
  /** The session's context, or why it cannot go on. */
  context(tx: Tx, session: C["session"]): Promise<C | ScaProblem>;
  /** False once what the session is for no longer waits for the PSU. */
  stillOpen(c: C): boolean;
  /** What a code is bound to (RTS art. 5 dynamic linking), and the SMS that carries it. */
  binding(c: C, psu: Psu): string;
  smsText(c: C, code: string): string;
  /** The channel's own records, in the step's transaction. */
  onIdentified(tx: Tx, c: C, psu: Psu): Promise<void>;
  onDeviceChosen(tx: Tx, c: C, device: ScaDevice): Promise<void>;
  onAuthenticated(tx: Tx, c: C, psu: Psu): Promise<void>;
}

export function createScaSessionMachine<Done extends string, C extends Context<Done>>(
  deps: Deps, channel: ScaChannel<Done, C>,
) {
  const { store, clock, settings } = deps;
  const factors = createScaFactors(deps);
  const { sessions } = channel;
  const nowIso = () => clock.now().toISOString();
  const idle = (s: LoginSession) =>
    clock.now().getTime() - Date.parse(s.lastSeenAt) > settings.scaSessionIdleSeconds * 1000;

  /** The live session behind a cookie, in its context; one idle for too long is ended. */
  async function live(tx: Tx, secret: string | undefined, lang?: string): Promise<C | ScaProblem> {
    const found = secret ? await sessions.find(tx, hashSecret(secret)) : undefined;
    if (!found) return "session_expired";
    if (idle(found)) {
      await sessions.remove(tx, found.id);
      return "session_expired";
    }
    const c = await channel.context(tx, { ...found, lang: lang ?? found.lang });
    if (typeof c !== "string") await sessions.touch(tx, found.id, nowIso(), c.session.lang);
    return c;
  }

  /** Runs `work` on the live session at `step` while its purpose is open, or answers why not. */
  async function atStep(
    secret: string | undefined, step: LoginStep | Done,
    work: (tx: Tx, c: C) => Promise<StepResult>,
  ): Promise<StepResult> {
    return store.transaction(async (tx) => {
      const c = await live(tx, secret);
      if (typeof c === "string") return refused(c);
      if (c.session.step !== step) return refused("wrong_step");
      if (!channel.stillOpen(c)) return refused("already_decided");
      return work(tx, c);
    });
  }

  async function rotate(tx: Tx, session: LoginSession): Promise<string> {
    const secret = newSecret();
    await sessions.rename(tx, session.id, hashSecret(secret), newSecret());
    return secret;
  }

  async function sendCode(tx: Tx, sessionId: string, c: C, psu: Psu, device: ScaDevice) {
    return factors.sendCode(tx, sessionId, { psu, device }, channel.binding(c, psu),
      (code) => channel.smsText(c, code));
  }

  /** The chosen device is recorded, and an SMS device gets its first code. */
  async function useDevice(tx: Tx, sessionId: string, c: C, psu: Psu, device: ScaDevice) {
    await channel.onDeviceChosen(tx, c, device);
    if (device.kind === "sms") await sendCode(tx, sessionId, c, psu, device);
  }

  async function login(secret: string | undefined, loginName: string, password: string) {
    const checked = await factors.checkPassword(loginName, password);
    return atStep(secret, "login", async (tx, c) => {
      const found = await factors.identify(tx, checked);
      if (!found.ok) return found;
      const { psu, devices } = found;
      // With several devices the PSU chooses one first; with one, it is the chosen method.
      const device = devices.length === 1 ? devices[0] : undefined;
      if (!(await sessions.advance(tx, c.session.id, "login", {
        step: device ? "code" : "device", psuId: psu.id, deviceId: device?.id,
      }))) return refused("wrong_step");
      await channel.onIdentified(tx, c, psu);
      const next = await rotate(tx, c.session);
      if (device) await useDevice(tx, hashSecret(next), c, psu, device);
      return { ok: true, secret: next } as const;
    });
  }

  async function psuAndDevice(tx: Tx, session: LoginSession) {
    const psu = session.psuId ? await store.psus.find(tx, session.psuId) : undefined;
    const device = session.deviceId ? await store.psus.findDevice(tx, session.deviceId) : undefined;
    return psu && device ? { psu, device } : undefined;
  }

  /** The PSU's choice among its devices, one of its own only. */
  async function chooseDevice(secret: string | undefined, deviceId: string) {
    return atStep(secret, "device", async (tx, c) => {
      const psu = c.session.psuId ? await store.psus.find(tx, c.session.psuId) : undefined;
      const owned = psu ? await store.psus.devices(tx, psu.id) : [];
      const device = owned.find((d: ScaDevice) => d.id === deviceId);
      if (!psu || !device || !(await sessions.advance(tx, c.session.id, "device", {
        step: "code", deviceId: device.id,
      }))) return refused("wrong_step");
      await useDevice(tx, c.session.id, c, psu, device);
      return { ok: true, secret: secret ?? "" } as const;
    });
  }

  /** A fresh SMS code (the old one stops working), up to CODE_SENDS_MAX per session. */
  async function resendCode(secret: string | undefined) {
    return atStep(secret, "code", async (tx, c) => {
      const found = await psuAndDevice(tx, c.session);
      if (found?.device.kind !== "sms") return refused("wrong_step");
      const sent = await sendCode(tx, c.session.id, c, found.psu, found.device);
      return sent === "ok" ? { ok: true, secret: secret ?? "" } as const : refused(sent);
    });
  }

  async function verifyCode(secret: string | undefined, code: string) {
    return atStep(secret, "code", async (tx, c) => {
      const found = await psuAndDevice(tx, c.session);
      if (!found) return refused("wrong_step");
      const binding = channel.binding(c, found.psu);
      const outcome = await factors.verifyCode(tx, c.session.id, binding, found, code);
      if (outcome !== "ok") return refused(outcome);
      if (!(await sessions.advance(tx, c.session.id, "code", { step: channel.authenticated }))) {
        return refused("wrong_step");
      }
      await channel.onAuthenticated(tx, c, found.psu);
      return { ok: true, secret: await rotate(tx, c.session) } as const;
    });
  }

  /** What a page shows of the session: its PSU, its device, and the devices to choose from. */
  async function factorsOf(tx: Tx, session: LoginSession) {
    const psu = session.psuId ? (await store.psus.find(tx, session.psuId)) ?? null : null;
    const device = session.deviceId
      ? (await store.psus.findDevice(tx, session.deviceId)) ?? null : null;
    const devices = session.step === "device" && psu ? await store.psus.devices(tx, psu.id) : [];
    return { psu, device, devices };
  }

  return { live, atStep, login, chooseDevice, resendCode, verifyCode, factorsOf };
}
