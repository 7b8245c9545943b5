/**
 * Assertions for programming errors only. A failed assertion is a bug in psd2-bank, never a
 * refusal of a request: refusals are Xs2aError (src/domain/kernel/errors.ts).
 */
import { AssertionError } from "node:assert";

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError({ message });
}
