/**
 * Limits per key, in memory: a fixed-window counter (a client address for PSU logins), and how
 * many operations of a key (a TPP's password checks) run at once. They guard this
 * process's CPU against a flood of password hashing, which is what a flood exhausts; a business
 * limit shared by all instances (per TPP) is counted in the database instead
 * (domain/kernel/tpps.ts).
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

/** What is open per key (operations, connections); a key with nothing open takes no memory. */
export function createOpenCount() {
  const open = new Map<string, number>();
  return {
    /** Counts one more under `key` unless `limit` (0: none) are open; false then. */
    enter(key: string, limit: number): boolean {
      const now = open.get(key) ?? 0;
      if (limit > 0 && now >= limit) return false;
      open.set(key, now + 1);
      return true;
    },
    leave(key: string): void {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    },
  };
}

/** `limit` 0: no limit. */
export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  const running = createOpenCount();
  return {
    async run(key, work) {
      if (!running.enter(key, limit)) return undefined;
      try {
        return { value: await work() };
      } finally {
        running.leave(key);
      }
    },
  };
}
