/**
 * This bank as the responding PSP of Verification of Payee: another bank asks whether a name is
 * the holder of one of our accounts. The answer follows the scheme: the outcome, and the held
 * name for a close match only; each requester is limited per minute across instances.
 */
import { validateIban } from "../../lib/iban.js";
import type { Deps } from "../deps.js";
import { formatError } from "../errors.js";
import type { VopOutcome } from "./ports.js";

const MINUTE_MS = 60_000;

export type VopAnswer = { outcome: VopOutcome; at: string } | { retryAfterSeconds: number };

export interface VopResponder {
  /** The outcome, or the wait once the requester is over its limit; FORMAT_ERROR for an IBAN. */
  answer(requesterId: string, payee: { iban: string; name: string }): Promise<VopAnswer>;
}

export function createVopResponder(
  { store, clock, vop }: Pick<Deps, "store" | "clock" | "vop">, requestsPerMinute: number,
): VopResponder {
  /** 0 when the request may proceed, else the seconds until the requester's next window. */
  async function admit(requesterId: string): Promise<number> {
    if (requestsPerMinute <= 0) return 0;
    const now = clock.now().getTime();
    const windowStart = now - (now % MINUTE_MS);
    // Counted beside the TPP API's own limit, under a key of its own.
    const count = await store.tpps.countRequest(store.db, `vop:${requesterId}`,
      new Date(windowStart).toISOString());
    return count <= requestsPerMinute
      ? 0 : Math.max(1, Math.ceil((windowStart + MINUTE_MS - now) / 1000));
  }
  return {
    async answer(requesterId, payee) {
      const checked = validateIban(payee.iban);
      if (!checked.ok) {
        throw formatError("body", "partyAccount.iban",
          `"${payee.iban}" is not a valid IBAN (${checked.problem}).`);
      }
      const retryAfterSeconds = await admit(requesterId);
      if (retryAfterSeconds > 0) return { retryAfterSeconds };
      const outcome = await vop.respond(store.db, { iban: checked.iban, name: payee.name });
      return { outcome, at: clock.now().toISOString() };
    },
  };
}
