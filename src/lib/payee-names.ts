/**
 * Verification of Payee name matching (EPC VOP scheme): whether the name a payer gave is the
 * name the payee's bank holds for the IBAN. The rules (README, "Verification of Payee"):
 * - German umlauts read as their two-letter spelling (ü as ue); case, accents, apostrophes,
 *   other punctuation (read as a space), spacing and word order never matter; "&" and "+" read
 *   as "and", and "and" in any of four languages is left out; nor does the spelling of a legal
 *   form ("Gesellschaft mit beschraenkter Haftung" is "GmbH", "Limited" is "Ltd").
 * - Match (MTCH): the same words after that.
 * - Close match (CMTC): one name lacks a legal form the other has, or one word (a middle name)
 *   the other has, or abbreviates a word to its initial; or the names differ by a typo: an
 *   edit distance (insert, delete, substitute, swap two neighbours) of 1, or 2 from 12 letters.
 *   A close match answers the held name, so it needs a given name of CLOSE_MIN_LETTERS letters
 *   at least with CLOSE_MIN_SHARE of the held name's letters, and one whole word: initials
 *   ("A S") must not buy the holder's name.
 * - No match (NMTC): anything else.
 */
export type NameMatch = "MTCH" | "CMTC" | "NMTC";

/** Spellings of one legal form, each mapped to its canonical abbreviation. */
const LEGAL_FORMS: Record<string, readonly string[]> = {
  gmbh: ["gmbh", "gesellschaft mit beschraenkter haftung", "gesellschaft mit beschrankter haftung"],
  ag: ["ag", "aktiengesellschaft"],
  kg: ["kg", "kommanditgesellschaft"],
  ohg: ["ohg", "offene handelsgesellschaft"],
  ek: ["ek", "e k", "eingetragener kaufmann", "eingetragene kauffrau"],
  ev: ["ev", "e v", "eingetragener verein"],
  ug: ["ug", "unternehmergesellschaft"],
  ltd: ["ltd", "limited"],
  plc: ["plc", "public limited company"],
  llc: ["llc", "limited liability company"],
  inc: ["inc", "incorporated"],
  corp: ["corp", "corporation"],
  co: ["co", "company", "cie", "compagnie"],
  sa: ["sa", "s a", "societe anonyme", "sociedad anonima"],
  sarl: ["sarl", "s a r l", "societe a responsabilite limitee"],
  sas: ["sas", "s a s", "societe par actions simplifiee"],
  srl: ["srl", "s r l", "societa a responsabilita limitata"],
  spa: ["spa", "s p a", "societa per azioni"],
  bv: ["bv", "b v", "besloten vennootschap"],
  nv: ["nv", "n v", "naamloze vennootschap"],
  se: ["se", "societas europaea"],
};

const FORM_OF = new Map<string, string>();
for (const [canonical, spellings] of Object.entries(LEGAL_FORMS)) {
  for (const spelling of spellings) FORM_OF.set(spelling, canonical);
}
const LONGEST_FORM = Math.max(...[...FORM_OF.keys()].map((k) => k.split(" ").length));

const CONNECTORS = new Set(["und", "and", "et", "y"]);

/** Lowercase words without accents or punctuation; "&" and "+" read as "and". */
function words(name: string): string[] {
  const plain = name.replace(/[äÄ]/g, "ae").replace(/[öÖ]/g, "oe").replace(/[üÜ]/g, "ue")
    .normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/ß/g, "ss").replace(/['’`]/g, "").replace(/[&+]/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ");
  return plain.split(" ").filter((w) => w !== "" && !CONNECTORS.has(w));
}

interface Parsed {
  words: string[];
  forms: string[];
  /** The words in their order without spaces: "Sean O Brien" is "seanobrien". */
  compact: string;
}

/** Splits a name into its words and its legal forms (canonical), longest spelling first. */
function parse(name: string): Parsed {
  const all = words(name);
  const out: Parsed = { words: [], forms: [], compact: "" };
  for (let i = 0; i < all.length;) {
    const span = [...Array(Math.min(LONGEST_FORM, all.length - i)).keys()].reverse()
      .map((n) => all.slice(i, i + n + 1).join(" ")).find((s) => FORM_OF.has(s));
    if (span === undefined) {
      out.words.push(all[i] as string);
      i += 1;
    } else {
      out.forms.push(FORM_OF.get(span) as string);
      i += span.split(" ").length;
    }
  }
  out.compact = out.words.join("");
  out.words.sort();
  out.forms.sort();
  return out;
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Optimal string alignment distance, stopping once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      current.push(d);
    }
    if (Math.min(...current) > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** One word list is the other with one word left out (two words at least remain). */
function missingOneWord(shorter: readonly string[], longer: readonly string[]): boolean {
  if (shorter.length < 2 || longer.length !== shorter.length + 1) return false;
  const rest = [...longer];
  return shorter.every((w) => {
    const at = rest.indexOf(w);
    if (at >= 0) rest.splice(at, 1);
    return at >= 0;
  });
}

/** Same number of words and each given word either equal or the held word's initial. */
function initialsOf(given: readonly string[], held: readonly string[]): boolean {
  if (given.length !== held.length || given.length < 2) return false;
  const rest = [...held];
  const full = given.filter((w) => w.length > 1);
  if (!full.every((w) => {
    const at = rest.indexOf(w);
    if (at >= 0) rest.splice(at, 1);
    return at >= 0;
  })) return false;
  const initials = given.filter((w) => w.length === 1).sort();
  return initials.length > 0 && same(initials, rest.map((w) => w[0] ?? "").sort());
}

function typo(a: readonly string[], b: readonly string[]): boolean {
  const x = a.join(" ");
  const y = b.join(" ");
  const limit = Math.min(x.length, y.length) >= 12 ? 2 : 1;
  return editDistance(x, y, limit) <= limit;
}

/** Fewer letters given than this are never a close match. */
export const CLOSE_MIN_LETTERS = 5;
/** Nor are fewer than this share of the held name's letters. */
export const CLOSE_MIN_SHARE = 0.5;

/** Whether the given name says enough of the held one to be told it (a close match). */
function enoughForClose(g: Parsed, h: Parsed): boolean {
  return g.compact.length >= CLOSE_MIN_LETTERS
    && g.compact.length >= CLOSE_MIN_SHARE * h.compact.length
    && g.words.some((w) => w.length > 1);
}

export function matchName(given: string, held: string): NameMatch {
  const g = parse(given);
  const h = parse(held);
  if (g.words.length === 0) return "NMTC";
  const sameWords = same(g.words, h.words) || g.compact === h.compact;
  if (sameWords && same(g.forms, h.forms)) return "MTCH";
  if (!enoughForClose(g, h)) return "NMTC";
  if (sameWords && (g.forms.length === 0 || h.forms.length === 0)) return "CMTC";
  if (!same(g.forms, h.forms) && g.forms.length > 0 && h.forms.length > 0) return "NMTC";
  const close = missingOneWord(g.words, h.words) || missingOneWord(h.words, g.words)
    || initialsOf(g.words, h.words) || typo(g.words, h.words);
  return close ? "CMTC" : "NMTC";
}
