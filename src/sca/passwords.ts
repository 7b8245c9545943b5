/**
 * PSU passwords as argon2id hashes with OWASP's parameters (m = 19 MiB, t = 2, p = 1).
 */
import { hash, verify } from "@node-rs/argon2";
import type { Passwords } from "../domain/deps.js";
import { newSecret } from "../lib/ids.js";

// 2 is Argon2id in @node-rs/argon2's Algorithm enum (a const enum, not importable at run time).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function createPasswords(): Passwords {
  let dummy: Promise<string> | undefined;
  return {
    async verify(stored, password) {
      // An unknown login still costs one verification, so response times do not tell it apart.
      dummy ??= hashPassword(newSecret());
      const hashToCheck = stored ?? (await dummy);
      const matches = await verify(hashToCheck, password).catch(() => false);
      return stored !== null && matches;
    },
  };
}
