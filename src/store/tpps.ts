/** TPPs as the bank knows them (created on first contact), idempotency records and secrets. */
import type { IdempotencyRecord } from "../domain/kernel/ports.js";
import { compiledQuery } from "./compiled.js";
import type { Tx } from "./handle.js";

/** Compiled once: every request checks the stop-list. */
const blockedFlag = compiledQuery(["id"] as const,
  (tx, p: { id: string }) => tx.selectFrom("tpps").select("blocked").where("id", "=", p.id));

export const tppRepository = {
  /** Registers a TPP on first contact and keeps its name current across certificate renewals. */
  async ensure(tx: Tx, id: string, name: string, at: string): Promise<void> {
    await tx.insertInto("tpps").values({ id, name, blocked: 0, created_at: at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ name })).execute();
  },

  async isBlocked(tx: Tx, id: string): Promise<boolean> {
    const { rows: [row] } = await blockedFlag(tx, { id });
    return Boolean(row?.blocked);
  },

  /** A TPP not seen yet can be stop-listed in advance: it is refused from its first request. */
  async setBlocked(tx: Tx, id: string, blocked: boolean, at: string): Promise<void> {
    await tx.insertInto("tpps").values({ id, name: id, blocked: blocked ? 1 : 0, created_at: at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ blocked: blocked ? 1 : 0 })).execute();
  },

  async list(tx: Tx): Promise<{ id: string; name: string; blocked: boolean; createdAt: string }[]> {
    const rows = await tx.selectFrom("tpps").selectAll().orderBy("id").execute();
    return rows.map((r) => ({
      id: r.id, name: r.name, blocked: Boolean(r.blocked), createdAt: r.created_at,
    }));
  },

  /** Counts one request in the TPP's window and answers the window's count so far. */
  async countRequest(tx: Tx, id: string, windowStart: string): Promise<number> {
    const row = await tx.insertInto("tpp_request_counts")
      .values({ tpp_id: id, window_start: windowStart, count: 1 })
      .onConflict((oc) => oc.columns(["tpp_id", "window_start"])
        .doUpdateSet((eb) => ({ count: eb("tpp_request_counts.count", "+", 1) })))
      .returning("count").executeTakeFirstOrThrow();
    return row.count;
  },

  async requestsCounted(tx: Tx, id: string, windowStart: string): Promise<number> {
    const row = await tx.selectFrom("tpp_request_counts").select("count")
      .where("tpp_id", "=", id).where("window_start", "=", windowStart).executeTakeFirst();
    return row?.count ?? 0;
  },

  async forgetRequestsBefore(tx: Tx, windowStart: string): Promise<void> {
    await tx.deleteFrom("tpp_request_counts").where("window_start", "<", windowStart).execute();
  },

  async name(tx: Tx, id: string): Promise<string | undefined> {
    const row = await tx.selectFrom("tpps").select("name").where("id", "=", id).executeTakeFirst();
    return row?.name;
  },
};

const recordAnswer = compiledQuery(
  ["tpp_id", "request_id", "body_hash", "status_code", "response_body", "created_at"] as const,
  (tx, row: Record<"tpp_id" | "request_id" | "body_hash" | "response_body" | "created_at", string>
    & { status_code: number }) => tx.insertInto("idempotency").values(row)
    .onConflict((oc) => oc.columns(["tpp_id", "request_id"]).doNothing()),
);

export const idempotencyRepository = {
  async find(tx: Tx, tppId: string, requestId: string): Promise<IdempotencyRecord | undefined> {
    const row = await tx.selectFrom("idempotency").selectAll()
      .where("tpp_id", "=", tppId).where("request_id", "=", requestId).executeTakeFirst();
    return row && {
      bodyHash: row.body_hash, statusCode: row.status_code, responseBody: row.response_body,
    };
  },

  /**
   * False when the key is taken. A racing insert of the same key waits for the other transaction
   * (unique index) and then finds it taken, instead of failing.
   */
  async record(
    tx: Tx, key: { tppId: string; requestId: string; at: string }, answer: IdempotencyRecord,
  ) {
    const result = await recordAnswer(tx, {
      tpp_id: key.tppId, request_id: key.requestId, body_hash: answer.bodyHash,
      status_code: answer.statusCode, response_body: answer.responseBody, created_at: key.at,
    });
    return Number(result.numAffectedRows ?? 0n) === 1;
  },

  async forgetBefore(tx: Tx, before: string): Promise<number> {
    const result = await tx.deleteFrom("idempotency").where("created_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
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

