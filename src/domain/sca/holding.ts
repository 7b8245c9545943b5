/**
 * A payment or consent a signing basket holds is not authorised, cancelled or deleted on its own
 * (RESOURCE_BLOCKED): the basket's one SCA decides it. Asked of the basket's storage port, so that
 * neither payment/ nor consent/ knows baskets.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { heldByBasket } from "../kernel/errors.js";

/** What a basket may hold, by the resource's id. */
export interface HeldItem { type: "payment" | "consent"; id: string }

/** The signing basket holding `item`, if one does, as a subject's `heldBy`. */
export async function holderOf({ store }: Pick<Deps, "store">, tx: Tx, item: HeldItem) {
  const basketId = await store.baskets.holderOf(tx, item);
  return basketId === undefined ? {} : { heldBy: basketId };
}

/** Throws RESOURCE_BLOCKED while a basket holds `item`. */
export async function refuseIfHeld({ store }: Pick<Deps, "store">, tx: Tx, item: HeldItem) {
  const basketId = await store.baskets.holderOf(tx, item);
  if (basketId !== undefined) throw heldByBasket(item.type, basketId);
}
