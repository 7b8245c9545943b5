/**
 * Account identifiers: IBAN (ISO 13616, checked against the SWIFT IBAN registry), BIC
 * (ISO 9362 BICFI) and ISO 3166-1 alpha-2 country codes.
 */

/**
 * SWIFT IBAN registry (release 102, 89 IBAN prefixes): country, IBAN length, BBAN structure.
 * Structure is the registry's notation without the "!": n digits, a upper-case letters,
 * c upper-case letters or digits. Territories that use another country's prefix (GF, GP, AX,
 * JE, ...) are not prefixes of their own and so are not listed.
 */
const IBAN_REGISTRY = `
AD24:4n4n12c AE23:3n16n AL28:8n16c AT20:5n11n AZ28:4a20c BA20:3n3n8n2n BE16:3n7n2n
BG22:4a4n2n8c BH22:4a14c BI27:5n5n11n2n BR29:8n5n10n1a1c BY28:4c4n16c CH21:5n12c
CR22:4n14n CY28:3n5n16c CZ24:4n6n10n DE22:8n10n DJ27:5n5n11n2n DK18:4n9n1n DO28:4c20n
EE20:2n2n11n1n EG29:4n4n17n ES24:4n4n1n1n10n FI18:3n11n FK18:2a12n FO18:4n9n1n
FR27:5n5n11c2n GB22:4a6n8n GE22:2a16n GI23:4a15c GL18:4n9n1n GR27:3n4n16c GT28:4c20c
HN28:4a20n HR21:7n10n HU28:3n4n1n15n1n IE22:4a6n8n IL23:3n3n13n IQ23:4a3n12n
IS26:4n2n6n10n IT27:1a5n5n12c JO30:4a4n18c KW30:4a22c KZ20:3n13c LB28:4n20c LC32:4a24c
LI21:5n12c LT20:5n11n LU20:3n13c LV21:4a13c LY25:3n3n15n MC27:5n5n11c2n MD24:2c18c
ME22:3n13n2n MK19:3n10c2n MN20:4n12n MR27:5n5n11n2n MT31:4a5n18c MU30:4a2n2n12n3n3a
NI28:4a20n NL18:4a10n NO15:4n6n1n OM23:3n16c PK24:4a16c PL28:8n16n PS29:4a21c
PT25:4n4n11n2n QA29:4a21c RO24:4a16c RS22:3n13n2n RU33:9n5n15c SA24:2n18c
SC31:4a2n2n16n3a SD18:2n12n SE24:3n16n1n SI19:5n8n2n SK24:4n6n10n SM27:1a5n5n12c
SO23:4n3n12n ST25:4n4n11n2n SV28:4a20n TL23:3n14n2n TN24:2n3n13n2n TR26:5n1n16c
UA29:6n19c VA22:3n15n VG24:4a16n XK20:4n10n2n YE30:4a4n18c`;

export interface IbanFormat {
  readonly length: number;
  /** The registry's BBAN structure without "!", e.g. "8n10n" for DE. */
  readonly structure: string;
  readonly bban: RegExp;
}

const CLASS: Record<string, string> = { n: "[0-9]", a: "[A-Z]", c: "[A-Z0-9]" };

function parseRegistry(table: string): ReadonlyMap<string, IbanFormat> {
  const formats = new Map<string, IbanFormat>();
  for (const entry of table.trim().split(/\s+/)) {
    const match = /^([A-Z]{2})(\d{2}):((?:\d+[nac])+)$/.exec(entry);
    if (match === null) throw new Error(`IBAN registry entry malformed: ${entry}`);
    const [, country = "", length = "", structure = ""] = match;
    const parts = [...structure.matchAll(/(\d+)([nac])/g)];
    const bbanLength = parts.reduce((sum, part) => sum + Number(part[1]), 0);
    // A typo in the table must fail at load, not silently refuse one country's IBANs.
    if (bbanLength + 4 !== Number(length)) throw new Error(`IBAN registry length: ${entry}`);
    const pattern = parts.map((part) => `${CLASS[part[2] ?? ""] ?? ""}{${part[1]}}`).join("");
    const bban = new RegExp(`^${pattern}$`);
    formats.set(country, { length: Number(length), structure, bban });
  }
  return formats;
}

