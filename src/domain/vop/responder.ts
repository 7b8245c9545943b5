/**
 * This bank as the responding PSP of Verification of Payee: another bank asks whether a name is
 * the holder of one of our accounts. The answer follows the scheme: the outcome, and the held
 * name for a close match only; each requester is limited per minute across instances, and so
 * are its no-match and close-match answers, which are what guessing holders' names produces.
 * An IBAN not held here and one whose check is not possible (a blocked or closed account)
 * answer alike, NOAP.
 */
import { validateIban } from "../../lib/iban.js";
import type { StoreDeps } from "../deps.js";
import { formatError } from "../kernel/errors.js";
import type { VopOutcome } from "./ports.js";

const MINUTE_MS = 60_000;

export type VopAnswer = { outcome: VopOutcome; at: string } | { retryAfterSeconds: number };

export interface VopResponder {
  /** The outcome, or the wait once the requester is over its limit; FORMAT_ERROR for an IBAN. */
  answer(requesterId: string, payee: { iban: string; name: string }): Promise<VopAnswer>;
}

export interface VopLimits {
  requestsPerMinute: number;
  /** NMTC and CMTC answers per requester and minute; over it, the answer is withheld. */
  mismatchesPerMinute: number;
}

export function createVopResponder(
  { store, clock, vop }: StoreDeps<"db" | "tpps", "clock" | "vop">, limits: VopLimits,
): VopResponder {
  /**
   * Counts under `key` (with `count` false only looks); 0 within `limit` (0: none), else the
   * seconds to the next window.
   */
  async function admit(key: string, limit: number, count = true): Promise<number> {
    if (limit <= 0) return 0;
    const now = clock.now().getTime();
    const windowStart = now - (now % MINUTE_MS);
    const window = new Date(windowStart).toISOString();
    // Counted beside the TPP API's own limit, under a key of its own.
    const counted = count ? await store.tpps.countRequest(store.db, key, window)
      : await store.tpps.requestsCounted(store.db, key, window) + 1;
    return counted <= limit ? 0 : Math.max(1, Math.ceil((windowStart + MINUTE_MS - now) / 1000));
  }
  return {
    async answer(requesterId, payee) {
      const checked = validateIban(payee.iban);
      if (!checked.ok) {
        throw formatError("body", "partyAccount.iban",
          `"${payee.iban}" is not a valid IBAN (${checked.problem}).`);
      }
      const misses = `vop-miss:${requesterId}`;
      // Once over its mismatches, a requester gets no answer at all, a match neither: a 429
      // only on mismatches would itself tell them apart.
      const retryAfterSeconds = await admit(`vop:${requesterId}`, limits.requestsPerMinute)
        || await admit(misses, limits.mismatchesPerMinute, false);
      if (retryAfterSeconds > 0) return { retryAfterSeconds };
      const outcome = await vop.respond(store.db, { iban: checked.iban, name: payee.name });
      if (outcome.result === "NMTC" || outcome.result === "CMTC") {
        await admit(misses, limits.mismatchesPerMinute);
      }
      return { outcome, at: clock.now().toISOString() };
    },
  };
}
