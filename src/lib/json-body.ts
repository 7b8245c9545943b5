/**
 * JSON request bodies without silent float rounding and without prototype poisoning.
 * A number literal a double cannot carry exactly enough to print back the same value is handed
 * on as its literal text, so money parsing sees "1.0000000000000000001" and refuses it instead
 * of seeing 1 and booking it.
 */

/** A decimal reduced to sign, significant digits and exponent: 1e2, 100 and 100.0 are equal. */
interface CanonicalDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

// Covers JSON number grammar and what String(number) prints for finite numbers ("1e+21").
const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

function canonical(text: string): CanonicalDecimal | undefined {
  const match = DECIMAL.exec(text);
  if (match === null) return undefined;
  const [, sign = "", whole = "", fraction = "", exponentText = "0"] = match;
  const all = whole + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return { negative: false, digits: "", exponent: 0 }; // every zero is one zero
  let last = all.length;
  while (all.charCodeAt(last - 1) === 48) last--;
  return {
    negative: sign === "-",
    digits: all.slice(first, last),
    exponent: Number(exponentText) - fraction.length + (all.length - last),
  };
}

/**
 * True when a JSON number literal's value survives a trip through a double and back to decimal
 * (compared as digits and exponent). Only meaningful for text that is a JSON number literal.
 */
export function numberRoundTrips(literal: string): boolean {
  // At most 15 significant digits without an exponent always survive (DBL_DIG is 15).
  if (literal.length <= 15 && !/[eE]/.test(literal)) return true;
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  const written = canonical(literal);
  const read = canonical(String(value));
  if (written === undefined || read === undefined) return false;
  return (
    written.digits === read.digits &&
    written.exponent === read.exponent &&
    (written.digits === "" || written.negative === read.negative)
  );
}

function isNumberStart(code: number): boolean {
  return code === 45 || (code >= 48 && code <= 57); // '-' or a digit
}

function isNumberChar(code: number): boolean {
  // digits . + - e E: greedy, so a malformed literal is taken whole and left for JSON.parse.
  const digit = code >= 48 && code <= 57;
  return digit || code === 46 || code === 43 || code === 45 || (code | 32) === 101;
}

/** Index just past the string opening at `open`; indexOf jumps, since most of a body is text. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0) {
    // The quote ends the string unless an odd run of backslashes escapes it.
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
  return text.length; // unterminated: JSON.parse will say so
}

/**
 * One pass over the text: skips strings, and quotes every number literal that does not round
 * trip. Returns the text unchanged (the same string) when nothing needed quoting.
 */
function quoteInexactNumbers(text: string): string {
  let out = "";
  let copiedUpTo = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 34) {
      i = stringEnd(text, i);
    } else if (isNumberStart(code)) {
      const start = i;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (JSON_NUMBER.test(literal) && !numberRoundTrips(literal)) {
        out += `${text.slice(copiedUpTo, start)}"${literal}"`;
        copiedUpTo = i;
      }
    } else {
      i++;
    }
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

function refusePoisonKeys(key: string, value: unknown): unknown {
  // Array indices are digit strings, so only object keys can ever match here.
  if (key === "__proto__" || key === "constructor") {
    throw new SyntaxError(`JSON body has a forbidden key ${JSON.stringify(key)}`);
  }
  return value;
}

/**
 * Parses JSON text like JSON.parse, with two differences: a number literal that does not round
 * trip through a double is kept as its literal text (a string); any object key "__proto__" or
 * "constructor" throws a SyntaxError. Throws SyntaxError on invalid JSON.
 */
export function parseJsonBody(text: string): unknown {
  const rewritten = quoteInexactNumbers(text);
  // Quoting a literal in a key position would turn invalid JSON valid ({1e400:1}), so the
  // original text is parsed first whenever something was quoted; this is the rare path.
  if (rewritten !== text) JSON.parse(text);
  // A key can only spell a forbidden name through the text itself or a \u escape; without
  // either, no reviver is needed and JSON.parse runs at full speed.
  const suspicious =
    text.includes("__proto__") || text.includes("constructor") || text.includes("\\u");
  return suspicious ? JSON.parse(rewritten, refusePoisonKeys) : JSON.parse(rewritten);
}
