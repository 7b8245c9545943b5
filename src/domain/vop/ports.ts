/**
 * Verification of Payee across banks: the port to the scheme (EPC VOP), through which this bank,
 * as the requesting PSP, asks the payee's bank. The embedded default is a sandbox directory
 * (src/ledger/vop-directory.ts); a bank plugs in its scheme connection in src/app/deps.ts instead.
 */
import type { NameMatch } from "../../lib/payee-names.js";
import type { Tx } from "../kernel/ports.js";

/** The scheme's four outcomes: match, close match, no match, check not possible. */
export type VopResult = NameMatch | "NOAP";

export interface VopOutcome {
  result: VopResult;
  /** The name the payee's bank holds: given for a close match only, as the scheme allows. */
  matchedName: string | null;
}

/** A payee as a check needs it: the currency is the transfer's (PSR art. 50, proposal). */
export interface CheckedPayee { iban: string; name: string; currency: string }

export interface PayeeVerificationPort {
  /**
   * Whether a scheme this bank takes part in can route a check to the payee's bank, for a
   * transfer in `currency` (EPC VOP: SEPA countries, euro). When none can, the check is "not
   * possible" at once: nothing is asked, and the PSU and the TPP are told so.
   */
  reaches(payee: { iban: string; currency: string }): boolean;
  /**
   * Asks the payee's bank whether `name` is the holder of `iban`. May take long or fail: the
   * caller bounds it (VOP_TIMEOUT_MS) and reads a failure as NOAP.
   */
  verify(request: { iban: string; name: string }): Promise<VopOutcome>;
}

/** The answer to one payee check a TPP asks for (Verification of Party 1.1), in its words. */
export interface PartyAnswer { partyNameMatch: VopResult; matchedName?: string }

/** A bulk's status as VOP 1.1 spells it ("recieved" is the file's own spelling). */
export type VopBulkStatus = "recieved" | "pending" | "rejected" | "completed";

export interface VopBulk { id: string; tppId: string; status: VopBulkStatus; createdAt: string }

/** One entry of a bulk: the request as the TPP sent it, and its answer once checked. */
export interface VopBulkEntry { position: number; request: unknown; answer: PartyAnswer | null }

/** A TPP's bulks of checks (store/vop-bulks.ts), kept until each entry is answered. */
export interface VopBulkPort {
  create(tx: Tx, bulk: VopBulk, requests: readonly unknown[]): Promise<void>;
  /** The TPP's bulk, or undefined (another TPP's too). */
  find(tx: Tx, tppId: string, id: string): Promise<VopBulk | undefined>;
  entries(tx: Tx, bulkId: string): Promise<VopBulkEntry[]>;
  /** Up to `limit` entries still without an answer, by position. */
  open(tx: Tx, bulkId: string, limit: number): Promise<VopBulkEntry[]>;
  /** Keeps answers; one already answered keeps its first. */
  answer(tx: Tx, bulkId: string, answers: readonly VopBulkEntry[]): Promise<void>;
  /** Ids of bulks not yet completed or rejected, oldest first. */
  unfinished(tx: Tx, limit: number): Promise<string[]>;
  /** Compare-and-set on the bulk's status; true when this call changed it. */
  transition(tx: Tx, id: string, from: readonly VopBulkStatus[], to: VopBulkStatus,
    at: string): Promise<boolean>;
}
