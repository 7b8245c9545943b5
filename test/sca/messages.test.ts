/**
 * The catalogues: every language has every key, no empty text, and the same {placeholders} as
 * English, so no page shows a key name, a hole or a stray English word in another language.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LANGUAGES } from "../../src/lib/languages.js";
import { CATALOGUES, pickLanguage, translator } from "../../src/sca/messages/index.js";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const english = CATALOGUES.en as Record<string, string>;

test("the pages speak English, German and four more SEPA languages", () => {
  assert.deepEqual(Object.keys(CATALOGUES).sort(), [...LANGUAGES].sort());
  assert.ok(LANGUAGES.length >= 4);
});

for (const lang of LANGUAGES) {
  test(`the ${lang} catalogue has exactly the English keys, each non-empty`, () => {
    const catalogue = CATALOGUES[lang] as Record<string, string>;
    const missing = Object.keys(english).filter((key) => !(key in catalogue));
    const extra = Object.keys(catalogue).filter((key) => !(key in english));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
    for (const [key, text] of Object.entries(catalogue)) {
      assert.notEqual(text.trim(), "", `${lang}.${key} is empty`);
      assert.deepEqual(placeholders(text), placeholders(english[key] ?? ""), `${lang}.${key} placeholders`);
    }
  });
}

test("each non-English catalogue is translated, not a copy of English", () => {
  for (const lang of LANGUAGES.filter((l) => l !== "en")) {
    const catalogue = CATALOGUES[lang] as Record<string, string>;
    const same = Object.keys(english).filter((key) => catalogue[key] === english[key]);
    // A few words are the same in both languages (e.g. "Password" in Italian); whole pages are not.
    assert.ok(same.length <= 3, `${lang} repeats English for ${same.join(", ")}`);
  }
});

test("placeholders are filled and an unknown language falls back along the choices to English", () => {
  assert.equal(translator("fr")("intro_payment", { tpp: "Demo TPP" }),
    "Demo TPP vous demande d'autoriser un paiement.");
  assert.equal(pickLanguage("xx", undefined, "nl", "de"), "nl");
  assert.equal(pickLanguage("xx", undefined), "en");
  assert.equal(translator("xx")("button_cancel"), "Cancel");
});
