/** Card numbers (PANs): masking for display and the Luhn check digit. */

/** The first six and last four digits stay, as card schemes allow: 525412******3241. */
export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${"*".repeat(Math.max(pan.length - 10, 0))}${pan.slice(-4)}`;
}

/** The Luhn check digit that completes `digits` into a valid PAN. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isValidPan(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === pan.slice(-1);
}

/** A masked PAN as a TPP may send it: digits around a run of '*' or 'X'. */
export function readMaskedPan(text: string): string | null {
  const match = /^(\d{4,8})[*Xx]{2,12}(\d{4})$/.exec(text);
  return match && text.length <= 19 ? text.replace(/[Xx]/g, "*") : null;
}
