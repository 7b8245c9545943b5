/**
 * X-Request-ID as an idempotency key for creating requests: the key and its answer are stored in
 * the same transaction that stores the resource, so a retry after a lost answer gets the first
 * answer and creates nothing; the same key with a different body is refused.
 */
import type { Tx } from "./ports.js";
import type { StoreDeps } from "../deps.js";
import { requestIdReused, Xs2aError } from "./errors.js";

export interface StoredResponse { statusCode: number; body: unknown }

/** The key was stored by another request meanwhile: this one's work is rolled back. */
class KeyTaken extends Error {}

export function createIdempotency(
  { store, clock }: StoreDeps<"db" | "idempotency" | "claimedTransaction", "clock">,
) {
  /** The first answer under the key, or `error` when there is none. */
  async function earlierAnswer(
    key: { tppId: string; requestId: string; bodyHash: string }, error: unknown,
  ): Promise<StoredResponse> {
    const earlier = await store.idempotency.find(store.db, key.tppId, key.requestId);
    if (!earlier) throw error;
    if (earlier.bodyHash !== key.bodyHash) throw requestIdReused();
    return { statusCode: earlier.statusCode, body: JSON.parse(earlier.responseBody) };
  }

  /**
   * Runs `work` once per (TPP, X-Request-ID). Throws FORMAT_ERROR for a reused id with another
   * body. A refusal thrown by `work` stores nothing, so a corrected retry may reuse the id.
   * The key is stored after the work, with its answer, in one statement that claims it: a
   * request whose key is taken (a retry, or one racing the first) keeps nothing of its work and
   * answers the first answer.
   */
  async function once(
    key: { tppId: string; requestId: string; bodyHash: string },
    work: (tx: Tx) => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    let claimed: { value: StoredResponse } | undefined;
    try {
      claimed = await store.claimedTransaction(work, (tx, response) => store.idempotency.record(
        tx, { ...key, at: clock.now().toISOString() },
        { bodyHash: key.bodyHash, statusCode: response.statusCode,
          responseBody: JSON.stringify(response.body) }));
    } catch (error) {
      // Only a refusal or a taken key may hide an earlier answer; a failure stays what it was.
      if (!(error instanceof Xs2aError)) throw error;
      return earlierAnswer(key, error);
    }
    return claimed ? claimed.value : earlierAnswer(key, new KeyTaken());
  }

  return { once };
}
