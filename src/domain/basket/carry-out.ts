/**
 * After the PSU's decision on a signing basket, each item is carried out as if decided on its
 * own (a payment executed by its rules, a consent valid; or refused), each in a transaction of
 * its own: the ledger refusing one payment makes it RJCT without undoing the others. An item is
 * released and decided in one transaction, so a crash between items leaves the rest held, and
 * the sweep (or the next run) carries them out, each once.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { consentSubject } from "../consent/subject.js";
import { rejectIfScaExpired } from "../payment/expiry.js";
import { paymentSubject } from "../payment/subject.js";
import type { ScaSubject } from "../sca/subject.js";
import type { Basket, BasketItem } from "./model.js";
import { isOpenBasket } from "./transitions.js";

/** An item as a subject of its own, released from the basket. */
async function itemSubject(deps: Deps, tx: Tx, item: BasketItem): Promise<ScaSubject | null> {
  const { store } = deps;
  if (item.type === "consent") {
    const consent = await store.consents.find(tx, item.id);
    return consent ? consentSubject(deps, { type: "consent", consent }) : null;
  }
  const found = await store.payments.find(tx, item.id);
  if (!found) return null;
  const payment = await rejectIfScaExpired(deps, tx, found);
  return paymentSubject(deps, { type: "payment", payment, cancellation: false, entries: [] });
}

/**
 * One item, released in the same transaction; one that no longer awaits its PSU (its SCA timed
 * out meanwhile) keeps its status.
 */
async function carryOutItem(
  deps: Deps, basket: Basket, item: BasketItem, signers: readonly (string | null)[],
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    if (!(await deps.store.baskets.releaseItem(tx, basket.id, item))) return;
    const confirmed = basket.status === "ACTC";
    // Multi-level SCA: the item takes each signature the basket took, until it needs no more.
    for (const psuId of confirmed ? signers : [basket.psuId]) {
      const subject = await itemSubject(deps, tx, item);
      if (!subject?.awaiting) return;
      await subject.decideWithoutReview(tx, { session: { psuId }, authorisation: null }, confirmed);
    }
  });
}

/** The users who signed the basket, first first; the one who decided it when none is known. */
async function signersOf(deps: Deps, basket: Basket): Promise<(string | null)[]> {
  const signed = (await deps.store.sca.authorisationsOf(deps.store.db, basket.id))
    .filter((a) => a.scaStatus === "finalised" && a.psuId !== null).map((a) => a.psuId);
  return signed.length > 0 ? [...new Set(signed)] : [basket.psuId];
}

/** Carries out the items a decided basket still holds; a basket still open is left alone. */
export async function carryOut(deps: Deps, basketId: string): Promise<void> {
  const { store } = deps;
  const basket = await store.baskets.find(store.db, basketId);
  if (!basket || isOpenBasket(basket.status)) return;
  const signers = await signersOf(deps, basket);
  for (const item of await store.baskets.heldItems(store.db, basketId)) {
    await carryOutItem(deps, basket, item, signers);
  }
}

/** The sweep: baskets a crash left half carried out. Returns how many it finished. */
export async function carryOutUnfinished(deps: Deps): Promise<number> {
  const unfinished = await deps.store.baskets.unfinished(deps.store.db, 100);
  for (const id of unfinished) await carryOut(deps, id);
  return unfinished.length;
}
