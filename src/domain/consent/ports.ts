/**
 * The storage the consent aggregate needs, declared here and implemented by the store (or a
 * bank's own). Every status change is a compare-and-set whose statuses come from
 * transitions.ts: the repository never decides a status itself.
 */
import type { Tx } from "../kernel/ports.js";
import type { Consent, ConsentStatus, GrantedAccount } from "./model.js";

export interface StatusMove { from: readonly ConsentStatus[]; to: ConsentStatus }

/** A lapse rule as the store applies it: consents in `from` whose `field` is before `before`. */
export interface LapseChange extends StatusMove {
  field: "validUntil" | "createdAt";
  before: string;
}

export interface ConsentSearch { tppId?: string; psuId?: string; accountId?: string; limit: number }

export interface ConsentWithGrants { consent: Consent; granted: GrantedAccount[] }

export interface ConsentRepository {
  insert(tx: Tx, consent: Consent): Promise<void>;
  /** A consent of another TPP is indistinguishable from an unknown one. */
  findForTpp(tx: Tx, id: string, tppId: string): Promise<Consent | undefined>;
  find(tx: Tx, id: string): Promise<Consent | undefined>;
  /** The operator's search across TPPs, newest first; an account matches where it was granted. */
  search(tx: Tx, query: ConsentSearch): Promise<Consent[]>;
  grantAccounts(tx: Tx, consentId: string, grants: readonly GrantedAccount[]): Promise<void>;
  grantedAccounts(tx: Tx, consentId: string): Promise<GrantedAccount[]>;
  /** findForTpp and grantedAccounts in one read (one round trip on PostgreSQL). */
  findForTppWithGrants(tx: Tx, id: string, tppId: string): Promise<ConsentWithGrants | undefined>;
  /**
   * Compare-and-set on the status (and, with `signaturesBefore`, on the count of signatures,
   * which it raises by one); answers whether this call made the change.
   */
  transition(
    tx: Tx, id: string, from: readonly ConsentStatus[], to: ConsentStatus, change: ConsentChange,
  ): Promise<boolean>;
  /** Compare-and-set on every consent a lapse rule names; answers how many changed. */
  /** The ids of the consents it changed. */
  transitionWhere(tx: Tx, rule: LapseChange, at: string): Promise<string[]>;
  /** Compare-and-set on the PSU's other recurring consents at the same TPP. */
  transitionOtherRecurring(
    tx: Tx, keep: Consent, psuId: string, change: StatusMove, at: string,
  ): Promise<string[]>;
}

/** One account endpoint read within a consent on a bank day (frequencyPerDay counts these). */
export interface AccessKey { consentId: string; accountId: string; endpoint: string; day: string }

export interface AccessCountPort {
  count(tx: Tx, k: AccessKey): Promise<number>;
  increment(tx: Tx, k: AccessKey): Promise<void>;
  readsOf(tx: Tx, consentId: string, day: string):
    Promise<{ accountId: string; endpoint: string }[]>;
}

/** Where a consent's delta list of an account goes on: after `entryReference`. */
export interface DeltaMark { consentId: string; accountId: string; entryReference: string }

/** The last transaction a consent was shown of an account, for `deltaList`. */
export interface DeltaMarkPort {
  get(tx: Tx, consentId: string, accountId: string): Promise<string | null>;
  /** Moves each mark, in one statement; of two of one consent and account, the later wins. */
  setAll(tx: Tx, marks: readonly DeltaMark[]): Promise<void>;
}

/** What a consent's status change also records. */
export interface ConsentChange {
  at: string;
  psuId?: string;
  authorisedAt?: string;
  signaturesBefore?: number;
  /** Raised at the first signature when the accounts the PSU chose need more. */
  signaturesRequired?: number;
}
