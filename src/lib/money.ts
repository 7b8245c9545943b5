/**
 * Money at the edge: ISO 4217 minor units, and exact conversion between decimal amount text
 * (as Berlin Group NextGenPSD2 carries it) and a bigint count of minor units. No floats anywhere,
 * so no amount is ever rounded behind anyone's back.
 */

/**
 * ISO 4217 list one (as published 2026-01-01), active codes grouped by minor units. Codes whose
 * minor unit is "N.A." (metals, SDR, bond-market units, XSU, XUA, XTS, XXX) are left out on
 * purpose: they have no minor unit, so no amount in them can be held as a count of minor units.
 */
const MINOR_UNIT_TABLE: Record<number, string> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
  2:
    "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD " +
    "CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP " +
    "GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK " +
    "LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO " +
    "NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS " +
    "SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST " +
    "XAD XCD XCG YER ZAR ZMW ZWG",
  3: "BHD IQD JOD KWD LYD OMR TND",
  4: "CLF UYW",
};

const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries(MINOR_UNIT_TABLE).flatMap(([units, codes]) =>
    codes.split(" ").map((code): [string, number] => [code, Number(units)]),
  ),
);

/** ISO 4217 minor units of every active currency code; undefined when unknown. */
export function currencyMinorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

/** Every currency code currencyMinorUnits knows, for tests and for listing. */
export function knownCurrencies(): string[] {
  return [...MINOR_UNITS.keys()];
}

export type AmountProblem = "syntax" | "currency" | "scale";

/*
 * Berlin Group's amount pattern is -?[0-9]{1,14}(\.[0-9]{1,3})?. The fraction is captured
 * unbounded here so that "too many digits for this currency" can be told apart from "not a
 * number at all"; the Berlin Group limit of 3 fraction digits is then applied below, raised to 4
 * only for the two 4-digit currencies (CLF, UYW) so that every formatted amount parses back.
 */
const AMOUNT_PATTERN = /^(-?)([0-9]{1,14})(?:\.([0-9]+))?$/;
const BERLIN_GROUP_MAX_FRACTION = 3;

/**
 * Parses decimal amount text into minor units of `currency`. Problems are reported in the order
 * syntax, currency, scale. Fraction digits beyond the currency's minor units are refused even when
 * they are zeros ("10.500" EUR): an amount is taken exactly as written or not at all.
 */
export function parseAmount(
  text: string,
  currency: string,
): { ok: true; minor: bigint } | { ok: false; problem: AmountProblem } {
  const match = AMOUNT_PATTERN.exec(text);
  if (match === null) return { ok: false, problem: "syntax" };
  const [, sign = "", whole = "", fraction = ""] = match;
  const units = currencyMinorUnits(currency);
  if (fraction.length > Math.max(BERLIN_GROUP_MAX_FRACTION, units ?? 0)) {
    return { ok: false, problem: "syntax" };
  }
  if (units === undefined) return { ok: false, problem: "currency" };
  if (fraction.length > units) return { ok: false, problem: "scale" };
  const magnitude = BigInt(whole + fraction.padEnd(units, "0"));
  return { ok: true, minor: sign === "-" ? -magnitude : magnitude };
}

/**
 * Formats minor units as decimal text with exactly the currency's minor units: "123.45",
 * "-1.05", "0.00", JPY "100", BHD "1.000". An unknown currency here is a bug in the caller
 * (amounts are only ever stored in known currencies), so it throws.
 */
export function formatAmount(minor: bigint, currency: string): string {
  const units = currencyMinorUnits(currency);
  if (units === undefined) throw new Error(`formatAmount: unknown currency ${currency}`);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(units + 1, "0");
  const whole = digits.slice(0, digits.length - units);
  const text = units === 0 ? whole : `${whole}.${digits.slice(digits.length - units)}`;
  return negative ? `-${text}` : text;
}

/** The sum of some amounts per currency, in the order the currencies first appear. */
export function totalsOf(
  amounts: readonly { amountMinor: bigint; currency: string }[],
): [string, bigint][] {
  const sums = new Map<string, bigint>();
  for (const a of amounts) sums.set(a.currency, (sums.get(a.currency) ?? 0n) + a.amountMinor);
  return [...sums];
}
