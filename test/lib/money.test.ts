/** Tests for src/lib/money.ts: ISO 4217 minor units and exact amount text <-> minor units. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  currencyMinorUnits,
  formatAmount,
  knownCurrencies,
  parseAmount,
} from "../../src/lib/money.js";

describe("currencyMinorUnits", () => {
  it("knows the minor units of common and unusual currencies", () => {
    assert.equal(currencyMinorUnits("EUR"), 2);
    assert.equal(currencyMinorUnits("USD"), 2);
    assert.equal(currencyMinorUnits("JPY"), 0);
    assert.equal(currencyMinorUnits("KRW"), 0);
    assert.equal(currencyMinorUnits("BHD"), 3);
    assert.equal(currencyMinorUnits("KWD"), 3);
    assert.equal(currencyMinorUnits("IQD"), 3);
    assert.equal(currencyMinorUnits("CLF"), 4);
    assert.equal(currencyMinorUnits("UYW"), 4);
    assert.equal(currencyMinorUnits("XCG"), 2);
    assert.equal(currencyMinorUnits("ZWG"), 2);
  });

  it("returns undefined for unknown, withdrawn, lower-case and unit-less codes", () => {
    for (const code of ["XYZ", "eur", "", "EURO", "HRK", "ANG", "ZWL", "XAU", "XDR", "XXX"]) {
      assert.equal(currencyMinorUnits(code), undefined, code);
    }
  });

  it("lists only three-letter upper-case codes with 0, 2, 3 or 4 minor units", () => {
    const codes = knownCurrencies();
    assert.equal(new Set(codes).size, codes.length);
    assert.ok(codes.length > 150);
    for (const code of codes) {
      assert.match(code, /^[A-Z]{3}$/);
      assert.ok([0, 2, 3, 4].includes(currencyMinorUnits(code) ?? -1), code);
    }
  });
});

describe("parseAmount", () => {
  it("parses Berlin Group amount text into minor units", () => {
    assert.deepEqual(parseAmount("123.45", "EUR"), { ok: true, minor: 12345n });
    assert.deepEqual(parseAmount("-1.05", "EUR"), { ok: true, minor: -105n });
    assert.deepEqual(parseAmount("0.5", "EUR"), { ok: true, minor: 50n });
    assert.deepEqual(parseAmount("0", "EUR"), { ok: true, minor: 0n });
    assert.deepEqual(parseAmount("-0.00", "EUR"), { ok: true, minor: 0n });
    assert.deepEqual(parseAmount("100", "JPY"), { ok: true, minor: 100n });
    assert.deepEqual(parseAmount("1.000", "BHD"), { ok: true, minor: 1000n });
    assert.deepEqual(parseAmount("1.2345", "CLF"), { ok: true, minor: 12345n });
    assert.deepEqual(parseAmount("99999999999999.99", "EUR"), {
      ok: true,
      minor: 9999999999999999n,
    });
  });

  it("refuses more fraction digits than the currency has, even zeros, as scale", () => {
    assert.deepEqual(parseAmount("10.500", "EUR"), { ok: false, problem: "scale" });
    assert.deepEqual(parseAmount("1.5", "JPY"), { ok: false, problem: "scale" });
    assert.deepEqual(parseAmount("1.0", "JPY"), { ok: false, problem: "scale" });
  });

  it("refuses text outside the Berlin Group pattern as syntax", () => {
    const bad = ["+1", "1.", ".5", "1e3", " 1", "1 ", "", "-", "1,5", "1.2.3", "0x10", "١", "--1"];
    for (const text of [...bad, "123456789012345", "1.2345", "NaN", "Infinity"]) {
      assert.deepEqual(parseAmount(text, "EUR"), { ok: false, problem: "syntax" }, text);
    }
  });

  it("reports an unknown currency once the text itself is well formed", () => {
    assert.deepEqual(parseAmount("12.34", "XYZ"), { ok: false, problem: "currency" });
    assert.deepEqual(parseAmount("12.34", "eur"), { ok: false, problem: "currency" });
    assert.deepEqual(parseAmount("12,34", "XYZ"), { ok: false, problem: "syntax" });
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("EUR", "JPY", "BHD", "CLF", "XYZ"), (t, c) => {
        const result = parseAmount(t, c);
        assert.equal(typeof result.ok, "boolean");
      }),
    );
  });
});

describe("formatAmount", () => {
  it("writes exactly the currency's minor units", () => {
    assert.equal(formatAmount(12345n, "EUR"), "123.45");
    assert.equal(formatAmount(-105n, "EUR"), "-1.05");
    assert.equal(formatAmount(0n, "EUR"), "0.00");
    assert.equal(formatAmount(5n, "EUR"), "0.05");
    assert.equal(formatAmount(-5n, "EUR"), "-0.05");
    assert.equal(formatAmount(100n, "JPY"), "100");
    assert.equal(formatAmount(-7n, "JPY"), "-7");
    assert.equal(formatAmount(1000n, "BHD"), "1.000");
    assert.equal(formatAmount(1n, "CLF"), "0.0001");
  });

  it("throws for an unknown currency because that is a bug in the caller", () => {
    assert.throws(() => formatAmount(1n, "XYZ"), Error);
  });
});

describe("money round trips", () => {
  const currency = fc.constantFrom(...knownCurrencies());

  it("parses back every amount it formats, in every known currency", () => {
    fc.assert(
      fc.property(currency, fc.bigInt(), (code, seed) => {
        const limit = 10n ** BigInt(14 + (currencyMinorUnits(code) ?? 0));
        const minor = seed % limit; // stays within 14 integer digits
        assert.deepEqual(parseAmount(formatAmount(minor, code), code), { ok: true, minor });
      }),
    );
  });

  it("formats every accepted amount to text that parses to the same minor units", () => {
    const text = fc.stringMatching(/^-?[0-9]{1,14}(\.[0-9]{1,3})?$/);
    fc.assert(
      fc.property(text, currency, (t, code) => {
        const parsed = parseAmount(t, code);
        if (!parsed.ok) return;
        const again = parseAmount(formatAmount(parsed.minor, code), code);
        assert.deepEqual(again, parsed);
      }),
    );
  });
});
