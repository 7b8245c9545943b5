/**
 * Fraud signals' records (PSR arts. 83 and 89 in the Commission's proposal COM(2023) 367),
 * implemented by store/fraud-signals.ts: PSUs' reports of fraud and the payee identifiers other
 * PSPs shared.
 */
import type { Tx } from "../kernel/ports.js";

export interface FraudReportRecord {
  paymentId: string; psuId: string; payeeIban: string; at: string;
}

/** A flagged payee identifier: by this bank's PSUs' reports, or shared by another PSP. */
export interface FlaggedPayee {
  iban: string;
  flaggedAt: string;
  /** How many distinct PSUs reported it (0: only shared by another PSP). */
  reporters: number;
  /** The PSP that shared it, or null. */
  sharedBy: string | null;
}

export interface FraudSignalPort {
  /** False when the payment was reported already. */
  report(tx: Tx, report: FraudReportRecord): Promise<boolean>;
  /** Of `ibans`, those reported by `reportersMin` distinct PSUs or more, or shared. */
  flaggedAmong(tx: Tx, ibans: readonly string[], reportersMin: number): Promise<string[]>;
  /** Every flagged identifier, by IBAN. */
  flagged(tx: Tx, reportersMin: number): Promise<FlaggedPayee[]>;
  /** Keeps identifiers another PSP shared; an IBAN flagged before keeps its first record. */
  share(tx: Tx, sharedBy: string, ibans: readonly string[], at: string): Promise<number>;
}
