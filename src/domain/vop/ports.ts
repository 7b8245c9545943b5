/**
 * Verification of Payee across banks: the port to the scheme (EPC VOP), through which this bank,
 * as the requesting PSP, asks the payee's bank. The embedded default is a sandbox directory
 * (src/ledger/vop-directory.ts); a bank plugs in its scheme connection in src/app/deps.ts instead.
 */
import type { NameMatch } from "../../lib/payee-names.js";

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
