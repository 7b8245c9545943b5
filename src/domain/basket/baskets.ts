/**
 * Signing basket use cases on the TPP side: create one from the TPP's payments and consents that
 * await their authorisation, read it and its authorisations, start an authorisation, delete it
 * before its authorisation. The PSU's side (one SCA for every item) lives in decision.ts.
 */
import { newPaymentId } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import { isBankOffered } from "../consent/grants.js";
import { currentConsent } from "../consent/registration.js";
import {
  createdThrough, requireInterface, type ApiInterface,
} from "../kernel/interface.js";
import type { Deps, LaterSca, RedirectTargets, TppRef } from "../deps.js";
import {
  authorisationOver, basketNotDeletable, consentUnknown, heldByBasket,
  noWayBack, referenceMixInvalid, referenceStatusInvalid, referenceUnknown, relocated,
  resourceBlocked, resourceUnknown,
} from "../kernel/errors.js";
import { rejectIfScaExpired } from "../payment/expiry.js";
import { awaitsPsu, type Payment } from "../payment/model.js";
import { chosenScaMethod } from "../sca/factors.js";
import { startAuthorisation } from "../sca/start.js";
import { changeScaStatusOf } from "../sca/transitions.js";
import type { Basket, BasketItem } from "./model.js";
import { BASKET_CREATION, isOpenBasket, moveBasket } from "./transitions.js";

export interface BasketInput { paymentIds?: string[]; consentIds?: string[] }

/** Without an authorisation when the TPP starts it (TPP-Explicit-Authorisation-Preferred). */
export interface CreatedBasket {
  basket: Basket; authorisationId: string | null; scaRedirect: string | null;
}

const startFor = (deps: Deps, tx: Tx, basket: Basket, redirect: RedirectTargets) =>
  startAuthorisation(deps, tx,
    { resourceType: "basket", page: "basket", resourceId: basket.id, tppId: basket.tppId },
    redirect);

/** Whose basket, created through which interface. */
interface BasketOwner { tppId: string; version: ApiInterface }

/** Refuses a name given twice, and a basket naming nothing. */
function readIds(input: BasketInput): { paymentIds: string[]; consentIds: string[] } {
  const paymentIds = input.paymentIds ?? [];
  const consentIds = input.consentIds ?? [];
  if (paymentIds.length + consentIds.length === 0) {
    throw referenceMixInvalid("paymentIds", "A signing basket needs at least one paymentId or "
      + "consentId.");
  }
  for (const [field, ids] of [["paymentIds", paymentIds], ["consentIds", consentIds]] as const) {
    const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
    if (twice >= 0) {
      throw referenceMixInvalid(`${field}[${twice}]`, "This id is named twice in the basket.");
    }
  }
  return { paymentIds, consentIds };
}

/** RESOURCE_BLOCKED for an item another basket holds, naming the item's place in the body. */
async function refuseHeld(deps: Deps, tx: Tx, item: BasketItem, path: string) {
  const holder = await deps.store.baskets.holderOf(tx, item);
  if (holder !== undefined) throw relocated(heldByBasket(item.type, holder), path);
}

/**
 * A payment of this TPP that awaits its PSU and that a basket can hold; the signatures it needs.
 */
async function basketPayment(
  deps: Deps, tx: Tx, owner: BasketOwner, id: string, path: string,
): Promise<number> {
  const found = await deps.store.payments.findForTpp(tx, id, owner.tppId);
  const unknown = () => referenceUnknown(path, "No payment with this id exists for this TPP.");
  if (!found || found.bulkId !== null) throw unknown();
  // A basket holds the items of its own interface: another one's payment is not known there.
  requireInterface(found, owner.version, unknown, "payment");
  if (found.service === "bulk-payments") {
    throw referenceMixInvalid(path, "A bulk payment is authorised on its own, not in a basket.");
  }
  const payment: Payment = await rejectIfScaExpired(deps, tx, found);
  if (!awaitsPsu(payment.status)) {
    throw referenceStatusInvalid(path,
      `The payment is ${payment.status}: it no longer awaits its authorisation.`);
  }
  await refuseHeld(deps, tx, { type: "payment", id }, path);
  return payment.signaturesRequired ?? 1;
}

/** A consent of this TPP that awaits its PSU and names what it shares; the signatures it needs. */
async function basketConsent(
  deps: Deps, tx: Tx, owner: BasketOwner, id: string, path: string,
): Promise<number> {
  const found = await deps.store.consents.findForTpp(tx, id, owner.tppId);
  if (!found) throw relocated(consentUnknown("body"), path);
  // A basket holds the items of its own interface: another one's consent is not known there.
  requireInterface(found, owner.version, () => relocated(consentUnknown("body"), path),
    "consent");
  const consent = await currentConsent(deps, tx, found);
  if (consent.kind !== undefined || isBankOffered(consent)) {
    throw referenceMixInvalid(path, "A basket holds account information consents that name "
      + "their accounts (or set availableAccounts or allPsd2): the PSU chooses the accounts of "
      + "a bank-offered consent on its own review.");
  }
  if (consent.status !== "received") {
    throw referenceStatusInvalid(path,
      `The consent is ${consent.status}: it no longer awaits its authorisation.`);
  }
  await refuseHeld(deps, tx, { type: "consent", id }, path);
  return consent.signaturesRequired ?? 1;
}

