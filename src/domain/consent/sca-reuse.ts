/**
 * RTS art. 10a (as amended by 2022/2360), an obligation: account information needs SCA when a
 * TPP first accesses a PSU's accounts and then at least every 180 days. A consent the same TPP
 * asks for within 180 days of the PSU's last SCA for one of its consents (the renewal of a
 * consent) needs the PSU's password only. An exempted renewal does not extend the 180 days.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps, StoreDeps } from "../deps.js";
import type { ScaExemption } from "../sca/model.js";
import { OLD_HISTORY_WINDOW_MS } from "../account-information/statement-query.js";
import type { Consent } from "./model.js";

export const SCA_REUSE_DAYS = 180;

export async function consentExemption(
  deps: Deps, tx: Tx, consent: Consent, psuId: string,
): Promise<ScaExemption | null> {
  // A company's user may be one of several signers (multi-level SCA), each of whom gives SCA.
  if (consent.status !== "received") return null;
  if ((await deps.core.listMandatedAccounts(tx, psuId)).length > 0) return null;
  const last = await deps.store.exemptions.lastConsentSca(tx, consent.tppId, psuId);
  if (last === undefined) return null;
  const ageMs = deps.clock.now().getTime() - Date.parse(last);
  return ageMs <= SCA_REUSE_DAYS * 86_400_000 ? "10a" : null;
}

/**
 * When the PSU passed SCA for this consent, for the hour in which history older than 90 days may
 * be read: an exempted renewal (password only) opens no such hour.
 */
export async function scaAuthorisedAt(
  deps: StoreDeps<"db" | "sca", "clock">, consent: Consent,
): Promise<string | null> {
  const at = consent.authorisedAt;
  if (at === null || deps.clock.now().getTime() - Date.parse(at) > OLD_HISTORY_WINDOW_MS) return at;
  const authorisations = await deps.store.sca.authorisationsOf(deps.store.db, consent.id);
  return authorisations.some((a) => a.scaStatus === "exempted") ? null : at;
}
