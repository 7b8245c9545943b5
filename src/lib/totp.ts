/**
 * One-time passwords for SCA: RFC 4648 base32 (how authenticator apps exchange secrets),
 * RFC 4226 HOTP and RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s), on node:crypto only.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32, upper case, without '=' padding (authenticator apps want it unpadded). */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * RFC 4648 base32 decoding that accepts what people paste: lower case, spaces, trailing '='
 * padding. Any other character (including '=' before the end) throws a SyntaxError. Bits left
 * over after the last whole byte are dropped, as every authenticator does.
 */
export function base32Decode(text: string): Uint8Array {
  const compact = text.replaceAll(" ", "").toUpperCase().replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((compact.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of compact) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new SyntaxError(`base32Decode: invalid character ${JSON.stringify(char)}`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >>> bits) & 0xff;
    }
  }
  return out;
}

const MAX_COUNTER = (1n << 64n) - 1n;

function checkDigits(digits: number): void {
  // Dynamic truncation yields 31 bits, so more than 10 digits would only pad with zeros.
  if (!Number.isInteger(digits) || digits < 1 || digits > 10) {
    throw new RangeError(`OTP digits must be an integer 1..10, got ${digits}`);
  }
}

/** RFC 4226 HOTP: HMAC-SHA1 over the 8-byte big-endian counter, dynamic truncation. */
export function hotp(secret: Uint8Array, counter: bigint, digits = 6): string {
  checkDigits(digits);
  if (counter < 0n || counter > MAX_COUNTER) throw new RangeError("HOTP counter out of range");
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac("sha1", secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

function timeStep(timeMs: number, periodSeconds: number): bigint {
  if (!Number.isFinite(timeMs) || timeMs < 0) throw new RangeError("TOTP time out of range");
  if (!Number.isInteger(periodSeconds) || periodSeconds < 1) {
    throw new RangeError("TOTP period must be a positive integer of seconds");
  }
  return BigInt(Math.floor(timeMs / (periodSeconds * 1000)));
}

/** RFC 6238 TOTP at a given time (milliseconds since the Unix epoch). */
export function totpAt(
  secretBase32: string,
  timeMs: number,
  periodSeconds = 30,
  digits = 6,
): string {
  return hotp(base32Decode(secretBase32), timeStep(timeMs, periodSeconds), digits);
}

/**
 * The time step that matches `code` within ±window steps of timeMs (default window 1), or null.
 * The current step is preferred, then the nearer ones. Every candidate is computed and compared
 * in constant time, so the response time says nothing about which step, or how much, matched.
 * Returning the step lets callers refuse a code whose step was already used (single use).
 */
export function verifyTotp(
  secretBase32: string,
  code: string,
  timeMs: number,
  window = 1,
): bigint | null {
  if (!Number.isInteger(window) || window < 0) throw new RangeError("TOTP window must be >= 0");
  const digits = 6;
  if (!/^[0-9]{6}$/.test(code)) return null;
  const secret = base32Decode(secretBase32);
  const current = timeStep(timeMs, 30);
  const given = Buffer.from(code);
  const candidates = [current];
  for (let distance = 1n; distance <= BigInt(window); distance++) {
    candidates.push(current - distance, current + distance);
  }
  let matched: bigint | null = null;
  for (const step of candidates) {
    if (step < 0n) continue;
    const same = timingSafeEqual(Buffer.from(hotp(secret, step, digits)), given);
    if (same && matched === null) matched = step;
  }
  return matched;
}

/**
 * Key URI for authenticator apps (Google Authenticator format):
 * otpauth://totp/Issuer:account?secret=...&issuer=...&algorithm=SHA1&digits=6&period=30.
 * The secret is re-encoded canonically (upper case, unpadded); issuer and account are
 * percent-encoded, so a ':' inside either cannot be mistaken for the label separator.
 */
export function totpProvisioningUri(secretBase32: string, issuer: string, account: string): string {
  const secret = base32Encode(base32Decode(secretBase32));
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query =
    `secret=${secret}&issuer=${encodeURIComponent(issuer)}` + "&algorithm=SHA1&digits=6&period=30";
  return `otpauth://totp/${label}?${query}`;
}
