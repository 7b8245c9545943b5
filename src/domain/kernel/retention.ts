/**
 * Records kept only for a while: the first answers to X-Request-IDs (retries within
 * IDEMPOTENCY_RETENTION_HOURS get them) and the ids of used redirect tokens (single use matters
 * only until the token expires). Without pruning both tables grow with every request.
 */
import type { StoreDeps } from "../deps.js";

/**
 * Instances' clocks differ a little: a token is forgotten an hour after it expired, so no
 * instance whose clock lags still takes it for unexpired and unused.
 */
const TOKEN_GRACE_MS = 3_600_000;

export function createRetention(
  { store, clock }: StoreDeps<"db" | "idempotency" | "sca", "clock">, idempotencyHours: number,
) {
  return {
    /** Deletes what is past its retention; returns how many of each. */
    async prune(): Promise<{ idempotency: number; tokens: number }> {
      const now = clock.now().getTime();
      const answersBefore = new Date(now - idempotencyHours * 3_600_000).toISOString();
      const tokensBefore = new Date(now - TOKEN_GRACE_MS).toISOString();
      const idempotency = await store.idempotency.forgetBefore(store.db, answersBefore);
      const tokens = await store.sca.forgetTokensExpiredBefore(store.db, tokensBefore);
      return { idempotency, tokens };
    },
  };
}
