/**
 * Account information within a consent: only the accounts the PSU granted, and balances only
 * where they were granted.
 */
import type { Balance, BankAccount } from "./core-banking.js";
import type { Consents } from "./consents.js";
import type { Deps } from "./deps.js";
import { Xs2aError } from "./errors.js";

export interface AccountView { account: BankAccount; balances: Balance[] | null }

export function createAccounts(deps: Deps, consents: Consents) {
  const { store, core } = deps;

  /** Throws CONSENT_UNKNOWN / CONSENT_INVALID / CONSENT_EXPIRED, and CONSENT_INVALID for
   * withBalance without balance access. */
  async function listAccounts(tppId: string, consentId: string, withBalance: boolean): Promise<AccountView[]> {
    const consent = await consents.usableConsent(tppId, consentId);
    const granted = await store.consents.grantedAccounts(store.db, consent.id);
    if (withBalance && !granted.some((g) => g.balances)) {
      throw new Xs2aError("CONSENT_INVALID", "query", "This consent does not grant access to balances.", "withBalance");
    }
    const views: AccountView[] = [];
    for (const grant of granted) {
      const account = await core.getAccount(store.db, grant.accountId);
      if (!account) continue;
      const balances = withBalance && grant.balances ? await core.balances(store.db, account.id) : null;
      views.push({ account, balances });
    }
    return views;
  }

  return { listAccounts };
}
