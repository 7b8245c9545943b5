/**
 * What a PSU may grant in a consent: the accounts and cards to choose from, and what the consent
 * shares of each, exactly as the review page shows it.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { Grantable } from "../sca/subject.js";
import type { Consent, GrantedAccount } from "./model.js";

/** A consent that names nothing and sets no flag: the PSU picks accounts and what each shares. */
export function isBankOffered(consent: Pick<Consent, "access">): boolean {
  const a = consent.access;
  return a.accounts.length + a.balances.length + a.transactions.length === 0
    && a.availableAccounts === null && a.availableAccountsWithBalance === null
    && a.allPsd2 === null;
}

/**
 * The accounts and cards the PSU may grant: its own, and those it signs for; each account with
 * what it holds now, as the review names it (a card's balance is not money the PSU holds).
 */
async function grantable(deps: Deps, tx: Tx, psuId: string): Promise<Grantable[]> {
  const { core } = deps;
  const signed = (await core.listMandatedAccounts(tx, psuId)).filter((a) => a.right !== "viewer");
  const accounts = await Promise.all([...(await core.listAccountsOfPsu(tx, psuId)), ...signed]
    .map(async (a) => ({ ...a, reference: a.iban,
      availableMinor: await core.availableBalance(tx, a.id) })));
  return [
    ...accounts,
    ...(await core.listCardAccountsOfPsu(tx, psuId))
      .map((c) => ({ ...c, reference: c.maskedPan, signaturesRequired: 1,
        availableMinor: undefined })),
  ].map(({ id, reference, currency, product, signaturesRequired, name, availableMinor }) =>
    ({ id, reference, currency, product, signaturesRequired, name, availableMinor }));
}

/**
 * The accounts and cards a consent lets the PSU choose from, and the named ones the PSU does not
 * hold. A consent some users signed already offers what the first of them chose, and nothing else.
 */
export async function consentChoices(deps: Deps, tx: Tx, psuId: string, consent: Consent) {
  const own = await grantable(deps, tx, psuId);
  if (consent.status === "partiallyAuthorised") {
    const granted = new Set((await deps.store.consents.grantedAccounts(tx, consent.id))
      .map((g) => g.accountId));
    return { accounts: own.filter((acc) => granted.has(acc.id)), foreign: [] as string[] };
  }
  const a = consent.access;
  const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
  if (named.length === 0) return { accounts: own, foreign: [] as string[] };
  return {
    accounts: own.filter((acc) => named.includes(acc.reference)),
    foreign: named.filter((ref) => !own.some((acc) => acc.reference === ref)),
  };
}

/**
 * What a consent shares of one account or card; the review page shows exactly this to the PSU.
 * On a bank-offered consent the PSU's own choice decides, everything unless told otherwise.
 */
export function grantFor(consent: Consent, account: Grantable, choice?: PsuChoice): GrantedAccount {
  const a = consent.access;
  const grant = (balances: boolean, transactions: boolean) =>
    ({ accountId: account.id, balances, transactions });
  if (a.allPsd2 !== null) return grant(true, true);
  if (a.availableAccountsWithBalance !== null) return grant(true, false);
  if (a.availableAccounts !== null) return grant(false, false);
  if (isBankOffered(consent)) {
    const ref = account.reference;
    return choice ? grant(choice.balances.includes(ref), choice.transactions.includes(ref))
      : grant(true, true);
  }
  return grant(a.balances.includes(account.reference), a.transactions.includes(account.reference));
}

/** The PSU's ticks on the review: per account, whether its balances and transactions go. */
export interface PsuChoice { balances: readonly string[]; transactions: readonly string[] }
