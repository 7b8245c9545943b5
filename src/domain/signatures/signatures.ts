/**
 * Multi-level SCA: a payment or consent on a company's account needs the signatures of several
 * of the company's users, each a different PSU with the right to sign. Each signature is one
 * finalised authorisation of the resource; the resource counts them with a compare-and-set, so
 * two users signing at once never both take the same place.
 */
import type { Tx } from "../kernel/ports.js";
import type { Corporate } from "../account-information/core-banking.js";
import type { Deps } from "../deps.js";
import { corporateIdInvalid } from "../kernel/errors.js";

export interface Signable { id: string; signatures?: number; signaturesRequired?: number }

/** Whether `psuId` has signed the resource already (cancellations are not signatures). */
export async function signedBy(
  { store }: Pick<Deps, "store">, tx: Tx, resourceId: string, psuId: string,
): Promise<boolean> {
  const authorisations = await store.sca.authorisationsOf(tx, resourceId);
  return authorisations.some((a) => a.resourceType !== "payment-cancellation"
    && a.scaStatus === "finalised" && a.psuId === psuId);
}

export type SignatureEvent = "authorise" | "signPartly";

/** What one more signature does: authorise when it is the last one needed, else sign partly. */
export function signatureEvent(resource: Signable): SignatureEvent {
  return (resource.signatures ?? 0) + 1 < (resource.signaturesRequired ?? 1)
    ? "signPartly" : "authorise";
}

/** The signatures given, for the compare-and-set of the next one. */
export const signaturesBefore = (resource: Signable): number => resource.signatures ?? 0;

/**
 * The company a TPP named with PSU-Corporate-ID, if any: one of the bank's company customers
 * and, for a payment, the holder of its debtor account. Throws CORPORATE_ID_INVALID; for a
 * payment an unknown company gets the answer of a known one holding other accounts, so the
 * header cannot be used to learn which companies bank here.
 */
export async function namedCorporate(
  { core }: Pick<Deps, "core">, tx: Tx, corporateId: string | null | undefined,
  holderId?: string,
): Promise<Corporate | null> {
  if (corporateId === null || corporateId === undefined) return null;
  const corporate = await core.findCorporate(tx, corporateId);
  if (holderId !== undefined && holderId !== corporate?.id) {
    throw corporateIdInvalid("PSU-Corporate-ID does not name the holder of the debtor account.");
  }
  if (!corporate) throw corporateIdInvalid("No company customer of this bank has this id.");
  return corporate;
}
