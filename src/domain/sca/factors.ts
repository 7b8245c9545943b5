/**
 * The two factors of strong customer authentication, the same on every channel: password
 * (knowledge) then a code from the PSU's device (possession), with one count of failures across
 * both factors and every channel, and the block it causes.
 *
 * The password step answers an unknown login exactly as a known one: its failures are counted
 * and blocked alike (store: unknown logins), and whatever depends on the PSU's state (blocked by
 * the bank, no device) is said only after the right password.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { newUuid } from "../../lib/ids.js";
import { verifyTotp } from "../../lib/totp.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { Psu, ScaDevice } from "./model.js";
import type { LoginFailures } from "./ports.js";
import type { Refusal, ScaProblem } from "./problems.js";
import { usesFixedCode } from "./test-psus.js";

/** SMS codes one login session may receive, the first one included. */
export const CODE_SENDS_MAX = 5;

/** The code of the sandbox's test PSUs (usesFixedCode), in sandbox mode only. */
export const SANDBOX_FIXED_CODE = "123456";

/** A test PSU's fixed code: right in sandbox mode, refused everywhere else. */
const fixedCodeMatches = ({ settings }: Pick<Deps, "settings">, code: string) =>
  (settings.sandbox === true && code === SANDBOX_FIXED_CODE ? "ok" : "code_invalid");

export type Identified =
  | { ok: true; psu: Psu; devices: ScaDevice[] }
  | ({ ok: false } & Refusal);

/** The password check's outcome, taken outside any transaction. */
export interface CheckedPassword { login: string; psuId: string | undefined; ok: boolean }

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Berlin Group's authenticationObject; "APP_OTP" is ours (BG lets an ASPSP add types). */
export interface ScaMethod {
  authenticationType: "SMS_OTP" | "APP_OTP";
  authenticationMethodId: string;
  name: string;
}

/** A device as Berlin Group names an SCA method. */
export function methodOf(device: ScaDevice): ScaMethod {
  return {
    authenticationType: device.kind === "sms" ? "SMS_OTP" : "APP_OTP",
    // BG allows 35 characters: the device's UUID without its dashes.
    authenticationMethodId: device.id.replaceAll("-", ""), name: device.label,
  };
}

/** The device the PSU chose for an authorisation, once it has chosen (or had only one). */
export async function chosenScaMethod(
  deps: Pick<Deps, "store">, authorisationId: string,
): Promise<ScaMethod | undefined> {
  const { store } = deps;
  const deviceId = await store.sca.chosenMethod(store.db, authorisationId);
  const device = deviceId ? await store.psus.findDevice(store.db, deviceId) : undefined;
  return device && methodOf(device);
}

/** The PSU and the device a code goes to or comes from. */
type Target = { psu: Psu; device: ScaDevice };

/** What the rules of the factors read: the store, the time, the limits. */
type FactorDeps = Pick<Deps, "store" | "clock" | "settings">;

const nowIso = (deps: Pick<Deps, "clock">) => deps.clock.now().toISOString();
const locked = (deps: Pick<Deps, "clock">, f: LoginFailures) =>
  f.blockedUntil !== null && f.blockedUntil > nowIso(deps);

/**
 * Counts one more failure; the limit-th consecutive one blocks for a while. Short of that, the
 * PSU learns how many failures are left (an unknown login counts the same way, so this tells
 * nothing about whether it exists).
 */
async function fail(
  deps: Pick<Deps, "clock" | "settings">, failures: LoginFailures,
  record: (blockedUntil: string | null) => Promise<void>,
): Promise<Refusal> {
  const { clock, settings } = deps;
  const attemptsLeft = settings.loginFailuresMax - (failures.failedAttempts + 1);
  const blockedUntil = attemptsLeft <= 0
    ? new Date(clock.now().getTime() + settings.loginBlockSeconds * 1000).toISOString() : null;
  await record(blockedUntil);
  return blockedUntil
    ? { problem: "psu_blocked" } : { problem: "credentials_invalid", attemptsLeft };
}

/**
 * A failed factor of another kind (the bank app's PIN), counted with the PSU's failures on
 * every channel; or why the PSU may not try at all. Undefined: the PSU may go on.
 */
async function refusedPsu(
  deps: FactorDeps, tx: Tx, psu: Psu, failed: boolean,
): Promise<Refusal | undefined> {
  if (psu.status === "blocked") return { problem: "psu_blocked_by_bank" };
  if (locked(deps, psu)) return { problem: "psu_blocked" };
  if (!failed) return undefined;
  return fail(deps, psu, (until) => deps.store.psus.recordFailure(tx, psu.id, until));
}

/** The password check, outside any transaction: hashing is slow and must not hold a lock. */
async function checkPassword(
  deps: Pick<Deps, "store" | "passwords">, login: string, password: string,
): Promise<CheckedPassword> {
  const psu = await deps.store.psus.findByLogin(deps.store.db, login);
  // Hash before any decision (a dummy for an unknown login): timing tells no login apart.
  const ok = await deps.passwords.verify(psu?.passwordHash ?? null, password);
  return { login, psuId: psu?.id, ok };
}

/** An unknown login fails as a known one with a wrong password would, block included. */
async function unknownLogin(deps: FactorDeps, tx: Tx, login: string): Promise<Identified> {
  const { unknownLogins } = deps.store;
  const key = sha256(`login|${login}`);
  const failures = (await unknownLogins.failures(tx, key))
    ?? { failedAttempts: 0, blockedUntil: null };
  if (locked(deps, failures)) return { ok: false, problem: "psu_blocked" };
  const record = (until: string | null) => unknownLogins.recordFailure(tx, key, until);
  return { ok: false, ...(await fail(deps, failures, record)) };
}

