/**
 * The embedded SCA approach's use cases: the TPP sends the PSU's password, the chosen method and
 * the code as updates of an authorisation (PUT), and reads where it stands. Every update runs
 * on the one SCA session machine, so its failures count with the PSU's failures on the bank's
 * pages and its codes are bound to the amount and payee (RTS art. 5) as there.
 */
import { createConcurrencyLimit } from "../../lib/rate-limit.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import {
  formatError, notEmbedded, scaInvalid, scaMethodUnknown, tppPasswordChecksExceeded,
} from "../kernel/errors.js";
import { changeScaStatus } from "./transitions.js";
import { embeddedChannel, embeddedSecret, embeddedSessionId } from "./embedded-channel.js";
import { embeddedRefusal } from "./embedded-refusals.js";
import { methodOf, type ScaMethod } from "./factors.js";
import type { Authorisation, ScaDevice, ScaStatus } from "./model.js";
import type { StepResult } from "./problems.js";
import { createScaSessionMachine, openScaSession } from "./session.js";
import { afterDecision } from "./subjects.js";

/** One update, as Berlin Group's PUT bodies carry it; `login` is the request's PSU-ID. */
export type EmbeddedUpdate =
  | { kind: "identify"; login: string }
  | { kind: "password"; password: string; login: string | null }
  | { kind: "method"; methodId: string }
  | { kind: "code"; code: string };

export interface ChallengeData {
  otpMaxLength: number;
  otpFormat: "integer";
  additionalInformation: string;
}

/** Where an embedded authorisation stands, with what the TPP needs for the next step. */
export interface EmbeddedState {
  scaStatus: ScaStatus;
  scaMethods?: ScaMethod[];
  chosenScaMethod?: ScaMethod;
  challengeData?: ChallengeData;
}

/** What the TPP tells the PSU to enter, for a code the authorisation `a` asked for. */
function challenge(
  { subjects }: Pick<Deps, "subjects">, device: ScaDevice, a: Authorisation | undefined,
): ChallengeData {
  const names = subjects[a?.resourceType ?? "payment"].smsNames;
  // The device's label already says how the code travels ("SMS to +49151…02").
  const where = device.kind === "sms"
    ? `the code sent by ${device.label}; it names ${names}`
    : `the code the authenticator app ${device.label} shows now`;
  return { otpMaxLength: 6, otpFormat: "integer", additionalInformation: `Enter ${where}.` };
}

/** The authorisation's session, opened by the first password the TPP sends. */
async function openSession(
  deps: Pick<Deps, "store" | "clock">, tx: Tx, a: Authorisation,
): Promise<void> {
  if (await deps.store.scaSessions.find(tx, embeddedSessionId(a.id))) return;
  await openScaSession(deps, tx,
    { secret: embeddedSecret(a.id), authorisationId: a.id, lang: a.lang });
}

/**
 * The guidelines' update of the PSU's identification (PSU-ID, an empty body): the PSU is named
 * for the password to come; again with the same PSU-ID changes nothing.
 */
async function identify(
  { store, clock }: Pick<Deps, "store" | "clock">, a: Authorisation, login: string,
): Promise<void> {
  const named = await store.transaction(async (tx) => {
    if (a.namedPsu === login) return true;
    if (!(await store.sca.namePsu(tx, a.id, login))) return false;
    return changeScaStatus(store, tx, a.id, "identify", clock.now().toISOString());
  });
  if (!named) throw scaInvalid("This authorisation names its PSU already, or is past that step.");
}

/** Where an embedded authorisation stands now, with the methods or the challenge it needs. */
async function stateOf(
  deps: Deps, machine: Pick<ScaSessionMachine, "factorsOf">, authorisationId: string,
): Promise<EmbeddedState> {
  const { store } = deps;
  return store.transaction(async (tx) => {
    const a = await store.sca.findAuthorisation(tx, authorisationId);
    const session = await store.scaSessions.find(tx, embeddedSessionId(authorisationId));
    const scaStatus = a?.scaStatus ?? "failed";
    if (!session) return { scaStatus };
    const { devices, device } = await machine.factorsOf(tx, session);
    if (devices.length > 0) return { scaStatus, scaMethods: devices.map(methodOf) };
    if (scaStatus !== "scaMethodSelected" || !device) return { scaStatus };
    return { scaStatus, chosenScaMethod: methodOf(device),
      challengeData: challenge(deps, device, a) };
  });
}

type ScaSessionMachine = ReturnType<typeof createScaSessionMachine>;

export function createEmbeddedAuthorisations(deps: Deps) {
  const { store } = deps;
  const machine = createScaSessionMachine(deps, embeddedChannel(deps));
  // Hashing is the costliest step; the PSU pages' logins share the same hashing threads.
  const checks = createConcurrencyLimit(deps.settings.tppConcurrentPasswordChecks);

  async function logIn(a: Authorisation, login: string | null, password: string) {
    const psuLogin = login ?? a.namedPsu ?? null;
    if (psuLogin === null) {
      throw formatError("header", "PSU-ID", "PSU-ID names the PSU whose password this is.");
    }
    const checked = await checks.run(a.tppId, async () => {
      await store.transaction((tx) => openSession(deps, tx, a));
      return machine.login(embeddedSecret(a.id), psuLogin, password);
    });
    if (!checked) throw tppPasswordChecksExceeded();
    return checked.value;
  }

  /** The PSU's device whose authenticationMethodId (its id without dashes) the TPP sent. */
  async function chooseMethod(a: Authorisation, methodId: string): Promise<StepResult> {
    const session = await store.scaSessions.find(store.db, embeddedSessionId(a.id));
    const devices = session?.psuId ? await store.psus.devices(store.db, session.psuId) : [];
    const device = devices.find((d) => methodOf(d).authenticationMethodId === methodId);
    // Before the password there are no methods to choose from: a step out of order.
    if (!device && session?.step === "device") {
      throw scaMethodUnknown("authenticationMethodId names none of the PSU's scaMethods.");
    }
    return machine.chooseDevice(embeddedSecret(a.id), device?.id ?? "");
  }

  const state = (authorisationId: string) => stateOf(deps, machine, authorisationId);

  /**
   * Applies one update to an authorisation the caller found to be its TPP's; throws the Berlin
   * Group error of a refused one (nothing changes).
   */
  async function update(authorisationId: string, input: EmbeddedUpdate): Promise<EmbeddedState> {
    const a = await store.sca.findAuthorisation(store.db, authorisationId);
    if (!a || (a.approach ?? "redirect") !== "embedded") throw notEmbedded();
    if (input.kind === "identify") {
      await identify(deps, a, input.login);
      return state(a.id);
    }
    const result = input.kind === "password" ? await logIn(a, input.login, input.password)
      : input.kind === "method" ? await chooseMethod(a, input.methodId)
        : await machine.verifyCode(embeddedSecret(a.id), input.code);
    if (!result.ok) throw embeddedRefusal(result);
    if (input.kind === "code") await afterDecision(deps, a);
    return state(a.id);
  }

  /**
   * Applies the password an authorisation was started with; a refused one takes the
   * authorisation back (its failure still counts), so that a bad start leaves nothing open.
   */
  async function start(
    authorisationId: string, input: () => EmbeddedUpdate,
  ): Promise<EmbeddedState> {
    try {
      return await update(authorisationId, input());
    } catch (error) {
      await store.transaction((tx) => store.sca.discardAuthorisation(tx, authorisationId));
      throw error;
    }
  }

  return { update, state, start };
}

export type EmbeddedAuthorisations = ReturnType<typeof createEmbeddedAuthorisations>;
