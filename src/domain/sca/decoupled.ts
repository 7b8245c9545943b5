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
import { refusedPsu, scaPassed } from "./factors.js";
import type { Authorisation, Psu } from "./model.js";
import type { PsuApp } from "./ports.js";
import { refused, type Refusal } from "./problems.js";
import { refuseWithoutReview } from "./psu-decision.js";
import type { ScaSubject, SubjectView } from "./subject.js";
import { afterDecision, loadSubject, sweepSubjects } from "./subjects.js";
import { changeScaStatus } from "./transitions.js";

/** A request as the app shows it: what the PSU approves, and for whom. */
export interface DecoupledRequest {
  authorisationId: string;
  createdAt: string;
  tppName: string;
  resourceId: string;
  resource: SubjectView;
}

export const DEFAULT_DECOUPLED_TIMEOUT_SECONDS = 300;

/** The app's answer to an approval or rejection. */
export type AppDecision = { ok: true } | ({ ok: false } & Refusal);

const isOpen = (a: Authorisation) => ["received", "psuIdentified"].includes(a.scaStatus);

const nowIso = (deps: Deps) => deps.clock.now().toISOString();
const timeoutMs = ({ settings }: Deps) =>
  (settings.decoupledTimeoutSeconds ?? DEFAULT_DECOUPLED_TIMEOUT_SECONDS) * 1000;

/** A request unanswered for too long fails, and its payment or consent is refused. */
async function timeOut(deps: Deps, tx: Tx, a: Authorisation): Promise<boolean> {
  if (Date.parse(a.createdAt ?? "") + timeoutMs(deps) > deps.clock.now().getTime()) return false;
  const subject = await loadSubject(deps, tx, a);
  // Refusing the payment or consent fails the authorisation with it.
  if (subject?.awaiting) {
    await refuseWithoutReview(deps, tx, { session: { psuId: null }, authorisation: a,
      subject }, true);
  } else {
    await changeScaStatus(deps.store, tx, a.id, "fail", nowIso(deps));
  }
  return true;
}

