/**
 * The registered subjects (Deps.subjects) as the channels reach them: by the authorisation's
 * resourceType, never by asking which resource it is.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { Authorisation } from "./model.js";

type About = Pick<Authorisation, "resourceType" | "resourceId">;

/** What the authorisation `a` is about, as it stands now; undefined once it is gone. */
export const loadSubject = (deps: Deps, tx: Tx, a: Authorisation) =>
  deps.subjects[a.resourceType].load(deps, tx, a);

/** What follows a decision, once its transaction committed (a basket carries out its items). */
export async function afterDecision(deps: Deps, a: About): Promise<void> {
  await deps.subjects[a.resourceType].afterDecision?.(deps, a.resourceId);
}

/** Every subject's sweep of what a crash left half done after a decision. */
export async function sweepSubjects(deps: Deps): Promise<void> {
  for (const type of new Set(Object.values(deps.subjects))) await type.sweep?.(deps);
}
