/**
 * The storage the signing basket needs, declared here and implemented by store/baskets.ts. An
 * item is held by at most one basket at a time (a unique index), from the basket's creation until
 * the basket is deleted or the item carried out after the PSU's decision.
 */
import type { Tx } from "../kernel/ports.js";
import type { Basket, BasketItem, BasketStatus } from "./model.js";

export interface BasketRepository {
  /** Inserts the basket and holds its items; false when one is held by another basket already. */
  insert(tx: Tx, basket: Basket): Promise<boolean>;
  /** Another TPP's basket is indistinguishable from an unknown one. */
  findForTpp(tx: Tx, id: string, tppId: string): Promise<Basket | undefined>;
  find(tx: Tx, id: string): Promise<Basket | undefined>;
  /** The basket holding this payment or consent now, if any. */
  holderOf(tx: Tx, item: BasketItem): Promise<string | undefined>;
  /**
   * Compare-and-set on the status (and, with `signaturesBefore`, on the count of signatures,
   * which it raises by one); answers whether this call made the change.
   */
  transition(
    tx: Tx, id: string, from: readonly BasketStatus[], to: BasketStatus,
    change: { at: string; psuId?: string; signaturesBefore?: number },
  ): Promise<boolean>;
  /** The items of a decided basket not carried out yet, in the basket's order. */
  heldItems(tx: Tx, basketId: string): Promise<BasketItem[]>;
  /** Releases one item (it is carried out now); false when another run released it first. */
  releaseItem(tx: Tx, basketId: string, item: BasketItem): Promise<boolean>;
  releaseItems(tx: Tx, basketId: string): Promise<void>;
  /** Decided baskets with items still held: what a crash left half carried out. */
  unfinished(tx: Tx, limit: number): Promise<string[]>;
}
