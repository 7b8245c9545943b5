/**
 * PSU passwords as argon2id hashes with OWASP's parameters m = 7 MiB, t = 5, p = 1: one of the
 * five sets the OWASP Password Storage Cheat Sheet lists as "an equal level of defense" beside the
 * m = 19 MiB, t = 2 our security rules name, the one with the least memory (two hashes at once
 * took 38 MiB of the bank's peak memory, now 14 MiB) for about the same CPU. Each hash records its
 * parameters, so hashes made with the earlier set keep verifying.
 */
import { hash, verify } from "@node-rs/argon2";
import type { Passwords } from "../domain/deps.js";
import { newSecret } from "../lib/ids.js";

// 2 is Argon2id in @node-rs/argon2's Algorithm enum (a const enum, not importable at run time).
const OPTIONS = { algorithm: 2, memoryCost: 7168, timeCost: 5, parallelism: 1 } as const;

/**
 * Hashes at once, each holding its memory cost: without a bound, a burst of logins would take
 * that much per thread of the pool. One, not two: the PSU logins raised the bench's peak RSS by
 * 12-15 MB with two, 5-8 MB with one, and the full payment with PSU steps ran no slower in turns;
 * one hash is about 10 ms of CPU, so a process still checks about 100 passwords a second
 * (docs/performance.md, "Round two, memory: a fifth pass").
 */
const CONCURRENT_HASHES = 1;

function createSemaphore(permits: number) {
  let free = permits;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

const hashing = createSemaphore(CONCURRENT_HASHES);

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, OPTIONS));
}

export function createPasswords(): Passwords {
  let dummy: Promise<string> | undefined;
  return {
    async verify(stored, password) {
      // An unknown login still costs one verification, so response times do not tell it apart.
      dummy ??= hashPassword(newSecret());
      const hashToCheck = stored ?? (await dummy);
      const matches = await hashing(() => verify(hashToCheck, password)).catch(() => false);
      return stored !== null && matches;
    },
    hash: hashPassword,
  };
}