/**
 * Refuses the first item a basket cannot hold, naming its place in the body; the signatures the
 * basket then needs: the most any item needs (multi-level SCA).
 */
async function checkItems(
  deps: Deps, tx: Tx, owner: BasketOwner, ids: { paymentIds: string[]; consentIds: string[] },
): Promise<number> {
  const needed = [1];
  for (const [i, id] of ids.paymentIds.entries()) {
    needed.push(await basketPayment(deps, tx, owner, id, `paymentIds[${i}]`));
  }
  for (const [i, id] of ids.consentIds.entries()) {
    needed.push(await basketConsent(deps, tx, owner, id, `consentIds[${i}]`));
  }
  return Math.max(...needed);
}

/** The TPP's reads of its baskets (of one interface) and of their authorisations. */
function createBasketReads({ store }: Deps, version: ApiInterface) {
  /**
   * Throws RESOURCE_UNKNOWN for an unknown id or another TPP's basket, and for one created
   * through the other interface (saying where it lives).
   */
  async function getBasket(tppId: string, basketId: string, tx: Tx = store.db) {
    const basket = await store.baskets.findForTpp(tx, basketId, tppId);
    const unknown = () => resourceUnknown("signing basket");
    if (!basket) throw unknown();
    requireInterface(basket, version, unknown, "signing basket");
    return basket;
  }

  async function listAuthorisations(tppId: string, basketId: string) {
    const basket = await getBasket(tppId, basketId);
    return store.sca.authorisationsOf(store.db, basket.id);
  }

  return { getBasket, listAuthorisations };
}

/** The baskets of one interface: /v1 (NextGenPSD2 1.3 SBS) or /v2 (openFinance BASK 2.4). */
export function createBaskets(deps: Deps, version: ApiInterface = "v1") {
  const { store, clock } = deps;
  const reads = createBasketReads(deps, version);

  /**
   * Validates and stores a basket holding its items, with its implicit authorisation, inside the
   * caller's transaction (which also holds the idempotency claim). Throws the Berlin Group error
   * of the first item refused, naming its place in the body.
   */
  async function createBasket(
    tx: Tx, tpp: TppRef, input: BasketInput, redirect: RedirectTargets, explicit = false,
  ): Promise<CreatedBasket> {
    const { paymentIds, consentIds } = readIds(input);
    const signaturesRequired = await checkItems(deps, tx, { tppId: tpp.id, version },
      { paymentIds, consentIds });
    const at = clock.now().toISOString();
    const basket: Basket = {
      id: newPaymentId(), tppId: tpp.id, status: BASKET_CREATION.create.to, psuId: null,
      paymentIds, consentIds,
      redirectUri: redirect.redirectUri, nokRedirectUri: redirect.nokRedirectUri,
      createdAt: at, updatedAt: at, signaturesRequired, signatures: 0, ...createdThrough(version),
    };
    // A basket created at the same moment took an item first: refused as if it had been seen.
    if (!(await store.baskets.insert(tx, basket))) {
      throw resourceBlocked("An item was put in another signing basket at the same moment.");
    }
    // Multi-level SCA: every user's authorisation is started alike, by the TPP (Berlin Group).
    if (explicit || signaturesRequired > 1) {
      return { basket, authorisationId: null, scaRedirect: null };
    }
    return { basket, ...(await startFor(deps, tx, basket, redirect)) };
  }

  /** POST authorisations: throws STATUS_INVALID once the basket no longer awaits its PSU. */
  async function authoriseBasket(tppId: string, basketId: string, sca: LaterSca) {
    return store.transaction(async (tx) => {
      const basket = await reads.getBasket(tppId, basketId, tx);
      if (!isOpenBasket(basket.status)) throw authorisationOver("signing basket", basket.status);
      const { redirectUri, nokRedirectUri } = basket;
      if ((sca.approach ?? "redirect") === "redirect" && redirectUri === "") throw noWayBack();
      return startFor(deps, tx, basket, { ...sca, redirectUri, nokRedirectUri });
    });
  }

  /**
   * DELETE: the basket is CANC and its items free again, unchanged (Berlin Group: only before
   * its authorisation). Throws STATUS_INVALID once the PSU decided it.
   */
  async function deleteBasket(tppId: string, basketId: string): Promise<void> {
    await store.transaction(async (tx) => {
      const basket = await reads.getBasket(tppId, basketId, tx);
      const at = clock.now().toISOString();
      if (!(await moveBasket(deps, tx, basket.id, "delete", { at }))) {
        throw basketNotDeletable((await reads.getBasket(tppId, basketId, tx)).status);
      }
      // Its authorisations can no longer succeed: the basket no longer waits for them.
      await changeScaStatusOf(store, tx, basket.id, "fail", at);
    });
  }

  /** One of the basket's authorisations with the PSU's chosen method; else RESOURCE_UNKNOWN. */
  async function getAuthorisation(tppId: string, basketId: string, authorisationId: string) {
    const all = await reads.listAuthorisations(tppId, basketId);
    const found = all.find((a) => a.id === authorisationId);
    if (!found) throw resourceUnknown("authorisation");
    return { ...found, chosenScaMethod: await chosenScaMethod(deps, found.id) };
  }

  return { ...reads, createBasket, authoriseBasket, deleteBasket, getAuthorisation };
}

export type Baskets = ReturnType<typeof createBaskets>;
