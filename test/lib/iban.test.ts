/** Tests for src/lib/iban.ts: IBAN registry, mod-97, BIC and ISO 3166 country codes. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ibanCountries,
  ibanFormat,
  isCountryCode,
  isValidBic,
  makeIban,
  normalizeIban,
  validateIban,
} from "../../src/lib/iban.js";

/** Example IBANs from the SWIFT IBAN registry, across many formats. */
const REGISTRY_EXAMPLES = [
  "DE89370400440532013000",
  "GB29NWBK60161331926819",
  "FR1420041010050500013M02606",
  "NL91ABNA0417164300",
  "AT611904300234573201",
  "BE68539007547034",
  "ES9121000418450200051332",
  "IT60X0542811101000000123456",
  "CH9300762011623852957",
  "NO9386011117947",
  "PL61109010140000071219812874",
  "SE4550000000058398257466",
  "MT84MALT011000012345MTLCAST001S",
  "BR1800360305000010009795493C1",
  "MU17BOMM0101101030300200000MUR",
  "SC18SSCB11010000000000001497USD",
  "LC55HEMM000100010012001200023015",
  "BY13NBRB3600900000002Z00AB00",
  "QA58DOHB00001234567890ABCDEFG",
  "KZ86125KZT5004100100",
  "MD24AG000225100013104168",
  "XK051212012345678906",
];

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const ALNUM = LETTERS + DIGITS;
const CHARS: Record<string, string> = { n: DIGITS, a: LETTERS, c: ALNUM };
const isDigit = (char: string): boolean => DIGITS.includes(char);

/** A BBAN following a registry structure such as "4a6n8n". */
function bbanOf(structure: string): fc.Arbitrary<string> {
  const parts = [...structure.matchAll(/(\d+)([nac])/g)].map(([, count, kind]) => {
    const length = Number(count);
    const unit = fc.constantFrom(...(CHARS[kind ?? ""] ?? ""));
    return fc.string({ unit, minLength: length, maxLength: length });
  });
  return fc.tuple(...parts).map((chunks) => chunks.join(""));
}

/** A valid IBAN of any registry country, its BBAN drawn from the country's structure. */
const validIban = fc
  .constantFrom(...ibanCountries())
  .chain((country) =>
    bbanOf(ibanFormat(country)?.structure ?? "").map((bban) => makeIban(country, bban)),
  );

describe("IBAN registry", () => {
  it("holds the 89 prefixes of the SWIFT registry with their lengths", () => {
    assert.equal(ibanCountries().length, 89);
    const lengths: Record<string, number> = {
      DE: 22, FR: 27, NL: 18, AT: 20, BE: 16, ES: 24, IT: 27, GB: 22, CH: 21, NO: 15,
      LC: 32, RU: 33, MT: 31, YE: 30, SO: 23, OM: 23, HN: 28, FK: 18, SD: 18, XK: 20,
    };
    for (const [country, length] of Object.entries(lengths)) {
      assert.equal(ibanFormat(country)?.length, length, country);
    }
  });

  it("uses ISO 3166 codes for every prefix except Kosovo's XK", () => {
    for (const country of ibanCountries()) {
      assert.equal(isCountryCode(country), country !== "XK", country);
    }
  });
});

describe("normalizeIban", () => {
  it("removes spaces and upper-cases", () => {
    assert.equal(normalizeIban(" de89 3704 0044 0532 0130 00 "), "DE89370400440532013000");
  });
});

