/**
 * The two factors of strong customer authentication, shared by an authorisation and the PSU's own
 * dashboard: password (knowledge) then a code from the PSU's device (possession), with the same
 * failure counting and blocking wherever the PSU logs in.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { newUuid } from "../../lib/ids.js";
import { verifyTotp } from "../../lib/totp.js";
import type { Tx } from "../../store/db.js";
import type { Psu, ScaDevice } from "./model.js";
import type { Deps } from "../deps.js";

/** A page-level problem the PSU sees; never says which factor was wrong. */
export type ScaProblem =
  | "session_expired" | "link_invalid" | "link_used" | "already_decided" | "credentials_invalid"
  | "psu_blocked" | "code_invalid" | "code_expired" | "wrong_step" | "no_device";

export type Identified =
  | { ok: true; psu: Psu; devices: ScaDevice[] }
  | { ok: false; problem: ScaProblem };

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Berlin Group's authenticationObject; "APP_OTP" is ours (BG lets an ASPSP add types). */
export interface ScaMethod { authenticationType: "SMS_OTP" | "APP_OTP"; authenticationMethodId: string; name: string }

/** The device the PSU chose for an authorisation, once it has chosen (or had only one). */
export async function chosenScaMethod(deps: Deps, authorisationId: string): Promise<ScaMethod | undefined> {
  const { store } = deps;
  const deviceId = await store.psuSessions.chosenMethod(store.db, authorisationId);
  const device = deviceId ? await store.psus.findDevice(store.db, deviceId) : undefined;
  return device && {
    authenticationType: device.kind === "sms" ? "SMS_OTP" : "APP_OTP",
    // BG allows 35 characters: the device's UUID without its dashes.
    authenticationMethodId: device.id.replaceAll("-", ""), name: device.label,
  };
}

export function createScaFactors(deps: Deps) {
  const { store, clock, settings, passwords } = deps;
  const nowIso = () => clock.now().toISOString();

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

  /** The password check, outside any transaction: hashing is slow and must not hold a lock. */
  async function checkPassword(loginName: string, password: string) {
    const psu = await store.psus.findByLogin(store.db, loginName);
    // Hash before any decision so that timing does not reveal which logins exist.
    const ok = await passwords.verify(psu?.passwordHash ?? null, password);
    return { psuId: psu?.id, ok };
  }

  /** First factor, inside the step's transaction: the PSU and its devices, or why not. */
  async function identify(tx: Tx, checked: { psuId: string | undefined; ok: boolean }): Promise<Identified> {
    const psu = checked.psuId ? await store.psus.find(tx, checked.psuId) : undefined;
    if (!psu) return { ok: false, problem: "credentials_invalid" };
    if (isBlocked(psu)) return { ok: false, problem: "psu_blocked" };
    if (!checked.ok) return { ok: false, problem: await fail(tx, psu) };
    const devices = await store.psus.devices(tx, psu.id);
    if (devices.length === 0) return { ok: false, problem: "no_device" };
    return { ok: true, psu, devices };
  }

  /** A fresh SMS code bound to `binding` (the old one stops working). */
  async function sendCode(
    tx: Tx, sessionId: string, psu: Psu, device: ScaDevice, binding: string, text: (code: string) => string,
  ): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const expiresAt = new Date(clock.now().getTime() + settings.smsCodeTtlSeconds * 1000).toISOString();
    await store.sca.putChallenge(tx, sessionId, {
      codeHash: sha256(`${binding}:${code}`), binding, expiresAt, usedAt: null,
    });
    await store.sca.sendSms(tx, { id: newUuid(), psuId: psu.id, phone: device.phone ?? "", text: text(code), at: nowIso() });
  }

  async function codeMatches(tx: Tx, sessionId: string, binding: string, device: ScaDevice, code: string) {
    if (device.kind === "totp") {
      const step = verifyTotp(device.secret ?? "", code, clock.now().getTime());
      return step !== null && (await store.psus.useTotpStep(tx, device.id, step)) ? "ok" : "code_invalid";
    }
    const challenge = await store.sca.findChallenge(tx, sessionId);
    if (!challenge || challenge.usedAt !== null) return "code_invalid";
    if (challenge.expiresAt < nowIso()) return "code_expired";
    if (!sameText(challenge.binding, binding)) return "code_invalid";
    if (!sameText(challenge.codeHash, sha256(`${binding}:${code}`))) return "code_invalid";
    return (await store.sca.useChallenge(tx, sessionId, nowIso())) ? "ok" : "code_invalid";
  }

  /** Second factor: "ok" resets the PSU's failures; a wrong code counts as a failure. */
  async function verifyCode(
    tx: Tx, sessionId: string, binding: string, psu: Psu, device: ScaDevice, code: string,
  ): Promise<"ok" | ScaProblem> {
    if (isBlocked(psu)) return "psu_blocked";
    const outcome = await codeMatches(tx, sessionId, binding, device, code.trim());
    if (outcome === "code_expired") return outcome;
    if (outcome !== "ok") {
      const problem = await fail(tx, psu);
      return problem === "psu_blocked" ? problem : "code_invalid";
    }
    await store.psus.resetFailures(tx, psu.id);
    return "ok";
  }

  return { checkPassword, identify, sendCode, verifyCode };
}

export type ScaFactors = ReturnType<typeof createScaFactors>;
