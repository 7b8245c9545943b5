/**
 * The one place ids are minted. Every id a TPP or a browser can see carries at least 122 random
 * bits, so guessing another party's resource is hopeless (lookups are scoped as well).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";

/**
 * Random bytes fetched 256 ids at a time, as randomUUID does: asking the CSPRNG for 16 bytes cost
 * 2 % of a payment creation's CPU (a synchronous call into OpenSSL per id).
 */
const POOL_BYTES = 16 * 256;
let pool = Buffer.alloc(0);
let taken = POOL_BYTES;

/** 32 lowercase hex characters (128 bits), the spec's paymentId form. */
export function newPaymentId(): string {
  if (taken === POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  taken += 16;
  return pool.toString("hex", taken - 16, taken);
}

/** A random UUID (122 bits), the spec's consentId form. */
export function newUuid(): string {
  return randomUUID();
}

/**
 * UUIDv7 layout: `ms` in the 48-bit time field, then the 74 random bits of a random UUID, or 12
 * bits of `sequence` and its 62 others.
 */
function uuidAt(ms: number, sequence?: number): string {
  const time = ms.toString(16).padStart(12, "0");
  // randomUUID is "xxxxxxxx-xxxx-4xxx-...": its first 12 hex digits and version give way.
  const random = randomUUID();
  const next = sequence?.toString(16).padStart(3, "0") ?? random.slice(15, 18);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${next}${random.slice(18)}`;
}

/**
 * Ids for bulk-generated history (scale-test data sets), never for live resources: a counter from
 * `startMs` in the time field, so that a bulk load appends to the id indexes instead of touching
 * a random page per row.
 */
export function orderedUuids(startMs: number): () => string {
  let next = startMs;
  return () => uuidAt(next++);
}

const SEQUENCES_PER_MS = 0x1000;
let lastMs = 0;
let sequence = 0;

/**
 * Ids of rows nobody outside the bank sees (audit entries), written many a second: ordered by
 * time, so that inserting appends to the id index instead of touching a random page of it.
 * Within one millisecond they count up (RFC 9562 6.2, a 12-bit counter): the operator's "newest
 * first" must not turn two answers of one millisecond around. Past 4,096 in one millisecond the
 * time field runs ahead of the clock until the clock catches up.
 */
export function newTimeOrderedUuid(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence === SEQUENCES_PER_MS) {
    lastMs += 1;
    sequence = 0;
  }
  return uuidAt(lastMs, sequence);
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
