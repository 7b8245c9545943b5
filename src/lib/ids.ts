/**
 * The one place ids are minted. Every id a TPP or a browser can see carries at least 122 random
 * bits, so guessing another party's resource is hopeless (lookups are scoped as well).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";

/** 32 lowercase hex characters (128 bits), the spec's paymentId form. */
export function newPaymentId(): string {
  return randomBytes(16).toString("hex");
}

/** A random UUID (122 bits), the spec's consentId form. */
export function newUuid(): string {
  return randomUUID();
}

/** An opaque secret for cookies and CSRF tokens: 256 bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Secrets are stored hashed so that a read of the database cannot be replayed as a cookie. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
