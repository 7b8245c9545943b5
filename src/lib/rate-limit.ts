/**
 * A fixed-window counter per key (a client address for PSU logins), in memory: it guards this
 * process's CPU against a flood of password hashing, which is what a flood exhausts; a business
 * limit shared by all instances (per TPP) is counted in the database instead (domain/tpps.ts).
 */
export interface RateLimit {
  /** Counts an attempt; 0 when allowed, else the seconds until the key may try again. */
  take(key: string): number;
}

/** Keys kept before expired windows are swept, so spoofed sources cannot grow memory forever. */
const SWEEP_AT = 10_000;

export function createRateLimit(limit: number, windowMs: number, now: () => number): RateLimit {
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = (at: number) => {
    for (const [key, w] of windows) if (at - w.start >= windowMs) windows.delete(key);
  };
  return {
    take(key) {
      const at = now();
      if (windows.size >= SWEEP_AT) sweep(at);
      const current = windows.get(key);
      if (!current || at - current.start >= windowMs) {
        windows.set(key, { start: at, count: 1 });
        return 0;
      }
      current.count += 1;
      if (current.count <= limit) return 0;
      return Math.max(1, Math.ceil((current.start + windowMs - at) / 1000));
    },
  };
}