/** First factor, inside the step's transaction: the PSU and its devices, or why not. */
async function identify(deps: FactorDeps, tx: Tx, checked: CheckedPassword): Promise<Identified> {
  const { psus } = deps.store;
  const psu = checked.psuId ? await psus.find(tx, checked.psuId) : undefined;
  if (!psu) return unknownLogin(deps, tx, checked.login);
  if (locked(deps, psu)) return { ok: false, problem: "psu_blocked" };
  if (!checked.ok) {
    const record = (until: string | null) => psus.recordFailure(tx, psu.id, until);
    return { ok: false, ...(await fail(deps, psu, record)) };
  }
  // Said only after the right password, so it tells nothing to someone guessing.
  if (psu.status === "blocked") return { ok: false, problem: "psu_blocked_by_bank" };
  const devices = await psus.devices(tx, psu.id);
  if (devices.length === 0) return { ok: false, problem: "no_device" };
  return { ok: true, psu, devices };
}

/** A fresh SMS code bound to `binding` (the old one stops working), within the limit. */
async function sendCode(
  deps: FactorDeps, tx: Tx, sessionId: string, target: Target,
  binding: string, text: (code: string) => string | Promise<string>,
): Promise<"ok" | ScaProblem> {
  const { store, clock, settings } = deps;
  const previous = await store.sca.findChallenge(tx, sessionId);
  if ((previous?.sends ?? 0) >= CODE_SENDS_MAX) return "resend_limit";
  const fixed = usesFixedCode(target.psu) && deps.settings.sandbox === true;
  const code = fixed ? SANDBOX_FIXED_CODE : String(randomInt(0, 1_000_000)).padStart(6, "0");
  const ttlMs = settings.smsCodeTtlSeconds * 1000;
  const expiresAt = new Date(clock.now().getTime() + ttlMs).toISOString();
  await store.sca.putChallenge(tx, sessionId, {
    codeHash: sha256(`${binding}:${code}`), binding, expiresAt, usedAt: null,
  });
  const { psu, device } = target;
  await store.sca.sendSms(tx, {
    id: newUuid(), psuId: psu.id, phone: device.phone ?? "", text: await text(code),
    at: nowIso(deps),
  });
  return "ok";
}

async function codeMatches(
  deps: Pick<Deps, "store" | "clock">, tx: Tx, sessionId: string, binding: string,
  device: ScaDevice, code: string,
): Promise<"ok" | ScaProblem> {
  const { store, clock } = deps;
  if (device.kind === "totp") {
    const step = verifyTotp(device.secret ?? "", code, clock.now().getTime());
    if (step === null) return "code_invalid";
    // A right code already spent in its window is the PSU's slip, not a guess: not counted.
    return (await store.psus.useTotpStep(tx, device.id, step)) ? "ok" : "code_reused";
  }
  const challenge = await store.sca.findChallenge(tx, sessionId);
  if (!challenge || challenge.usedAt !== null) return "code_invalid";
  if (challenge.expiresAt < nowIso(deps)) return "code_expired";
  if (!sameText(challenge.binding, binding)) return "code_invalid";
  if (!sameText(challenge.codeHash, sha256(`${binding}:${code}`))) return "code_invalid";
  return (await store.sca.useChallenge(tx, sessionId, nowIso(deps))) ? "ok" : "code_invalid";
}

/**
 * Second factor: "ok" resets the PSU's failures; a wrong code counts as a failure, an expired or
 * already used one does not (it proves the device, only too late or twice).
 */
async function verifyCode(
  deps: FactorDeps, tx: Tx, sessionId: string, binding: string, target: Target, code: string,
): Promise<"ok" | Refusal> {
  const { psus } = deps.store;
  const { psu, device } = target;
  if (psu.status === "blocked") return { problem: "psu_blocked_by_bank" };
  if (locked(deps, psu)) return { problem: "psu_blocked" };
  const outcome = usesFixedCode(psu) ? fixedCodeMatches(deps, code.trim())
    : await codeMatches(deps, tx, sessionId, binding, device, code.trim());
  if (outcome === "code_expired" || outcome === "code_reused") return { problem: outcome };
  if (outcome !== "ok") {
    const record = (until: string | null) => psus.recordFailure(tx, psu.id, until);
    const failed = await fail(deps, psu, record);
    return failed.problem === "psu_blocked" ? failed : { ...failed, problem: "code_invalid" };
  }
  await scaPassed(deps, tx, psu.id);
  return "ok";
}

/**
 * The PSU passed SCA (on any channel): its failures start over, and so does what it paid
 * without a second factor since its last SCA (RTS art. 16's counters).
 */
async function scaPassed({ store }: Pick<Deps, "store">, tx: Tx, psuId: string): Promise<void> {
  await store.psus.resetFailures(tx, psuId);
  await store.exemptions.resetSpent(tx, psuId);
}

export function createScaFactors(deps: FactorDeps & Pick<Deps, "passwords">) {
  return {
    checkPassword: (login: string, password: string) => checkPassword(deps, login, password),
    identify: (tx: Tx, checked: CheckedPassword) => identify(deps, tx, checked),
    sendCode: (tx: Tx, sessionId: string, target: Target, binding: string,
      text: (code: string) => string | Promise<string>) =>
      sendCode(deps, tx, sessionId, target, binding, text),
    verifyCode: (tx: Tx, sessionId: string, binding: string, target: Target, code: string) =>
      verifyCode(deps, tx, sessionId, binding, target, code),
    boundFactor: (tx: Tx, psu: Psu, failed: boolean) => refusedPsu(deps, tx, psu, failed),
    passed: (tx: Tx, psuId: string) => scaPassed(deps, tx, psuId),
  };
}

export type ScaFactors = ReturnType<typeof createScaFactors>;
