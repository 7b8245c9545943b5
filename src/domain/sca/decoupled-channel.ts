/**
 * The bank app's channel of the SCA session machine (decoupled approach): the PSU is bound to
 * the app on its phone, and approving there with the app's PIN is both factors (session.ts,
 * BoundScaChannel). What it shows and decides is the authorisation's subject; a request left
 * unanswered for DECOUPLED_TIMEOUT_SECONDS fails, and its subject is refused.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { SessionContext } from "./context.js";
import type { Authorisation } from "./model.js";
import { refuseWithoutReview } from "./psu-decision.js";
import { contextOf } from "./redirect-channel.js";
import type { BoundScaChannel } from "./session.js";
import { loadSubject } from "./subjects.js";
import { changeScaStatus } from "./transitions.js";

/** A request in the app: what the PSU decides on, for whom; its PSU is the app's. */
export type AppContext = Omit<SessionContext, "session"> & { session: { psuId: string } };

export const isOpen = (a: Authorisation) => ["received", "psuIdentified"].includes(a.scaStatus);

const nowIso = (deps: Pick<Deps, "clock">) => deps.clock.now().toISOString();
export const timeoutMs = ({ settings }: Pick<Deps, "settings">) =>
  settings.decoupledTimeoutSeconds * 1000;

/** The moment before which a request was created that has timed out now. */
export const lateBefore = (deps: Pick<Deps, "clock" | "settings">) =>
  new Date(deps.clock.now().getTime() - timeoutMs(deps)).toISOString();

/** A request unanswered for too long fails, and its payment or consent is refused. */
export async function timeOut(deps: Deps, tx: Tx, a: Authorisation): Promise<boolean> {
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

export function decoupledChannel(deps: Deps): BoundScaChannel<AppContext> {
  const { store } = deps;
  return {
    /** Only a request of the decoupled approach, naming this PSU, open and within its time. */
    async context(tx, authorisationId, psu) {
      const a = await store.sca.findAuthorisation(tx, authorisationId);
      if (!a || a.approach !== "decoupled" || a.namedPsu !== psu.login || !isOpen(a)) {
        return "already_decided";
      }
      if (await timeOut(deps, tx, a)) return "already_decided";
      const found = await contextOf(deps, tx, a);
      return found ? { ...found, session: { psuId: psu.id } } : "already_decided";
    },
    stillOpen: (c) => c.subject.awaiting,
    // The app showed the subject, not whether this user of a company may sign it.
    refusal: (tx, c, psu) => c.subject.signingProblem(tx, psu.id),
    async onIdentified(tx, c, psu) {
      await changeScaStatus(store, tx, c.authorisation.id, "identify", nowIso(deps), psu.id);
    },
    async onAuthenticated(tx, c, psu) {
      await changeScaStatus(store, tx, c.authorisation.id, "authenticate", nowIso(deps), psu.id);
      const decision = await c.subject.decideWithoutReview(tx, c, true);
      // Only a lost race gets here; throwing rolls the authentication back with it.
      if (!decision.ok) throw new Error(`a decoupled decision was refused: ${decision.problem}`);
    },
    onDeclined: (tx, c) => refuseWithoutReview(deps, tx, c, false),
  };
}
