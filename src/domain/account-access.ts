/**
 * The gate of every account read: the consent must be usable, grant the account and the kind of
 * access, and have reads left today. A read the PSU did not ask for himself (no PSU-IP-Address)
 * counts against frequencyPerDay per consent, account and endpoint, per calendar day in the
 * bank's time zone; a one-off consent counts every read. Over the limit nothing is read.
 */
import { dateInZone } from "../lib/clock.js";
import type { Consent, GrantedAccount } from "./consents-model.js";
import type { Consents } from "./consents.js";
import type { Deps } from "./deps.js";
import { Xs2aError } from "./errors.js";

export type AccessKind = "account" | "balances" | "transactions";

export interface AccessRequest {
  tppId: string;
  consentId: string;
  /** Null for the account list, which counts as one resource of its own. */
  accountId: string | null;
  endpoint: string;
  kind: AccessKind;
  psuInitiated: boolean;
}

export interface GrantedAccess {
  consent: Consent;
  granted: GrantedAccount[];
  grant: GrantedAccount | null;
}

const LIST = "*";

function notGranted(text: string): Xs2aError {
  return new Xs2aError("CONSENT_INVALID", "path", text);
}

export function createAccountAccess(deps: Deps, consents: Consents) {
  const { store, clock, settings } = deps;

  function checkGrant(grant: GrantedAccount | undefined, kind: AccessKind): GrantedAccount {
    if (!grant) throw notGranted("This consent does not grant access to this account.");
    if (kind === "balances" && !grant.balances) {
      throw notGranted("This consent does not grant balances of this account.");
    }
    if (kind === "transactions" && !grant.transactions) {
      throw notGranted("This consent does not grant transactions of this account.");
    }
    return grant;
  }

  async function countAccess(consent: Consent, request: AccessRequest): Promise<void> {
    if (request.psuInitiated && consent.recurringIndicator) return;
    const key = {
      consentId: consent.id, accountId: request.accountId ?? LIST, endpoint: request.endpoint,
      day: dateInZone(clock.now(), settings.timeZone),
    };
    await store.transaction(async (tx) => {
      if (await store.accessCounts.count(tx, key) >= consent.frequencyPerDay) {
        throw new Xs2aError("ACCESS_EXCEEDED", "state",
          `This consent allows ${consent.frequencyPerDay} reads of this resource a day`
            + " without the PSU.");
      }
      await store.accessCounts.increment(tx, key);
    });
  }

  /** Throws the consent errors, CONSENT_INVALID for what is not granted, ACCESS_EXCEEDED. */
  async function authorise(request: AccessRequest): Promise<GrantedAccess> {
    const consent = await consents.usableConsent(request.tppId, request.consentId);
    const granted = await store.consents.grantedAccounts(store.db, consent.id);
    const grant = request.accountId === null ? null
      : checkGrant(granted.find((g) => g.accountId === request.accountId), request.kind);
    await countAccess(consent, request);
    return { consent, granted, grant };
  }

  return { authorise };
}

export type AccountAccess = ReturnType<typeof createAccountAccess>;
