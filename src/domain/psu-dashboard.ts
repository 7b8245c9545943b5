/**
 * The PSU's own dashboard: after the same two factors as an authorisation (sca-factors.ts), the
 * PSU sees every consent it gave and every payment initiated through a TPP, and can revoke a
 * consent. A PSU only ever sees and revokes its own: every query is by the session's PSU.
 */
import { dateInZone } from "../lib/clock.js";
import { hashSecret, newSecret } from "../lib/ids.js";
import type { Tx } from "../store/db.js";
import type { DashboardStep, Psu, PsuSession, ScaDevice } from "./sca/model.js";
import { detailsOf, type ConsentDetails } from "./consents.js";
import type { Deps } from "./deps.js";
import type { Payment } from "./payments-model.js";
import { createScaFactors, sha256, type ScaProblem } from "./sca/factors.js";

/** How many of each the dashboard lists, newest first. */
const LISTED = 200;

export interface DashboardView {
  session: PsuSession;
  psu: Psu | null;
  device: ScaDevice | null;
  /** The PSU's devices while it chooses one, otherwise empty. */
  devices: ScaDevice[];
}

export interface Overview {
  /** givenOn: the day the PSU authorised it, in the bank's time zone. */
  consents: (ConsentDetails & { tppName: string; givenOn: string | null })[];
  /** date: the day the TPP initiated it, in the bank's time zone. */
  payments: (Payment & { tppName: string; date: string })[];
}

export type DashboardResult = { ok: true; secret: string } | { ok: false; problem: ScaProblem };

