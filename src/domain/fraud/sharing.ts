/**
 * The flagged payee identifiers as an information-sharing arrangement exchanges them (PSR art. 83
 * in the Commission's proposal COM(2023) 367): this bank's list written as a JSON document
 * (docs/operations.md, "Fraud signals"), and another PSP's list read and flagged here. A list
 * with any mistake is refused whole, naming the field, and flags nothing.
 */
import { validateIban } from "../../lib/iban.js";
import type { StoreDeps } from "../deps.js";
import { OperatorError } from "../kernel/errors.js";
import { REPORTERS_MIN } from "./signals.js";

const FORMAT = "psd2-bank/fraud-signals";
const VERSION = 1;
const PROVIDER_MAX = 140;

export interface SharedIdentifier {
  type: "IBAN"; value: string; flaggedAt: string;
  /** Distinct PSUs of the provider that reported it; 0 when the provider had it shared. */
  reporters: number;
  sharedBy: string | null;
}

export interface FraudSignalsDocument {
  format: typeof FORMAT; version: typeof VERSION; provider: string; exportedAt: string;
  identifiers: SharedIdentifier[];
}

export interface ImportResult { provider: string; identifiers: number; flagged: number }

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The IBAN of `identifiers[i]`, normalised; throws naming the field. */
function identifierOf(entry: unknown, i: number): string {
  const at = `identifiers[${i}]`;
  if (!isObject(entry)) throw new OperatorError("expected an object", at);
  if (entry.type !== "IBAN") throw new OperatorError('only "IBAN" is shared', `${at}.type`);
  const checked = typeof entry.value === "string" ? validateIban(entry.value) : null;
  if (!checked?.ok) {
    throw new OperatorError(`not a valid IBAN (${checked?.problem ?? "not a string"})`,
      `${at}.value`);
  }
  return checked.iban;
}

/** The provider and its IBANs from another PSP's document; throws naming the first mistake. */
function readDocument(document: unknown): { provider: string; ibans: string[] } {
  if (!isObject(document)) throw new OperatorError("expected a JSON object", "document");
  if (document.format !== FORMAT || document.version !== VERSION) {
    throw new OperatorError(`expected "format": "${FORMAT}" and "version": ${VERSION}`, "format");
  }
  const { provider, identifiers } = document;
  if (typeof provider !== "string" || provider.trim() === ""
    || provider.length > PROVIDER_MAX) {
    throw new OperatorError(`the sharing PSP's name, 1 to ${PROVIDER_MAX} characters`,
      "provider");
  }
  if (!Array.isArray(identifiers)) throw new OperatorError("expected a list", "identifiers");
  return { provider: provider.trim(), ibans: identifiers.map(identifierOf) };
}

export function createFraudSharing(
  { store, clock }: StoreDeps<"fraudSignals" | "db" | "transaction", "clock">,
  provider: string,
) {
  return {
    /** Every identifier flagged here, by this bank's PSUs or shared with it. */
    async exportSignals(): Promise<FraudSignalsDocument> {
      const flagged = await store.fraudSignals.flagged(store.db, REPORTERS_MIN);
      return {
        format: FORMAT, version: VERSION, provider, exportedAt: clock.now().toISOString(),
        identifiers: flagged.map((f) => ({ type: "IBAN", value: f.iban, flaggedAt: f.flaggedAt,
          reporters: f.reporters, sharedBy: f.sharedBy })),
      };
    },

    /** Flags every identifier of another PSP's document, or none when it has a mistake. */
    async importSignals(document: unknown): Promise<ImportResult> {
      const { provider: sharedBy, ibans } = readDocument(document);
      const at = clock.now().toISOString();
      const flagged = await store.transaction((tx) =>
        store.fraudSignals.share(tx, sharedBy, ibans, at));
      return { provider: sharedBy, identifiers: ibans.length, flagged };
    },
  };
}

export type FraudSharing = ReturnType<typeof createFraudSharing>;
