/**
 * Limits per key, in memory: a fixed-window counter (a client address for PSU logins), and how
 * many operations of a key (a TPP's password checks) run at once. They guard this
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

/** How many operations per key run at once, in memory: a burst of one key cannot take all. */
export interface ConcurrencyLimit {
  /** Runs `work` unless `key` has `limit` running already; then answers undefined at once. */
  run<T>(key: string, work: () => Promise<T>): Promise<{ value: T } | undefined>;
}

/** `limit` 0: no limit. */
export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  const running = new Map<string, number>();
  return {
    async run(key, work) {
      const now = running.get(key) ?? 0;
      if (limit > 0 && now >= limit) return undefined;
      running.set(key, now + 1);
      try {
        return { value: await work() };
      } finally {
        const left = (running.get(key) ?? 1) - 1;
        if (left === 0) running.delete(key);
        else running.set(key, left);
      }
    },
  };
}
