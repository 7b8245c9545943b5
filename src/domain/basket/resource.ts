/** A signing basket as its SCA session sees it: the basket with its items as they stand now. */
import type { Tx } from "../ports.js";
import type { Consent } from "../consent/model.js";
import type { Deps } from "../deps.js";
import { rejectIfScaExpired } from "../payment/expiry.js";
import type { Payment } from "../payment/model.js";
import type { BasketResource } from "../sca/context.js";

export async function loadBasket(
  deps: Deps, tx: Tx, basketId: string,
): Promise<BasketResource | undefined> {
  const { store } = deps;
  const basket = await store.baskets.find(tx, basketId);
  if (!basket) return undefined;
  const payments: Payment[] = [];
  for (const id of basket.paymentIds) {
    const found = await store.payments.find(tx, id);
    if (found) payments.push(await rejectIfScaExpired(deps, tx, found));
  }
  const consents: Consent[] = [];
  for (const id of basket.consentIds) {
    const found = await store.consents.find(tx, id);
    if (found) consents.push(found);
  }
  return { type: "basket", basket, payments, consents };
}
