/**
 * X-Request-ID as an idempotency key for creating requests: the key is claimed in the same
 * transaction that stores the resource, so a retry after a lost answer gets the first answer
 * and creates nothing; the same key with a different body is refused.
 */
import type { Tx } from "./ports.js";
import type { Deps } from "./deps.js";
import { requestIdReused } from "./errors.js";

export interface StoredResponse { statusCode: number; body: unknown }

export function createIdempotency({ store, clock }: Pick<Deps, "store" | "clock">) {
  /**
   * Runs `work` once per (TPP, X-Request-ID). Throws FORMAT_ERROR for a reused id with another
   * body. Refusals thrown by `work` roll back the claim, so a corrected retry may reuse the id.
   */
  async function once(
    key: { tppId: string; requestId: string; bodyHash: string },
    work: (tx: Tx) => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    return store.transaction(async (tx) => {
      const at = clock.now().toISOString();
      if (await store.idempotency.claim(tx, key.tppId, key.requestId, key.bodyHash, at)) {
        const response = await work(tx);
        await store.idempotency.complete(tx, key.tppId, key.requestId, response.statusCode,
          JSON.stringify(response.body));
        return response;
      }
      const earlier = await store.idempotency.find(tx, key.tppId, key.requestId);
      if (!earlier || earlier.bodyHash !== key.bodyHash) {
        throw requestIdReused();
      }
      return { statusCode: earlier.statusCode, body: JSON.parse(earlier.responseBody) };
    });
  }

  return { once };
}
