/** Accept-Language negotiation against the PSU pages' languages. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { negotiateLanguage } from "../../src/lib/languages.js";

test("the highest-ranked supported language wins, by q and then by order", () => {
  assert.equal(negotiateLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7"), "fr");
  assert.equal(negotiateLanguage("pl, nl-BE;q=0.5, en;q=0.4"), "nl");
  assert.equal(negotiateLanguage("en;q=0.2, IT;q=0.9"), "it");
  assert.equal(negotiateLanguage("es, de"), "es");
});

test("nothing supported, q=0 or no header gives no language", () => {
  assert.equal(negotiateLanguage("pl, cs;q=0.5"), undefined);
  assert.equal(negotiateLanguage("de;q=0"), undefined);
  assert.equal(negotiateLanguage(""), undefined);
  assert.equal(negotiateLanguage(undefined), undefined);
  assert.equal(negotiateLanguage("*"), undefined);
});