/** The sweep behind the app's own checks: every request past its time, a batch at a time. */
async function expireLate(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - timeoutMs(deps)).toISOString();
  return deps.store.transaction(async (tx) => {
    const late = await deps.store.sca.lateDecoupled(tx, before, 100);
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

/** The PSU's requests still open, oldest first; each seen now is psuIdentified. */
async function pendingOf(deps: Deps, tx: Tx, psu: Psu): Promise<DecoupledRequest[]> {
  const { store } = deps;
  const requests: DecoupledRequest[] = [];
  for (const a of await store.sca.pendingDecoupled(tx, psu.login)) {
    if (await timeOut(deps, tx, a)) continue;
    const subject = await loadSubject(deps, tx, a);
    if (!subject?.awaiting) continue;
    await changeScaStatus(store, tx, a.id, "identify", nowIso(deps), psu.id);
    const tppName = (await store.tpps.name(tx, a.tppId)) ?? a.tppId;
    requests.push({ authorisationId: a.id, createdAt: a.createdAt ?? "", tppName,
      resourceId: a.resourceId, resource: subject.view });
  }
  return requests;
}

/** Binds a new app to a PSU who passed both factors; its secret goes into the app's cookie. */
async function activate(deps: Deps, psuId: string, pin: string): Promise<string> {
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
async function appView(deps: Deps, secret: string | undefined, seen: boolean) {
  const { store } = deps;
  if (!secret) return undefined;
  return store.transaction(async (tx) => {
    const app = await store.psuApps.findBySecret(tx, hashSecret(secret));
    const psu = app && (await store.psus.find(tx, app.psuId));
    if (!app || !psu) return undefined;
    if (seen) await store.psuApps.touch(tx, app.id, nowIso(deps));
    return { app, psu, requests: await pendingOf(deps, tx, psu) };
  });
}

/** One of the PSU's open requests, loaded for a decision; undefined when no longer open. */
async function openRequest(deps: Deps, tx: Tx, psu: Psu, authorisationId: string) {
  const a = await deps.store.sca.findAuthorisation(tx, authorisationId);
  if (!a || a.approach !== "decoupled" || a.namedPsu !== psu.login || !isOpen(a)) return;
  if (await timeOut(deps, tx, a)) return;
  const subject = await loadSubject(deps, tx, a);
  return subject?.awaiting ? { a, subject } : undefined;
}

/** Approval: the PSU's authentication, then the decision, as after a review. */
async function approveOpen(
  deps: Deps, tx: Tx, psu: Psu, open: { a: Authorisation; subject: ScaSubject },
): Promise<AppDecision> {
  const { subject } = open;
  const problem = await subject.signingProblem(tx, psu.id);
  if (problem) return refused(problem);
  await scaPassed(deps, tx, psu.id);
  await changeScaStatus(deps.store, tx, open.a.id, "authenticate", nowIso(deps), psu.id);
  const ctx = { session: { psuId: psu.id }, authorisation: open.a };
  const decision = await subject.decideWithoutReview(tx, ctx, true);
  // Only a lost race gets here; throwing rolls the authentication back with it.
  if (!decision.ok) throw new Error(`a decoupled decision was refused: ${decision.problem}`);
  return decision;
}

/** The PSU's decision on one request: approve (the PIN checked already) or reject. */
function decide(deps: Deps, psu: Psu, authorisationId: string, approve: boolean,
  pinOk: boolean): Promise<AppDecision> {
  return deps.store.transaction(async (tx): Promise<AppDecision> => {
    const current = await deps.store.psus.find(tx, psu.id);
    const refusal = current && (await refusedPsu(deps, tx, current, approve && !pinOk));
    if (!current || refusal) return { ok: false, ...(refusal ?? refused("wrong_step")) };
    const open = await openRequest(deps, tx, current, authorisationId);
    if (!open) return refused("already_decided");
    if (approve) return approveOpen(deps, tx, current, open);
    const ctx = { session: { psuId: psu.id }, authorisation: open.a, subject: open.subject };
    await refuseWithoutReview(deps, tx, ctx, false);
    return { ok: true };
  });
}

/** From the app: the PIN is checked before any transaction (hashing is slow). */
async function answer(deps: Deps, secret: string | undefined, authorisationId: string,
  approve: boolean, pin = ""): Promise<AppDecision> {
  const { store } = deps;
  const app = secret ? await store.psuApps.findBySecret(store.db, hashSecret(secret)) : undefined;
  const psu = app && (await store.psus.find(store.db, app.psuId));
  if (!app || !psu) return refused("session_expired");
  const pinOk = approve && (await deps.passwords.verify(app.pinHash, pin));
  const outcome = await decide(deps, psu, authorisationId, approve, pinOk);
  const decided = await store.sca.findAuthorisation(store.db, authorisationId);
  if (outcome.ok && decided) await afterDecision(deps, decided);
  return outcome;
}

/**
 * The sandbox's stand-in for the PSU's thumb: acts on the PSU's oldest open request as its app
 * would (approval without a PIN: the sandbox has no phone). Undefined when none is open.
 */
async function sandboxAnswer(deps: Deps, login: string, approve: boolean) {
  const { store } = deps;
  const psu = await store.psus.findByLogin(store.db, login);
  if (!psu) return undefined;
  const [oldest] = await store.transaction((tx) => pendingOf(deps, tx, psu));
  if (!oldest) return undefined;
  const outcome = await decide(deps, psu, oldest.authorisationId, approve, true);
  const after = await store.sca.findAuthorisation(store.db, oldest.authorisationId);
  if (outcome.ok && after) await afterDecision(deps, after);
  return { oldest, outcome, scaStatus: after?.scaStatus ?? "failed" };
}

/**
 * The TPP names the PSU of a decoupled authorisation created without PSU-ID (the guidelines'
 * updatePsuIdentification); the request then waits in that PSU's app. Throws FORMAT_ERROR
 * without PSU-ID, STATUS_INVALID once the authorisation named one or is over.
 */
async function identify(deps: Deps, a: Authorisation, login: string | null) {
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
  return {
    identify: (a: Authorisation, login: string | null) => identify(deps, a, login),
    activate: (psuId: string, pin: string) => activate(deps, psuId, pin),
    appView: (secret: string | undefined, seen = true) => appView(deps, secret, seen),
    answer: (secret: string | undefined, authorisationId: string, approve: boolean, pin = "") =>
      answer(deps, secret, authorisationId, approve, pin),
    sandboxAnswer: (login: string, approve: boolean) => sandboxAnswer(deps, login, approve),
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