describe("validateIban", () => {
  it("accepts the registry examples", () => {
    for (const iban of REGISTRY_EXAMPLES) {
      assert.deepEqual(validateIban(iban), { ok: true, iban }, iban);
    }
  });

  it("accepts the printed form and returns the electronic form", () => {
    assert.deepEqual(validateIban("de89 3704 0044 0532 0130 00"), {
      ok: true,
      iban: "DE89370400440532013000",
    });
  });

  it("reports text that is no IBAN at all as format", () => {
    for (const text of ["", "DE", "DE89", "D189370400440532013000", "DE8937040044-532013000"]) {
      assert.deepEqual(validateIban(text), { ok: false, problem: "format" }, text);
    }
  });

  it("reports a prefix outside the registry as country", () => {
    for (const text of ["US89370400440532013000", "XX89370400440532013000", "GF12345678901"]) {
      assert.deepEqual(validateIban(text), { ok: false, problem: "country" }, text);
    }
  });

  it("reports a wrong length for the country as length", () => {
    assert.deepEqual(validateIban("DE893704004405320130000"), { ok: false, problem: "length" });
    assert.deepEqual(validateIban("DE8937040044053201300"), { ok: false, problem: "length" });
  });

  it("reports a BBAN that breaks the country's structure as format", () => {
    assert.deepEqual(validateIban(makeIban("GB", "NWBK60161331926819").replace("NWBK", "NWB1")), {
      ok: false,
      problem: "format",
    });
    assert.deepEqual(validateIban("DE89370400440532O13000"), { ok: false, problem: "format" });
  });

  it("reports a failed mod-97 and the never-issued check digits 00, 01 and 99 as checksum", () => {
    assert.deepEqual(validateIban("DE88370400440532013000"), { ok: false, problem: "checksum" });
    // 99 and 02 leave the same remainder, as do 00/97 and 01/98: mod-97 alone cannot tell.
    const withCheck02 = ibanWithCheckDigits("02");
    assert.equal(validateIban(withCheck02).ok, true);
    for (const check of ["99", "00", "01"]) {
      const iban = withCheck02.slice(0, 2) + check + withCheck02.slice(4);
      assert.deepEqual(validateIban(iban), { ok: false, problem: "checksum" }, iban);
    }
  });

  it("accepts every IBAN that makeIban builds", () => {
    fc.assert(
      fc.property(validIban, (iban) => {
        assert.deepEqual(validateIban(iban), { ok: true, iban });
      }),
      { numRuns: 500 },
    );
  });

  it("refuses every single-character change within a character class", () => {
    // Digit for digit and letter for letter changes the mod-97 number by (a-b)*10^k with
    // 0 < |a-b| < 97, which 97 never divides: ISO 7064 catches every one of them.
    fc.assert(
      fc.property(validIban, fc.nat(), fc.integer({ min: 1, max: 25 }), (iban, at, shift) => {
        const index = at % iban.length;
        const old = iban[index] ?? "";
        const set = isDigit(old) ? DIGITS : LETTERS;
        const char = set[(set.indexOf(old) + shift) % set.length] ?? "";
        fc.pre(char !== old);
        const changed = iban.slice(0, index) + char + iban.slice(index + 1);
        assert.equal(validateIban(changed).ok, false, changed);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses every digit-letter swap where the registry fixes digits or letters", () => {
    // Where the BBAN allows both (the registry's "c"), such a swap shifts the number by a
    // decimal place and slips past mod-97 about once in 97 tries; only there is it allowed.
    fc.assert(
      fc.property(validIban, fc.nat(), fc.nat(), (iban, at, pick) => {
        const index = at % iban.length;
        const old = iban[index] ?? "";
        const set = isDigit(old) ? LETTERS : DIGITS;
        const char = set[pick % set.length] ?? "";
        const changed = iban.slice(0, index) + char + iban.slice(index + 1);
        const bbanStillFits = ibanFormat(iban.slice(0, 2))?.bban.test(changed.slice(4));
        fc.pre(index < 4 || bbanStillFits !== true);
        assert.equal(validateIban(changed).ok, false, changed);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(fc.property(fc.string(), (text) => typeof validateIban(text).ok === "boolean"));
  });
});

/** A DE IBAN whose computed check digits are the given ones, found by walking account numbers. */
function ibanWithCheckDigits(check: string): string {
  for (let account = 0; ; account++) {
    const iban = makeIban("DE", `37040044${String(account).padStart(10, "0")}`);
    if (iban.slice(2, 4) === check) return iban;
  }
}

describe("makeIban", () => {
  it("computes the check digits of known IBANs", () => {
    assert.equal(makeIban("DE", "370400440532013000"), "DE89370400440532013000");
    assert.equal(makeIban("GB", "NWBK60161331926819"), "GB29NWBK60161331926819");
    assert.equal(makeIban("NO", "86011117947"), "NO9386011117947");
    assert.equal(makeIban("FR", "2004 1010 0505 0001 3m02 606"), "FR1420041010050500013M02606");
  });

  it("throws when the result could not be a valid IBAN", () => {
    assert.throws(() => makeIban("US", "370400440532013000"), RangeError);
    assert.throws(() => makeIban("DE", "37040044053201300"), RangeError);
    assert.throws(() => makeIban("DE", "3704004405320130AB"), RangeError);
    assert.throws(() => makeIban("de", "370400440532013000"), RangeError);
  });
});

describe("isValidBic", () => {
  it("accepts 8 and 11 character BICs with a real country", () => {
    for (const bic of ["DEUTDEFF", "DEUTDEFF500", "NWBKGB2L", "BNPAFRPPXXX", "RBKOXKPR"]) {
      assert.equal(isValidBic(bic), true, bic);
    }
  });

  it("refuses wrong lengths, lower case, unknown countries and reserved location codes", () => {
    const refused = ["DEUTDEF", "DEUTDEFF5", "DEUTDEFF50", "DEUTDEFF5000", "deutdeff"];
    refused.push("DEUTXXFF", "DEUTUKFF", "DEUTDE1F", "DEUTDE0F", "DEUTDEFO", "DEU1DEFF", "");
    for (const bic of refused) {
      assert.equal(isValidBic(bic), false, bic);
    }
  });
});

describe("isCountryCode", () => {
  const letters = [...ALNUM.slice(0, 26)];
  const allPairs = letters.flatMap((a) => letters.map((b) => a + b));

  it("knows exactly the 249 officially assigned codes", () => {
    assert.equal(allPairs.filter(isCountryCode).length, 249);
  });

  it("agrees with the region names ICU knows for every listed code", () => {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    for (const code of allPairs.filter(isCountryCode)) {
      assert.notEqual(names.of(code), code, code);
    }
  });

  it("refuses reserved, withdrawn and user-assigned codes and lower case", () => {
    for (const code of ["UK", "EU", "XK", "AN", "CS", "YU", "ZZ", "de", "D", "DEU", ""]) {
      assert.equal(isCountryCode(code), false, code);
    }
    for (const code of ["DE", "SS", "BQ", "CW", "SX", "AX", "AQ", "UM"]) {
      assert.equal(isCountryCode(code), true, code);
    }
  });
});
