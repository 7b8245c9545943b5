/**
 * Verdicts on certificates are costly (parsing, chain, revocation) and asked for on every
 * request, while what they depend on changes slowly: a verdict is reused for a while, then
 * computed afresh, so a new CRL or OCSP answer still counts within that while.
 */
export interface RecheckCache<T> { get(key: string, compute: () => Promise<T>): Promise<T> }

/** `max` bounds the memory a flood of distinct keys can take: past it, everything is forgotten. */
export function createRecheckCache<T>(
  ttlMs: number, max: number, now: () => number = Date.now,
): RecheckCache<T> {
  const entries = new Map<string, { value: Promise<T>; at: number }>();
  return {
    get(key, compute) {
      const cached = entries.get(key);
      if (cached && now() - cached.at <= ttlMs) return cached.value;
      if (entries.size >= max) entries.clear();
      const value = compute();
      entries.set(key, { value, at: now() });
      return value;
    },
  };
}
