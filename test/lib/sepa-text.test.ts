/** Tests for src/lib/sepa-text.ts: the SEPA basic Latin character set. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isSepaText } from "../../src/lib/sepa-text.js";

const ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-?:().,'+ ";

describe("isSepaText", () => {
  it("accepts every character of the SEPA basic Latin set", () => {
    assert.equal(isSepaText(ALLOWED), true);
    assert.equal(isSepaText("Invoice 2024/17 (rent), ref: A-1+B'?"), true);
  });

  it("accepts the empty string, leaving required fields to the caller", () => {
    assert.equal(isSepaText(""), true);
  });

  it("refuses umlauts, symbols, control characters and other scripts", () => {
    const refused = ["ä", "ß", "é", "€", "&", "@", "_", "*", '"', ";", "!", "#", "%", "=", "\n"];
    for (const char of [...refused, "\t", "\u00a0", "ж", "日", "😀", "[", "]", "{", "}", "\\"]) {
      assert.equal(isSepaText(`abc${char}def`), false, JSON.stringify(char));
    }
  });

  it("accepts any string made only of allowed characters", () => {
    const unit = fc.constantFrom(...ALLOWED);
    fc.assert(fc.property(fc.string({ unit }), (text) => isSepaText(text)));
  });

  it("refuses any string holding a character outside the set", () => {
    const outside = fc
      .integer({ min: 0, max: 0x10ffff })
      .map((codePoint) => String.fromCodePoint(codePoint))
      .filter((char) => !ALLOWED.includes(char));
    const unit = fc.constantFrom(...ALLOWED);
    fc.assert(
      fc.property(fc.string({ unit }), outside, fc.string({ unit }), (before, bad, after) => {
        assert.equal(isSepaText(before + bad + after), false);
      }),
    );
  });
});
