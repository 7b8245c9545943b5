/** TPPs as the bank knows them (created on first contact), idempotency records and secrets. */
import type { Tx } from "./db.js";

export interface IdempotencyRecord { bodyHash: string; statusCode: number; responseBody: string }

export const tppRepository = {
  /** Registers a TPP on first contact and keeps its name current across certificate renewals. */
  async ensure(tx: Tx, id: string, name: string, at: string): Promise<void> {
    await tx.insertInto("tpps").values({ id, name, blocked: 0, created_at: at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ name })).execute();
  },

  async isBlocked(tx: Tx, id: string): Promise<boolean> {
    const row = await tx.selectFrom("tpps").select("blocked").where("id", "=", id).executeTakeFirst();
    return Boolean(row?.blocked);
  },

  /** Answers false when no TPP has this id. */
  async setBlocked(tx: Tx, id: string, blocked: boolean): Promise<boolean> {
    const result = await tx.updateTable("tpps").set({ blocked: blocked ? 1 : 0 }).where("id", "=", id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async list(tx: Tx): Promise<{ id: string; name: string; blocked: boolean; createdAt: string }[]> {
    const rows = await tx.selectFrom("tpps").selectAll().orderBy("id").execute();
    return rows.map((r) => ({ id: r.id, name: r.name, blocked: Boolean(r.blocked), createdAt: r.created_at }));
  },

  async name(tx: Tx, id: string): Promise<string | undefined> {
    const row = await tx.selectFrom("tpps").select("name").where("id", "=", id).executeTakeFirst();
    return row?.name;
  },
};

export const idempotencyRepository = {
  async find(tx: Tx, tppId: string, requestId: string): Promise<IdempotencyRecord | undefined> {
    const row = await tx.selectFrom("idempotency").selectAll()
      .where("tpp_id", "=", tppId).where("request_id", "=", requestId).executeTakeFirst();
    return row && {
      bodyHash: row.body_hash, statusCode: row.status_code, responseBody: row.response_body,
    };
  },

  /**
   * Claims the key before the work; false when it is taken. A racing claim of the same key waits
   * for this transaction (unique index) and then sees the committed answer, instead of failing.
   */
  async claim(tx: Tx, tppId: string, requestId: string, bodyHash: string, at: string) {
    const result = await tx.insertInto("idempotency").values({
      tpp_id: tppId, request_id: requestId, body_hash: bodyHash, status_code: 0,
      response_body: "", created_at: at,
    }).onConflict((oc) => oc.columns(["tpp_id", "request_id"]).doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  async complete(tx: Tx, tppId: string, requestId: string, statusCode: number, body: string) {
    await tx.updateTable("idempotency").set({ status_code: statusCode, response_body: body })
      .where("tpp_id", "=", tppId).where("request_id", "=", requestId).execute();
  },
};

export const secretRepository = {
  /** Returns the stored secret, creating it from `fresh` once; racing creators agree on one. */
  async getOrCreate(tx: Tx, name: string, fresh: string): Promise<string> {
    await tx.insertInto("secrets").values({ name, value: fresh })
      .onConflict((oc) => oc.column("name").doNothing()).execute();
    const row = await tx.selectFrom("secrets").select("value").where("name", "=", name)
      .executeTakeFirstOrThrow();
    return row.value;
  },
};

