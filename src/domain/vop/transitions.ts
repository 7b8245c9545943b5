/**
 * A VOP bulk's lifecycle (vopBulkStatus, Verification of Party 1.1): received when accepted,
 * pending once a scheduled run took it up, completed when every entry has its answer. The store
 * only compares and sets what this table says.
 */
import type { StoreDeps } from "../deps.js";
import type { Tx } from "../kernel/ports.js";
import type { VopBulkStatus } from "./ports.js";

interface BulkTransition { from: readonly VopBulkStatus[]; to: VopBulkStatus }

export const VOP_BULK_TRANSITIONS = {
  /** A run took the bulk up (a run after a restart takes up what one before left pending). */
  start: { from: ["recieved"], to: "pending" },
  /** Every entry has its answer. */
  complete: { from: ["pending"], to: "completed" },
} as const satisfies Record<string, BulkTransition>;

export const VOP_BULK_CREATION = {
  create: { from: [], to: "recieved" },
} as const satisfies Record<string, BulkTransition>;

export async function moveBulk(
  { store }: StoreDeps<"vopBulks">, tx: Tx, id: string,
  event: keyof typeof VOP_BULK_TRANSITIONS, at: string,
): Promise<boolean> {
  const { from, to }: BulkTransition = VOP_BULK_TRANSITIONS[event];
  return store.vopBulks.transition(tx, id, from, to, at);
}
