/**
 * What a basket's holding means for its items: a payment or consent held by a basket is not
 * authorised, cancelled or deleted on its own (RESOURCE_BLOCKED), since the basket's one SCA
 * decides it.
 */
import type { Tx } from "../ports.js";
import type { Deps } from "../deps.js";
import { heldByBasket } from "../errors.js";
import type { BasketItem } from "./model.js";

/** Throws RESOURCE_BLOCKED while a basket holds `item`. */
export async function refuseIfHeld({ store }: Pick<Deps, "store">, tx: Tx, item: BasketItem) {
  const basketId = await store.baskets.holderOf(tx, item);
  if (basketId !== undefined) throw heldByBasket(item.type, basketId);
}
