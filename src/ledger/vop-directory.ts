/**
 * The sandbox's Verification of Payee scheme: the other banks' answers come from a directory of
 * IBAN -> holder name (VOP_DIRECTORY_FILE, else the demo directory below), matched by the same
 * rules as this bank's own payees. Scenario IBANs answer "not possible" or never in time. It
 * stands for the EPC's VOP scheme, and so reaches what that scheme reaches: payee banks in the
 * SEPA countries, for euro transfers.
 */
import { readFile } from "node:fs/promises";
import { matchName } from "../lib/payee-names.js";
import type { PayeeVerificationPort, VopOutcome } from "../domain/vop/ports.js";

/** The directory file's shape (README, "Verification of Payee"). */
export interface VopDirectory {
  /** IBAN -> the holder's name as the payee's bank holds it. */
  holders: Record<string, string>;
  /** IBANs whose bank answers "verification not possible" (NOAP). */
  notPossible: string[];
  /** IBANs whose bank does not answer within any time-out. */
  noAnswer: string[];
}

export const DEMO_VOP_DIRECTORY: VopDirectory = {
  holders: {
    DE89370400440532013000: "Merchant GmbH",
    DE79100500000190000001: "Stadtwerke Musterstadt GmbH",
    DE07700500000190000002: "Maximilian Alexander Huber",
    FR1420041010050500013M02606: "Jean Dupont",
    IT60X0542811101000000123456: "Maria Rossi",
    NL91ABNA0417164300: "Bakker Bloemen B.V.",
  },
  notPossible: ["DE42200400000190000003"],
  noAnswer: ["DE63370400440190000004"],
};

/** How long the no-answer scenario keeps its caller waiting before it gives up itself. */
const NO_ANSWER_MS = 60_000;

const NOT_POSSIBLE: VopOutcome = { result: "NOAP", matchedName: null };

/**
 * The IBAN prefixes of the SEPA schemes' geographical scope (EPC409-09, the EEA, CH, GB, the
 * microstates, and AL, MD, ME, MK admitted in 2024-2025); territories use one of these prefixes.
 */
const SEPA_IBAN_COUNTRIES: ReadonlySet<string> = new Set((
  "AD AL AT BE BG CH CY CZ DE DK EE ES FI FR GB GI GR HR HU IE IS IT LI LT LU LV MC MD ME MK "
  + "MT NL NO PL PT RO SE SI SK SM VA").split(" "));

/** What the EPC's VOP scheme reaches: a payee bank in a SEPA country, a transfer in euro. */
const epcVopReaches = ({ iban, currency }: { iban: string; currency: string }) =>
  currency === "EUR" && SEPA_IBAN_COUNTRIES.has(iban.slice(0, 2));

export function sandboxVopScheme(directory: VopDirectory): PayeeVerificationPort {
  return {
    reaches: epcVopReaches,
    async verify({ iban, name }) {
      if (directory.noAnswer.includes(iban)) {
        await new Promise((resolve) => setTimeout(resolve, NO_ANSWER_MS).unref());
        return NOT_POSSIBLE;
      }
      const held = directory.holders[iban];
      if (held === undefined || directory.notPossible.includes(iban)) return NOT_POSSIBLE;
      const result = matchName(name, held);
      return { result, matchedName: result === "CMTC" ? held : null };
    },
  };
}

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");

/** Reads a directory file; throws a message naming the file's mistake. */
export async function readVopDirectory(path: string): Promise<VopDirectory> {
  const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
  const d = parsed as Partial<VopDirectory> | null;
  const holders = d?.holders;
  const valid = typeof holders === "object" && holders !== null
    && Object.values(holders).every((n) => typeof n === "string")
    && isStringList(d?.notPossible ?? []) && isStringList(d?.noAnswer ?? []);
  if (!valid) {
    throw new Error(`${path}: expected {"holders": {IBAN: name}, "notPossible": [IBAN], `
      + `"noAnswer": [IBAN]}`);
  }
  return { holders, notPossible: d?.notPossible ?? [], noAnswer: d?.noAnswer ?? [] };
}
