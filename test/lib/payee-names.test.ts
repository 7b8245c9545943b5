/** The Verification of Payee name rules (docs/tpp-guide.md), as a table of given and held names. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { editDistance, matchName, type NameMatch } from "../../src/lib/payee-names.js";

const PAIRS: [given: string, held: string, expected: NameMatch][] = [
  // Case, accents, punctuation, spacing, word order.
  ["alice schmidt", "Alice Schmidt", "MTCH"],
  ["José  Müller", "Jose Mueller", "MTCH"],
  ["Jose Muller", "José Müller", "CMTC"],
  ["Straße-Bau GmbH", "Strasse Bau GmbH", "MTCH"],
  ["Schmidt, Alice", "Alice Schmidt", "MTCH"],
  ["O'Brien Sean", "Sean OBrien", "MTCH"],
  ["Sean O'Brien", "Sean O Brien", "MTCH"],
  ["Sean O-Brien", "Sean O Brien", "MTCH"],
  ["Meyer & Söhne", "Meyer und Soehne", "MTCH"],
  // Legal forms spelt out or abbreviated.
  ["Merchant Gesellschaft mit beschränkter Haftung", "Merchant GmbH", "MTCH"],
  ["Acme Limited", "ACME Ltd.", "MTCH"],
  ["Dupont S.A.", "Dupont SA", "MTCH"],
  ["Bakker B.V.", "Bakker BV", "MTCH"],
  // A legal form on one side only: close; two different legal forms: no match.
  ["Merchant", "Merchant GmbH", "CMTC"],
  ["Merchant GmbH", "Merchant AG", "NMTC"],
  // A missing middle name, an initial.
  ["Alice Schmidt", "Alice Marie Schmidt", "CMTC"],
  ["Alice Marie Schmidt", "Alice Schmidt", "CMTC"],
  ["A. Schmidt", "Alice Schmidt", "CMTC"],
  ["B. Schmidt", "Alice Schmidt", "NMTC"],
  // Typos: one edit, two from twelve letters, a swap.
  ["Alice Schmitd", "Alice Schmidt", "CMTC"],
  ["Alcie Schmidt", "Alice Schmidt", "CMTC"],
  ["Alice Shmit", "Alice Schmidt", "NMTC"],
  ["Alexander Shmit", "Alexander Schmidt", "CMTC"],
  ["Bob Mayr", "Bob Meyer", "NMTC"],
  ["Jon Smith", "John Smith", "CMTC"],
  // Someone else.
  ["Bob Meyer", "Alice Schmidt", "NMTC"],
  ["Alice", "Alice Schmidt", "NMTC"],
  ["GmbH", "Merchant GmbH", "NMTC"],
  ["", "Alice Schmidt", "NMTC"],
];

test("the name rules, pair by pair", () => {
  const wrong = PAIRS.map(([given, held, expected]) => ({ given, held, expected,
    got: matchName(given, held) })).filter((r) => r.got !== r.expected);
  assert.deepEqual(wrong, []);
});

test("edit distance counts a swap of neighbours as one, and stops past its limit", () => {
  assert.equal(editDistance("schmidt", "schmitd", 2), 1);
  assert.equal(editDistance("kitten", "sitting", 5), 3);
  assert.equal(editDistance("a", "abcdef", 2), 3);
});
