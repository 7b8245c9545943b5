/**
 * The signing basket's lifecycle against a reference model written here, independently of the
 * table in src/domain/basket/transitions.ts: every event from every status on a real store,
 * random event sequences (fast-check), and what each move does to the items the basket holds.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Basket, BasketStatus } from "../../../src/domain/basket/model.js";
import {
  BASKET_EVENTS, BASKET_STATUSES, moveBasket, type BasketEvent,
} from "../../../src/domain/basket/transitions.js";
import {
  AT, followsModel, storeWithTpp, TPP, walkEveryEvent, type Machine,
} from "../../support/lifecycle.js";

/** What may happen to a basket; what is not listed is refused. */
const MODEL: Partial<Record<BasketStatus, Partial<Record<BasketEvent, BasketStatus>>>> = {
  RCVD: { authorise: "ACTC", signPartly: "PATC", refuse: "RJCT", delete: "CANC" },
  // Some of the users who must sign did (multi-level SCA): no longer deletable.
  PATC: { authorise: "ACTC", signPartly: "PATC", refuse: "RJCT" },
};

const modelAfter = (status: BasketStatus, event: BasketEvent) => MODEL[status]?.[event];

const storeOf = storeWithTpp();
let serial = 0;

async function inserted(status: BasketStatus): Promise<Basket> {
  serial += 1;
  const basket: Basket = {
    id: `b-${serial}`, tppId: TPP, status, psuId: null, paymentIds: [`p-${serial}`],
    consentIds: [`c-${serial}`], redirectUri: "https://tpp.example/ok", nokRedirectUri: null,
    createdAt: AT, updatedAt: AT,
  };
  assert.ok(await storeOf().baskets.insert(storeOf().db, basket));
  return basket;
}

const statusOf = async (id: string) => (await storeOf().baskets.find(storeOf().db, id))?.status;

const apply = (id: string, event: BasketEvent) => storeOf().transaction(
  (tx) => moveBasket({ store: storeOf() }, tx, id, event, { at: AT }));

const machine: Machine<BasketStatus, BasketEvent> = {
  statuses: BASKET_STATUSES, events: BASKET_EVENTS, model: modelAfter,
  insert: async (status) => (await inserted(status)).id, apply, statusOf,
};

test("every event from every status: allowed moves to the model's status, else nothing", () =>
  walkEveryEvent(machine));

test("random event sequences follow the model; a decided or deleted basket never reopens", () =>
  followsModel(machine, ["ACTC", "RJCT", "CANC"], 150));

test("a basket holds its items until deleted; a decided one until each is carried out",
  async () => {
    const store = storeOf();
    const holder = (b: Basket) => store.baskets.holderOf(store.db, { type: "payment",
      id: b.paymentIds[0] ?? "" });
    const deleted = await inserted("RCVD");
    // A second basket cannot take an item the first holds.
    assert.equal(await store.baskets.insert(store.db, {
      ...deleted, id: "b-rival", paymentIds: [], consentIds: deleted.consentIds,
    }), false);
    assert.equal(await holder(deleted), deleted.id);
    assert.ok(await apply(deleted.id, "delete"));
    assert.equal(await holder(deleted), undefined);
    assert.deepEqual(await store.baskets.heldItems(store.db, deleted.id), []);

    const decided = await inserted("RCVD");
    assert.ok(await apply(decided.id, "authorise"));
    assert.equal(await holder(decided), decided.id, "held until carried out");
    assert.ok((await store.baskets.unfinished(store.db, 1000)).includes(decided.id));
    const [first] = await store.baskets.heldItems(store.db, decided.id);
    assert.ok(first);
    assert.ok(await store.baskets.releaseItem(store.db, decided.id, first));
    assert.equal(await store.baskets.releaseItem(store.db, decided.id, first), false,
      "carried out once");
    assert.equal(await holder(decided), undefined);
    for (const item of await store.baskets.heldItems(store.db, decided.id)) {
      await store.baskets.releaseItem(store.db, decided.id, item);
    }
    assert.ok(!(await store.baskets.unfinished(store.db, 1000)).includes(decided.id));
  });