const IBAN_FORMATS = parseRegistry(IBAN_REGISTRY);

/** The IBAN prefixes of the registry, for tests and for listing. */
export function ibanCountries(): string[] {
  return [...IBAN_FORMATS.keys()];
}

/** A registry country's IBAN length and BBAN pattern (anchored, upper case), or undefined. */
export function ibanFormat(country: string): IbanFormat | undefined {
  return IBAN_FORMATS.get(country);
}

/** ISO 3166-1 alpha-2: the 249 officially assigned codes. */
const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ " +
    "BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM " +
    "DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS " +
    "GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN " +
    "KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ " +
    "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM " +
    "PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV " +
    "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI " +
    "VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/** ISO 3166-1 alpha-2, the full list of officially assigned codes. */
export function isCountryCode(text: string): boolean {
  return COUNTRY_CODES.has(text);
}

/** Removes spaces and upper-cases. */
export function normalizeIban(text: string): string {
  return text.replaceAll(" ", "").toUpperCase();
}

/** ISO 7064 MOD 97-10 of country + check digits moved behind the BBAN, letters as 10..35. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    // Digits fold in one decimal place, letters (A=10 .. Z=35) in two.
    remainder =
      code <= 57 ? (remainder * 10 + (code - 48)) % 97 : (remainder * 100 + (code - 55)) % 97;
  }
  return remainder;
}

export type IbanProblem = "format" | "country" | "length" | "checksum";

/**
 * Validates an IBAN after normalising it. Besides registry country, length and mod-97 this
 * checks the registry's BBAN structure (reported as "format"): mod-97 alone lets about one in
 * 97 digit-to-letter typos through, the structure check catches those. Check digits 00, 01 and
 * 99 are refused as "checksum" since ISO 13616 only issues 02..98.
 */
export function validateIban(
  text: string,
): { ok: true; iban: string } | { ok: false; problem: IbanProblem } {
  const iban = normalizeIban(text);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return { ok: false, problem: "format" };
  const format = IBAN_FORMATS.get(iban.slice(0, 2));
  if (format === undefined) return { ok: false, problem: "country" };
  if (iban.length !== format.length) return { ok: false, problem: "length" };
  if (!format.bban.test(iban.slice(4))) return { ok: false, problem: "format" };
  const checkDigits = Number(iban.slice(2, 4));
  if (checkDigits < 2 || checkDigits > 98 || mod97(iban) !== 1) {
    return { ok: false, problem: "checksum" };
  }
  return { ok: true, iban };
}

/**
 * Builds a valid IBAN: computes the two check digits for country + BBAN (BBAN is normalised
 * like an IBAN). Throws a RangeError when the result could not validate (country not in the
 * registry, BBAN of the wrong length or structure): that is a bug in the caller, and handing
 * back an IBAN that validateIban refuses would only move the surprise elsewhere.
 */
export function makeIban(country: string, bban: string): string {
  const normalized = normalizeIban(bban);
  const format = IBAN_FORMATS.get(country);
  if (format === undefined) throw new RangeError(`makeIban: ${country} is not an IBAN country`);
  if (normalized.length + 4 !== format.length || !format.bban.test(normalized)) {
    throw new RangeError(`makeIban: BBAN does not fit the ${country} IBAN format`);
  }
  const check = 98 - mod97(`${country}00${normalized}`);
  return `${country}${String(check).padStart(2, "0")}${normalized}`;
}

const BIC_PATTERN = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;

/**
 * BICFI per ISO 9362 with an ISO 3166 country part. XK (Kosovo) is also accepted: it is not an
 * officially assigned ISO 3166 code, but SWIFT issues BICs with it and Kosovo IBANs exist.
 */
export function isValidBic(text: string): boolean {
  if (!BIC_PATTERN.test(text)) return false;
  const country = text.slice(4, 6);
  return isCountryCode(country) || country === "XK";
}
