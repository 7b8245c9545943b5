/**
 * The SEPA (EPC) basic Latin character set, the only characters every bank on a SEPA payment's
 * route is obliged to carry: a-z A-Z 0-9 / - ? : ( ) . , ' + and space.
 */

const SEPA_TEXT = /^[a-zA-Z0-9/\-?:().,'+ ]*$/;

/**
 * True when every character of `text` is in the SEPA basic Latin set. The empty string is
 * true: whether a field may be empty is the caller's rule, not the character set's.
 */
export function isSepaText(text: string): boolean {
  return SEPA_TEXT.test(text);
}
