/**
 * The start of an authorisation, for any subject: with its creation or later by the TPP. The
 * authorisation is stored at its initial status, and the PSU's redirect link minted.
 */
import { newUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps, RedirectTargets } from "../deps.js";
import type { AuthorisedResource, ResourceType } from "./model.js";
import { initialScaStatus } from "./transitions.js";

export interface StartedAuthorisation { authorisationId: string; scaRedirect: string }

/** What is authorised; `page`, the bank's page its link opens (a cancellation: its payment's). */
export interface StartedFor {
  resourceType: AuthorisedResource; page: ResourceType; resourceId: string; tppId: string;
}

export async function startAuthorisation(
  { store, clock, scaLinks }: Pick<Deps, "store" | "clock" | "scaLinks">, tx: Tx,
  about: StartedFor, redirect: RedirectTargets,
  at = clock.now().toISOString(),
): Promise<StartedAuthorisation> {
  const authorisationId = newUuid();
  const { resourceType, resourceId, tppId } = about;
  await store.sca.insertAuthorisation(tx, {
    id: authorisationId, resourceType, resourceId, tppId,
    scaStatus: initialScaStatus(redirect), psuId: null, lang: redirect.lang,
    namedPsu: redirect.namedPsu,
    approach: redirect.approach,
  }, at);
  const scaRedirect = await scaLinks.scaRedirect({
    authorisationId, resourceType: about.page, ...redirect,
  });
  return { authorisationId, scaRedirect };
}
