/**
 * The gate of every account read: the consent must be usable, grant the account and the kind of
 * access, and have reads left today. A read the PSU did not ask for himself (no PSU-IP-Address)
 * counts against frequencyPerDay per consent, account and endpoint, per calendar day in the
 * bank's time zone; a one-off consent counts every read, once per resource for its lifetime, and
 * expires when every granted read was made. Over the limit nothing is read.
 */
import { dateInZone } from "../../lib/clock.js";
import type { Tx } from "../kernel/ports.js";
import { moveConsent } from "./transitions.js";
import type { Consent, GrantedAccount } from "./model.js";
import type { Consents } from "./registration.js";
import type { StoreDeps } from "../deps.js";
import { accessNotGranted, consentUsedUp } from "../kernel/errors.js";

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
/** The counters of a one-off consent never roll over to a new day. */
const ONE_OFF_DAY = "once";
/** Downloads of a transaction file count apart from the list's reads. */
export const DOWNLOAD_ENDPOINT = "transactions-download";
/**
 * Reads of single transactions and downloads of a file already asked for: allowed once each,
 * but not needed to use a one-off consent up.
 */
const SINGLE_ITEM_ENDPOINTS = ["transaction", DOWNLOAD_ENDPOINT];

function checkGrant(grant: GrantedAccount | undefined, kind: AccessKind): GrantedAccount {
  if (!grant) throw accessNotGranted("This consent does not grant access to this account.");
  if (kind === "balances" && !grant.balances) {
    throw accessNotGranted("This consent does not grant balances of this account.");
  }
  if (kind === "transactions" && !grant.transactions) {
    throw accessNotGranted("This consent does not grant transactions of this account.");
  }
  return grant;
}

/**
 * A one-off consent is used up once every granted read was made: the list for a list-only
 * consent, else details, and balances and transactions where granted, of every account.
 */
async function usedUp(
  { store }: StoreDeps<"accessCounts">, tx: Tx, consent: Consent, granted: GrantedAccount[],
  listOnly: boolean,
) {
  const reads = await store.accessCounts.readsOf(tx, consent.id, ONE_OFF_DAY);
  if (listOnly) return reads.some((r) => r.accountId === LIST);
  const done = reads.filter(
    (r) => r.accountId !== LIST && !SINGLE_ITEM_ENDPOINTS.includes(r.endpoint));
  const due = granted.reduce((n, g) => n + 1 + Number(g.balances) + Number(g.transactions), 0);
  return done.length >= due;
}

/** What counting and gating an account read works with. */
type AccessDeps = StoreDeps<
  "db" | "transaction" | "accessCounts" | "consents" | "notifications" | "oauthRecords",
  "clock" | "settings"
>;

export function createAccountAccess(deps: AccessDeps, consents: Consents) {
  const { store, clock, settings } = deps;

  async function countAccess(consent: Consent, request: AccessRequest, granted: GrantedAccount[],
    listOnly: boolean): Promise<void> {
    const oneOff = !consent.recurringIndicator;
    if (request.psuInitiated && !oneOff) return;
    const key = {
      consentId: consent.id, accountId: request.accountId ?? LIST, endpoint: request.endpoint,
      day: oneOff ? ONE_OFF_DAY : dateInZone(clock.now(), settings.timeZone),
    };
    await store.transaction(async (tx) => {
      if (await store.accessCounts.count(tx, key) >= consent.frequencyPerDay) {
        throw consentUsedUp(oneOff
          ? "This one-off consent has been used for this resource already."
          : `This consent allows ${consent.frequencyPerDay} reads of this resource a day`
            + " without the PSU.");
      }
      await store.accessCounts.increment(tx, key);
      if (oneOff && await usedUp(deps, tx, consent, granted, listOnly)) {
        await moveConsent(deps, tx, consent.id, "expire", { at: clock.now().toISOString() });
      }
    });
  }

  /**
   * Throws the consent errors, CONSENT_INVALID for what is not granted, ACCESS_EXCEEDED.
   * `prepare` runs after the grant is checked and before the read is counted, so that a read it
   * refuses (a bad period, an unknown account) does not use up the consent's reads.
   */
  async function authorise<R>(
    request: AccessRequest, prepare: (access: GrantedAccess) => Promise<R>,
  ): Promise<GrantedAccess & { prepared: R }> {
    const { consent, granted } = await consents.usableConsent(request.tppId, request.consentId);
    const a = consent.access;
    // allPsd2 wins where a TPP sends it beside availableAccounts, as the spec's sample does.
    const listOnly = a.allPsd2 === null
      && (a.availableAccounts ?? a.availableAccountsWithBalance) !== null;
    if (request.accountId !== null && listOnly) {
      throw accessNotGranted("This consent grants the list of accounts only.");
    }
    if (consent.kind !== undefined) {
      throw accessNotGranted("A funds-confirmation consent gives no account information.");
    }
    const grant = request.accountId === null ? null
      : checkGrant(granted.find((g) => g.accountId === request.accountId), request.kind);
    const prepared = await prepare({ consent, granted, grant });
    await countAccess(consent, request, granted, listOnly);
    return { consent, granted, grant, prepared };
  }

  return { authorise };
}
