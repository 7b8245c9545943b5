/**
 * The dashboard channel of the SCA session machine: the PSU logs in to its own dashboard with the
 * same two factors and rules as in an authorisation. Its session is for nothing but the PSU
 * itself, so it never closes before the PSU logs out or leaves it idle.
 */
import { hashSecret, newSecret } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { sha256 } from "./factors.js";
import type { Psu, PsuSession, ScaDevice } from "./model.js";
import type { StepResult } from "./problems.js";
import {
  createScaSessionMachine, freshSession, idleBefore, type ScaChannel,
} from "./session.js";

export interface DashboardView {
  session: PsuSession;
  psu: Psu | null;
  device: ScaDevice | null;
  /** The PSU's devices while it chooses one, otherwise empty. */
  devices: ScaDevice[];
}

const noRecord = async () => undefined;

function dashboardChannel(deps: Deps): ScaChannel<"dashboard", { session: PsuSession }> {
  return {
    sessions: deps.store.psuSessions,
    authenticated: "dashboard",
    context: async (_tx, session) => ({ session }),
    stillOpen: () => true,
    // A code for the dashboard opens only the dashboard: it can never authorise a payment.
    binding: (_c, psu) => sha256(`dashboard|${psu.id}`),
    smsText: (c, code) => deps.smsTexts.text(c.session.lang, { kind: "dashboard" }, code),
    onIdentified: noRecord,
    onDeviceChosen: noRecord,
    onAuthenticated: noRecord,
  };
}

export function createDashboardLogin(deps: Deps) {
  const { store } = deps;
  const machine = createScaSessionMachine(deps, dashboardChannel(deps));

  /** A fresh session at the login step: the secret goes into the cookie, its hash is the id. */
  async function start(lang: string): Promise<string> {
    const secret = newSecret();
    const session = freshSession(deps, secret, lang);
    await store.psuSessions.insert(store.db, session, session.lastSeenAt, idleBefore(deps));
    return secret;
  }

  async function view(secret: string | undefined, lang?: string) {
    return store.transaction(async (tx): Promise<DashboardView | undefined> => {
      const c = await machine.live(tx, secret, lang);
      if (typeof c === "string") return undefined;
      return { session: c.session, ...(await machine.factorsOf(tx, c.session)) };
    });
  }

  /** Runs `work` for the PSU of a session that passed both factors, or answers why not. */
  function asPsu(secret: string | undefined,
    work: (tx: Tx, psuId: string, session: PsuSession) => Promise<StepResult>) {
    return machine.atStep(secret, "dashboard",
      (tx, c) => work(tx, c.session.psuId ?? "", c.session));
  }

  async function logout(secret: string | undefined): Promise<void> {
    if (secret) await store.psuSessions.remove(store.db, hashSecret(secret));
  }

  const { login, chooseDevice, resendCode, verifyCode } = machine;
  return { start, view, login, chooseDevice, resendCode, verifyCode, asPsu, logout };
}
