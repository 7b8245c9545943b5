/** Signing baskets and the items they hold (domain/basket/ports.ts BasketRepository). */
import type { Selectable } from "kysely";
import type { BasketRepository } from "../domain/basket/ports.js";
import type { Basket, BasketItemType, BasketStatus } from "../domain/basket/model.js";
import type { OnStore, Tx } from "./handle.js";
import type { SigningBasketTable } from "./schema.js";
import { withSignature } from "./signatures.js";

async function toBasket(tx: Tx, row: Selectable<SigningBasketTable>): Promise<Basket> {
  const items = await tx.selectFrom("signing_basket_items").select(["item_type", "item_id"])
    .where("basket_id", "=", row.id).orderBy("position").execute();
  const idsOf = (type: BasketItemType) =>
    items.filter((i) => i.item_type === type).map((i) => i.item_id);
  return {
    id: row.id, tppId: row.tpp_id, status: row.status as BasketStatus, psuId: row.psu_id,
    paymentIds: idsOf("payment"), consentIds: idsOf("consent"), redirectUri: row.redirect_uri,
    nokRedirectUri: row.nok_redirect_uri, createdAt: row.created_at, updatedAt: row.updated_at,
    signaturesRequired: Number(row.signatures_required), signatures: Number(row.signatures),
    ...(row.api_version === "v2" ? { apiVersion: "v2" } : {}),
  };
}

export const basketRepository: OnStore<BasketRepository> = {
  async insert(tx, b) {
    await tx.insertInto("signing_baskets").values({
      id: b.id, tpp_id: b.tppId, status: b.status, psu_id: b.psuId, redirect_uri: b.redirectUri,
      nok_redirect_uri: b.nokRedirectUri, created_at: b.createdAt, updated_at: b.updatedAt,
      signatures_required: b.signaturesRequired ?? 1, api_version: b.apiVersion ?? null,
    }).execute();
    const items = [
      ...b.paymentIds.map((id) => ({ item_type: "payment", item_id: id })),
      ...b.consentIds.map((id) => ({ item_type: "consent", item_id: id })),
    ].map((item, position) => ({ ...item, basket_id: b.id, position, held_id: item.item_id }));
    // Another basket holding an item wins the unique index: this one's row is left out.
    const rows = await tx.insertInto("signing_basket_items").values(items)
      .onConflict((oc) => oc.doNothing()).returning("position").execute();
    return rows.length === items.length;
  },

  async findForTpp(tx, id, tppId) {
    const row = await tx.selectFrom("signing_baskets").selectAll().where("id", "=", id)
      .where("tpp_id", "=", tppId).executeTakeFirst();
    return row && toBasket(tx, row);
  },

  async find(tx, id) {
    const row = await tx.selectFrom("signing_baskets").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toBasket(tx, row);
  },

  async holderOf(tx, item) {
    const row = await tx.selectFrom("signing_basket_items").select("basket_id")
      .where("item_type", "=", item.type).where("held_id", "=", item.id).executeTakeFirst();
    return row?.basket_id;
  },

  async transition(tx, id, from, to, change) {
    let update = tx.updateTable("signing_baskets").set({ status: to, updated_at: change.at })
      .where("id", "=", id).where("status", "in", [...from]);
    if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
    update = withSignature(update, change.signaturesBefore);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async heldItems(tx, basketId) {
    const rows = await tx.selectFrom("signing_basket_items").select(["item_type", "item_id"])
      .where("basket_id", "=", basketId).where("held_id", "is not", null).orderBy("position")
      .execute();
    return rows.map((r) => ({ type: r.item_type as BasketItemType, id: r.item_id }));
  },

  async releaseItem(tx, basketId, item) {
    const result = await tx.updateTable("signing_basket_items").set({ held_id: null })
      .where("basket_id", "=", basketId).where("item_type", "=", item.type)
      .where("held_id", "=", item.id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async releaseItems(tx, basketId) {
    await tx.updateTable("signing_basket_items").set({ held_id: null })
      .where("basket_id", "=", basketId).execute();
  },

  async unfinished(tx, limit) {
    const rows = await tx.selectFrom("signing_baskets as b").select("b.id")
      .where("b.status", "in", ["ACTC", "RJCT"])
      .where(({ exists, selectFrom }) => exists(selectFrom("signing_basket_items as i")
        .select("i.position").whereRef("i.basket_id", "=", "b.id")
        .where("i.held_id", "is not", null)))
      .orderBy("b.updated_at").limit(limit).execute();
    return rows.map((r) => r.id);
  },
};
