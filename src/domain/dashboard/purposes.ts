/** The purpose a TPP declared for what it created, taken in the creation's transaction (PSR). */
import type { StoreDeps } from "../deps.js";
import type { Tx } from "../kernel/ports.js";

export interface DeclaredPurposes {
  declare(tx: Tx, resourceId: string, purpose: string): Promise<void>;
}

export function createDeclaredPurposes(
  { store, clock }: StoreDeps<"permissions", "clock">,
): DeclaredPurposes {
  return {
    declare: (tx, resourceId, purpose) =>
      store.permissions.declarePurpose(tx, resourceId, purpose, clock.now().toISOString()),
  };
}
