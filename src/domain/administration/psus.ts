/**
 * The bank operator's PSU administration: enrolment, blocking, password resets and SCA devices.
 * Used by the CLI, never by TPPs: refusals are OperatorError, shown to the operator as
 * "field: text".
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.js";
import { newUuid } from "../../lib/ids.js";
import { base32Encode } from "../../lib/totp.js";
import type { StorePort as Store } from "../deps.js";
import type { Psu, ScaDevice } from "../sca/model.js";
import { OperatorError } from "../kernel/errors.js";

export interface PsuAdministrationDeps {
  store: Store;
  clock: Clock;
  hashPassword(password: string): Promise<string>;
  bankName: string;
  /** The demo bank's logins, whose passwords and TOTP secrets are published. */
  demoLogins: readonly string[];
}

export interface PsuSummary { login: string; name: string; status: Psu["status"];
  blockedUntil: string | null; failedAttempts: number; devices: string[] }

export interface EnrolledDevice { device: ScaDevice; provisioningUri: string | null }

const LOGIN = /^[a-z0-9][a-z0-9._-]{2,31}$/;
const PHONE = /^\+[1-9]\d{6,14}$/;
/** NIST SP 800-63B: at least 8 characters for a memorised secret chosen by a person. */
const PASSWORD_MIN = 8;

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN) {
    throw new OperatorError(`A password needs at least ${PASSWORD_MIN} characters.`, "password");
  }
}

/** A password for the operator to hand over, when none is given: 96 random bits. */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

type DeviceRequest = { kind: "totp" } | { kind: "sms"; phone: string };

/**
 * A TOTP device gets a fresh 160-bit secret (RFC 4226's recommendation), shown once as an
 * otpauth URI.
 */
function newDevice(psu: Psu, device: DeviceRequest, bankName: string): EnrolledDevice {
  const base = { id: newUuid(), psuId: psu.id, lastTotpStep: null };
  if (device.kind === "totp") {
    const secret = base32Encode(randomBytes(20));
    const label = encodeURIComponent(`${bankName}:${psu.login}`);
    return {
      device: { ...base, kind: "totp", label: "Authenticator app", secret, phone: null },
      provisioningUri: `otpauth://totp/${label}?secret=${secret}`
        + `&issuer=${encodeURIComponent(bankName)}&algorithm=SHA1&digits=6&period=30`,
    };
  }
  if (!PHONE.test(device.phone)) {
    throw new OperatorError("A phone number is in E.164 form, e.g. +4915100000002.", "phone");
  }
  const masked = `${device.phone.slice(0, 6)}…${device.phone.slice(-2)}`;
  return {
    device: { ...base, kind: "sms", label: `SMS to ${masked}`, secret: null, phone: device.phone },
    provisioningUri: null,
  };
}

function checkNewPsu(input: { login: string; name: string; password: string }): void {
  if (!LOGIN.test(input.login)) {
    throw new OperatorError(
      "A login is 3 to 32 characters: lower-case letters, digits, '.', '_', '-'.", "login");
  }
  if (input.name.trim() === "" || input.name.length > 70) {
    throw new OperatorError("A name is 1 to 70 characters.", "name");
  }
  checkPassword(input.password);
}

/** Logins of demo, sandbox and scale-test PSUs in the store: anyone may log in as them. */
export async function demoPsuLogins(
  store: Store, demoLogins: readonly string[],
): Promise<string[]> {
  return (await store.psus.findDemo(store.db, demoLogins)).map((p) => p.login);
}

/** What production refuses to start with, and how the operator gets rid of it, on one line. */
export function demoPsusRefusal(logins: readonly string[]): OperatorError {
  const named = logins.length > 3 ? `${logins.slice(0, 3).join(", ")}, ...` : logins.join(", ");
  return new OperatorError(`the database holds ${logins.length} demo or sandbox PSUs (${named}) `
    + "whose passwords are published; production mode refuses to start until "
    + "\"psd2-bank psu remove-demo\" removes them");
}

/** Retires every demo, sandbox and scale-test PSU; returns the logins they had. */
async function retireDemoPsus(
  store: Store, clock: Clock, demoLogins: readonly string[],
): Promise<string[]> {
  const found = await store.psus.findDemo(store.db, demoLogins);
  const at = clock.now().toISOString();
  await store.transaction(async (tx) => {
    for (const psu of found) await store.psus.retire(tx, psu.id, at);
  });
  return found.map((p) => p.login);
}

export function createPsuAdministration(
  { store, clock, hashPassword, bankName, demoLogins }: PsuAdministrationDeps,
) {
  async function byLogin(login: string): Promise<Psu> {
    const psu = await store.psus.findByLogin(store.db, login);
    if (!psu) throw new OperatorError(`No PSU with the login "${login}".`, "login");
    return psu;
  }

  return {
    async list(): Promise<PsuSummary[]> {
      const psus = await store.psus.list(store.db);
      return Promise.all(psus.map(async (p) => ({
        login: p.login, name: p.name, status: p.status, blockedUntil: p.blockedUntil,
        failedAttempts: p.failedAttempts,
        devices: (await store.psus.devices(store.db, p.id)).map((d) => d.label),
      })));
    },

    async add(input: { login: string; name: string; password: string }): Promise<Psu> {
      checkNewPsu(input);
      if (await store.psus.findByLogin(store.db, input.login)) {
        throw new OperatorError(`The login "${input.login}" is taken.`, "login");
      }
      const psu: Psu = {
        id: newUuid(), login: input.login, name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
        status: "enabled", failedAttempts: 0, blockedUntil: null,
      };
      await store.psus.insert(store.db, psu, clock.now().toISOString());
      return psu;
    },

    /**
     * A blocked PSU cannot authenticate until unblocked; unblocking also ends a temporary
     * lockout.
     */
    async setBlocked(login: string, blocked: boolean): Promise<void> {
      const psu = await byLogin(login);
      await store.transaction(async (tx) => {
        await store.psus.setStatus(tx, psu.id, blocked ? "blocked" : "enabled");
        if (!blocked) await store.psus.resetFailures(tx, psu.id);
      });
    },

    async resetPassword(login: string, password: string): Promise<void> {
      checkPassword(password);
      const psu = await byLogin(login);
      const hash = await hashPassword(password);
      await store.transaction(async (tx) => {
        await store.psus.setPasswordHash(tx, psu.id, hash);
        await store.psus.resetFailures(tx, psu.id);
      });
    },

    removeDemo: () => retireDemoPsus(store, clock, demoLogins),

    async enrolDevice(login: string, device: DeviceRequest): Promise<EnrolledDevice> {
      const enrolled = newDevice(await byLogin(login), device, bankName);
      await store.psus.insertDevice(store.db, enrolled.device);
      return enrolled;
    },
  };
}

export type PsuAdministration = ReturnType<typeof createPsuAdministration>;