export function createPsuDashboard(deps: Deps) {
  const { store, clock, settings } = deps;
  const factors = createScaFactors(deps);
  const nowIso = () => clock.now().toISOString();
  const idleMs = () => settings.scaSessionIdleSeconds * 1000;
  // A code for the dashboard opens only the dashboard: it can never authorise a payment.
  const bindingOf = (psu: Psu) => sha256(`dashboard|${psu.id}`);
  const smsText = (code: string) =>
    `${settings.bankName}: your code ${code} opens your consent overview. Never share it.`;

  /** A fresh session at the login step; the secret goes into the cookie, its hash into the table. */
  async function start(lang: string): Promise<string> {
    const secret = newSecret();
    const staleBefore = new Date(clock.now().getTime() - idleMs()).toISOString();
    await store.psuSessions.insert(store.db, {
      id: hashSecret(secret), step: "login", psuId: null, deviceId: null, csrf: newSecret(), lang,
      lastSeenAt: nowIso(),
    }, nowIso(), staleBefore);
    return secret;
  }

  /** The live session behind a cookie; one idle for too long is ended. */
  async function session(tx: Tx, secret: string | undefined, lang?: string): Promise<PsuSession | undefined> {
    const found = secret ? await store.psuSessions.find(tx, hashSecret(secret)) : undefined;
    if (!found) return undefined;
    if (clock.now().getTime() - Date.parse(found.lastSeenAt) > idleMs()) {
      await store.psuSessions.remove(tx, found.id);
      return undefined;
    }
    await store.psuSessions.touch(tx, found.id, nowIso(), lang ?? found.lang);
    return { ...found, lang: lang ?? found.lang };
  }

  async function view(secret: string | undefined, lang?: string): Promise<DashboardView | undefined> {
    return store.transaction(async (tx) => {
      const s = await session(tx, secret, lang);
      if (!s) return undefined;
      const psu = s.psuId ? (await store.psus.find(tx, s.psuId)) ?? null : null;
      const device = s.deviceId ? (await store.psus.findDevice(tx, s.deviceId)) ?? null : null;
      const devices = s.step === "device" && psu ? await store.psus.devices(tx, psu.id) : [];
      return { session: s, psu, device, devices };
    });
  }

  /** Runs `work` on the session at `step`, or answers why not. */
  async function atStep(
    secret: string | undefined, step: DashboardStep,
    work: (tx: Tx, s: PsuSession) => Promise<DashboardResult>,
  ): Promise<DashboardResult> {
    return store.transaction(async (tx) => {
      const s = await session(tx, secret);
      if (!s) return { ok: false, problem: "session_expired" };
      if (s.step !== step) return { ok: false, problem: "wrong_step" };
      return work(tx, s);
    });
  }

  async function rotate(tx: Tx, s: PsuSession): Promise<string> {
    const secret = newSecret();
    await store.psuSessions.rename(tx, s.id, hashSecret(secret), newSecret());
    return secret;
  }

  async function login(secret: string | undefined, loginName: string, password: string): Promise<DashboardResult> {
    const checked = await factors.checkPassword(loginName, password);
    return atStep(secret, "login", async (tx, s) => {
      const found = await factors.identify(tx, checked);
      if (!found.ok) return found;
      const device = found.devices.length === 1 ? found.devices[0] : undefined;
      if (!(await store.psuSessions.advance(tx, s.id, "login", {
        step: device ? "code" : "device", psuId: found.psu.id, deviceId: device?.id,
      }))) return { ok: false, problem: "wrong_step" };
      const next = await rotate(tx, s);
      if (device?.kind === "sms") await factors.sendCode(tx, hashSecret(next), found.psu, device, bindingOf(found.psu), smsText);
      return { ok: true, secret: next };
    });
  }

  async function chooseDevice(secret: string | undefined, deviceId: string): Promise<DashboardResult> {
    return atStep(secret, "device", async (tx, s) => {
      const psu = s.psuId ? await store.psus.find(tx, s.psuId) : undefined;
      const device = psu && (await store.psus.devices(tx, psu.id)).find((d) => d.id === deviceId);
      if (!psu || !device || !(await store.psuSessions.advance(tx, s.id, "device", { step: "code", deviceId: device.id }))) {
        return { ok: false, problem: "wrong_step" };
      }
      if (device.kind === "sms") await factors.sendCode(tx, s.id, psu, device, bindingOf(psu), smsText);
      return { ok: true, secret: secret ?? "" };
    });
  }

  async function psuAndDevice(tx: Tx, s: PsuSession) {
    const psu = s.psuId ? await store.psus.find(tx, s.psuId) : undefined;
    const device = s.deviceId ? await store.psus.findDevice(tx, s.deviceId) : undefined;
    return psu && device ? { psu, device } : undefined;
  }

  async function resendCode(secret: string | undefined): Promise<DashboardResult> {
    return atStep(secret, "code", async (tx, s) => {
      const found = await psuAndDevice(tx, s);
      if (found?.device.kind !== "sms") return { ok: false, problem: "wrong_step" };
      await factors.sendCode(tx, s.id, found.psu, found.device, bindingOf(found.psu), smsText);
      return { ok: true, secret: secret ?? "" };
    });
  }

  async function verifyCode(secret: string | undefined, code: string): Promise<DashboardResult> {
    return atStep(secret, "code", async (tx, s) => {
      const found = await psuAndDevice(tx, s);
      if (!found) return { ok: false, problem: "wrong_step" };
      const outcome = await factors.verifyCode(tx, s.id, bindingOf(found.psu), found.psu, found.device, code);
      if (outcome !== "ok") return { ok: false, problem: outcome };
      if (!(await store.psuSessions.advance(tx, s.id, "code", { step: "dashboard" }))) {
        return { ok: false, problem: "wrong_step" };
      }
      return { ok: true, secret: await rotate(tx, s) };
    });
  }

  /** Everything the PSU gave or started through TPPs; never another PSU's. */
  async function overview(psuId: string): Promise<Overview> {
    const tppName = async (tx: Tx, tppId: string) => (await store.tpps.name(tx, tppId)) ?? tppId;
    const day = (iso: string) => dateInZone(new Date(iso), settings.timeZone);
    return store.transaction(async (tx) => {
      const consents = await store.consents.search(tx, { psuId, limit: LISTED });
      const own = (await deps.core.listAccountsOfPsu(tx, psuId)).map((a) => a.iban);
      const payments = await store.payments.ofPsu(tx, psuId, own, LISTED);
      return {
        consents: await Promise.all(consents.map(async (c) => ({
          ...(await detailsOf(deps, tx, c)), tppName: await tppName(tx, c.tppId),
          givenOn: c.authorisedAt && day(c.authorisedAt) }))),
        payments: await Promise.all(payments.map(async (p) => ({
          ...p, tppName: await tppName(tx, p.tppId), date: day(p.createdAt) }))),
      };
    });
  }

  /**
   * valid → revokedByPsu for one of the PSU's own consents; the TPP's next call with it fails.
   * Another PSU's consent, an unknown id and an ended consent are refused alike.
   */
  async function revoke(secret: string | undefined, consentId: string): Promise<boolean> {
    const result = await atStep(secret, "dashboard", async (tx, s) => {
      const consent = await store.consents.find(tx, consentId);
      const revoked = consent !== undefined && consent.psuId === s.psuId
        && (await store.consents.transition(tx, consent.id, ["valid"], "revokedByPsu", { at: nowIso() }));
      return revoked ? { ok: true, secret: secret ?? "" } : { ok: false, problem: "wrong_step" };
    });
    return result.ok;
  }

  async function logout(secret: string | undefined): Promise<void> {
    if (secret) await store.psuSessions.remove(store.db, hashSecret(secret));
  }

  return { start, view, login, chooseDevice, resendCode, verifyCode, overview, revoke, logout };
}

export type PsuDashboard = ReturnType<typeof createPsuDashboard>;
