/**
 * The decoupled SCA approach: the TPP names the PSU (PSU-ID) and polls the authorisation; the PSU
 * decides in the bank's app on its phone. The app is bound to the PSU once, after both factors
 * (the dashboard's login), with an app PIN: approving with the PIN on the bound device is the
 * SCA (possession of the device, knowledge of the PIN), and a wrong PIN counts with the PSU's
 * failures on every channel. A request the PSU leaves unanswered for DECOUPLED_TIMEOUT_SECONDS
 * fails, and its payment or consent is refused.
 */
import { hashSecret, newSecret, newUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { formatError, scaInvalid } from "../kernel/errors.js";
import {
  decoupledChannel, isOpen, lateBefore, timeOut, timeoutMs, type AppContext,
} from "./decoupled-channel.js";
import { contextOf } from "./redirect-channel.js";
import type { Authorisation, Psu, ScaStatus } from "./model.js";
import type { PsuApp } from "./ports.js";
import { refused } from "./problems.js";
import { refuseWithoutReview } from "./psu-decision.js";
import { createBoundScaMachine, type BoundAnswer, type BoundOutcome } from "./session.js";
import type { Review, SubjectView } from "./subject.js";
import { afterDecision, loadSubject, sweepSubjects } from "./subjects.js";

/** A request as the app shows it: what the PSU approves, and for whom. */
export interface DecoupledRequest {
  authorisationId: string;
  createdAt: string;
  /** Until it fails unanswered (DECOUPLED_TIMEOUT_SECONDS after its creation). */
  secondsLeft: number;
  tppName: string;
  resourceId: string;
  resource: SubjectView;
  /** What a review shows (the debtor account, the payees' name check); null on the app's poll. */
  review: Review | null;
}

/** What became of a request the PSU answered in the app, as the app says it afterwards. */
export interface AppOutcome { resource: SubjectView; scaStatus: ScaStatus; tppName: string }

/** The app's answer to an approval or rejection. */
export type AppDecision = BoundOutcome;

type AppMachine = ReturnType<typeof createBoundScaMachine<AppContext>>;

const nowIso = (deps: Pick<Deps, "clock">) => deps.clock.now().toISOString();

/** The sweep behind the app's own checks: every request past its time, a batch at a time. */
async function expireLate(deps: Deps): Promise<number> {
  return deps.store.transaction(async (tx) => {
    const late = await deps.store.sca.lateDecoupled(tx, lateBefore(deps), 100);
    for (const a of late) await timeOut(deps, tx, a);
    return late.length;
  });
}

/** The sandbox's test PSU whose app rejects every request (Psu.sandbox "app_rejects"). */
async function playRejectingApps(deps: Deps): Promise<void> {
  if (deps.settings.sandbox !== true) return;
  await deps.store.transaction(async (tx) => {
    for (const a of await deps.store.sca.pendingDecoupledOfSandbox(tx, "app_rejects")) {
      const subject = await loadSubject(deps, tx, a);
      if (!subject?.awaiting) continue;
      await refuseWithoutReview(deps, tx, { session: { psuId: null }, authorisation: a,
        subject }, false);
    }
  });
}

/**
 * The PSU's requests still open, oldest first; each seen now is psuIdentified. `reviewed`: each
 * with its review, for the app's page (its poll every second needs only the ids).
 */
async function pendingOf(
  deps: Deps, machine: AppMachine, tx: Tx, psu: Psu, reviewed = false,
): Promise<DecoupledRequest[]> {
  const requests: DecoupledRequest[] = [];
  for (const a of await deps.store.sca.pendingDecoupled(tx, psu.login)) {
    const c = await machine.shown(tx, a.id, psu);
    if (!c) continue;
    const createdAt = a.createdAt ?? "";
    requests.push({ authorisationId: a.id, createdAt, tppName: c.tppName,
      secondsLeft: Math.floor(
        (Date.parse(createdAt) + timeoutMs(deps) - deps.clock.now().getTime()) / 1000),
      resourceId: a.resourceId, resource: c.resource,
      review: reviewed ? await c.subject.review(tx, psu.id) : null });
  }
  return requests;
}

/**
 * What became of a request this app's PSU answered: its subject and status now, so the app says
 * made, scheduled or refused rather than only that the TPP learns it. Undefined for another's.
 */
async function outcomeOf(
  deps: Deps, secret: string | undefined, authorisationId: string,
): Promise<AppOutcome | undefined> {
  const { store } = deps;
  if (!secret) return undefined;
  return store.transaction(async (tx) => {
    const app = await store.psuApps.findBySecret(tx, hashSecret(secret));
    const psu = app && (await store.psus.find(tx, app.psuId));
    const a = psu && (await store.sca.findAuthorisation(tx, authorisationId));
    if (!a || a.approach !== "decoupled" || a.namedPsu !== psu?.login) return undefined;
    const c = await contextOf(deps, tx, a);
    return c && { resource: c.resource, scaStatus: a.scaStatus, tppName: c.tppName };
  });
}

/** Binds a new app to a PSU who passed both factors; its secret goes into the app's cookie. */
async function activate(
  deps: Pick<Deps, "store" | "clock" | "passwords">, psuId: string, pin: string,
): Promise<string> {
  const secret = newSecret();
  const at = nowIso(deps);
  const app: PsuApp = {
    id: newUuid(), psuId, pinHash: await deps.passwords.hash(pin), csrf: newSecret(),
    createdAt: at, lastUsedAt: at,
  };
  await deps.store.psuApps.insert(deps.store.db, app, hashSecret(secret));
  return secret;
}

/**
 * The app a cookie binds, with its PSU and open requests; undefined once revoked. `seen` marks
 * the app as used now: its page, not the poll it makes every second.
 */
async function appView(
  deps: Deps, machine: AppMachine, secret: string | undefined, seen: boolean,
) {
  const { store } = deps;
  if (!secret) return undefined;
  return store.transaction(async (tx) => {
    const app = await store.psuApps.findBySecret(tx, hashSecret(secret));
    const psu = app && (await store.psus.find(tx, app.psuId));
    if (!app || !psu) return undefined;
    if (seen) await store.psuApps.touch(tx, app.id, nowIso(deps));
    return { app, psu, requests: await pendingOf(deps, machine, tx, psu, seen) };
  });
}

/** The PSU's answer on one request, then what follows its decision (a basket's items). */
async function decide(
  deps: Deps, machine: AppMachine, psu: Psu, authorisationId: string, answer: BoundAnswer,
): Promise<AppDecision> {
  const outcome = await machine.answer(psu.id, authorisationId, answer);
  const decided = await deps.store.sca.findAuthorisation(deps.store.db, authorisationId);
  if (outcome.ok && decided) await afterDecision(deps, decided);
  return outcome;
}

/** From the app: the PIN is checked before any transaction (hashing is slow). */
async function answer(deps: Deps, machine: AppMachine, secret: string | undefined,
  authorisationId: string, approve: boolean, pin = ""): Promise<AppDecision> {
  const { store } = deps;
  const app = secret ? await store.psuApps.findBySecret(store.db, hashSecret(secret)) : undefined;
  const psu = app && (await store.psus.find(store.db, app.psuId));
  if (!app || !psu) return refused("session_expired");
  const said: BoundAnswer = approve
    ? { approve, factorPassed: await deps.passwords.verify(app.pinHash, pin) } : { approve };
  return decide(deps, machine, psu, authorisationId, said);
}

/**
 * The sandbox's stand-in for the PSU's thumb: acts on the PSU's oldest open request as its app
 * would (approval without a PIN: the sandbox has no phone). Undefined when none is open.
 */
async function sandboxAnswer(deps: Deps, machine: AppMachine, login: string, approve: boolean) {
  const { store } = deps;
  const psu = await store.psus.findByLogin(store.db, login);
  if (!psu) return undefined;
  const [oldest] = await store.transaction((tx) => pendingOf(deps, machine, tx, psu));
  if (!oldest) return undefined;
  const said: BoundAnswer = approve ? { approve, factorPassed: true } : { approve };
  const outcome = await decide(deps, machine, psu, oldest.authorisationId, said);
  const after = await store.sca.findAuthorisation(store.db, oldest.authorisationId);
  return { oldest, outcome, scaStatus: after?.scaStatus ?? "failed" };
}

/**
 * The TPP names the PSU of a decoupled authorisation created without PSU-ID (the guidelines'
 * updatePsuIdentification); the request then waits in that PSU's app. Throws FORMAT_ERROR
 * without PSU-ID, STATUS_INVALID once the authorisation named one or is over.
 */
async function identify(deps: Pick<Deps, "store">, a: Authorisation, login: string | null) {
  if (!login) {
    throw formatError("header", "PSU-ID", "PSU-ID names the PSU who confirms in the app.");
  }
  const named = await deps.store.transaction(async (tx) =>
    isOpen(a) && (await deps.store.sca.namePsu(tx, a.id, login)));
  if (!named) throw scaInvalid("This authorisation names its PSU already, or is over.");
  return { scaStatus: a.scaStatus, psuMessage: DECOUPLED_PSU_MESSAGE };
}

/** What the TPP relays to the PSU while the request waits in the app. */
export const DECOUPLED_PSU_MESSAGE = "Please confirm the request in your bank's app.";

export function createDecoupled(deps: Deps) {
  const machine: AppMachine = createBoundScaMachine(deps, decoupledChannel(deps));
  return {
    identify: (a: Authorisation, login: string | null) => identify(deps, a, login),
    activate: (psuId: string, pin: string) => activate(deps, psuId, pin),
    appView: (secret: string | undefined, seen = true) => appView(deps, machine, secret, seen),
    outcome: (secret: string | undefined, authorisationId: string) =>
      outcomeOf(deps, secret, authorisationId),
    answer: (secret: string | undefined, authorisationId: string, approve: boolean, pin = "") =>
      answer(deps, machine, secret, authorisationId, approve, pin),
    sandboxAnswer: (login: string, approve: boolean) =>
      sandboxAnswer(deps, machine, login, approve),
    /** Fails the requests past their time; in the sandbox, plays the rejecting test app. */
    sweep: async () => {
      await expireLate(deps);
      await playRejectingApps(deps);
      // A basket refused by a timeout or the rejecting app refuses its items.
      await sweepSubjects(deps);
    },
  };
}

export type Decoupled = ReturnType<typeof createDecoupled>;
