/**
 * The signing basket's lifecycle (transactionStatus_SBS) as one table: each event names the
 * statuses it may leave and the one it reaches. Every change goes through `moveBasket`, a
 * compare-and-set on the row, so of two racing events (the PSU's decision, the TPP's DELETE)
 * exactly one wins. Multi-level SCA: PATC while some but not all of its users' signatures are
 * given; it still holds its items, carried out once the last signature is given.
 */
import type { Tx } from "../kernel/ports.js";
import type { StoreDeps } from "../deps.js";
import type { BasketStatus } from "./model.js";

export interface BasketTransition { from: readonly BasketStatus[]; to: BasketStatus }

/** The statuses in which a basket still waits for its PSU and holds its items. */
export const OPEN_BASKET = ["RCVD", "PATC"] as const satisfies readonly BasketStatus[];

export const BASKET_STATUSES: readonly BasketStatus[] = ["RCVD", "PATC", "ACTC", "RJCT", "CANC"];

export const BASKET_TRANSITIONS = {
  /**
   * The PSU confirmed every item with one SCA (the last signature it needed); each item is then
   * carried out on its own.
   */
  authorise: { from: OPEN_BASKET, to: "ACTC" },
  /** One user of the company signed; more signatures are needed (multi-level SCA). */
  signPartly: { from: OPEN_BASKET, to: "PATC" },
  /** The PSU refused the basket, or its SCA failed: each item is refused as on its own. */
  refuse: { from: OPEN_BASKET, to: "RJCT" },
  /** The TPP deleted it before any authorisation; its items are free again, unchanged. */
  delete: { from: ["RCVD"], to: "CANC" },
} as const satisfies Record<string, BasketTransition>;

/** The "create" row: the status a basket is created in, from none. */
export const BASKET_CREATION = {
  create: { from: [], to: "RCVD" },
} as const satisfies Record<string, BasketTransition>;

export type BasketEvent = keyof typeof BASKET_TRANSITIONS;

export const BASKET_EVENTS = Object.keys(BASKET_TRANSITIONS) as BasketEvent[];

export const isOpenBasket = (status: BasketStatus): boolean =>
  (OPEN_BASKET as readonly BasketStatus[]).includes(status);

/**
 * Applies `event` as a compare-and-set on the basket's status; answers whether this call made the
 * change. Leaving the open statuses releases the items (a deleted basket's at once, a decided
 * basket's each when carried out).
 */
export async function moveBasket(
  { store }: StoreDeps<"baskets" | "notifications">, tx: Tx, basketId: string, event: BasketEvent,
  change: { at: string; psuId?: string; signaturesBefore?: number },
): Promise<boolean> {
  const { from, to }: BasketTransition = BASKET_TRANSITIONS[event];
  if (!(await store.baskets.transition(tx, basketId, from, to, change))) return false;
  if (event === "delete") await store.baskets.releaseItems(tx, basketId);
  await store.notifications.queue(tx, [{ resourceId: basketId, transactionStatus: to }],
    change.at);
  return true;
}
