/** TPPs' bulks of payee checks (domain/vop/ports.ts VopBulkPort), one row per entry. */
import type { PartyAnswer, VopBulkEntry, VopBulkPort, VopBulkStatus } from "../domain/vop/ports.js";
import type { OnStore } from "./handle.js";

/** Rows per insert: well below SQLite's and PostgreSQL's bound parameters. */
const INSERT_ROWS = 200;

const entryOf = (row: { position: number; request: string; result: string | null }):
  VopBulkEntry => ({ position: Number(row.position), request: JSON.parse(row.request),
  answer: row.result === null ? null : JSON.parse(row.result) as PartyAnswer });

export const vopBulkRepository: OnStore<VopBulkPort> = {
  async create(tx, bulk, requests) {
    await tx.insertInto("vop_bulks").values({ id: bulk.id, tpp_id: bulk.tppId,
      status: bulk.status, created_at: bulk.createdAt, updated_at: bulk.createdAt }).execute();
    const rows = requests.map((request, position) =>
      ({ bulk_id: bulk.id, position, request: JSON.stringify(request), result: null }));
    for (let i = 0; i < rows.length; i += INSERT_ROWS) {
      await tx.insertInto("vop_bulk_entries").values(rows.slice(i, i + INSERT_ROWS)).execute();
    }
  },

  async find(tx, tppId, id) {
    const row = await tx.selectFrom("vop_bulks").selectAll().where("id", "=", id)
      .where("tpp_id", "=", tppId).executeTakeFirst();
    return row && { id: row.id, tppId: row.tpp_id, status: row.status as VopBulkStatus,
      createdAt: row.created_at };
  },

  async entries(tx, bulkId) {
    const rows = await tx.selectFrom("vop_bulk_entries").select(["position", "request", "result"])
      .where("bulk_id", "=", bulkId).orderBy("position").execute();
    return rows.map(entryOf);
  },

  async open(tx, bulkId, limit) {
    const rows = await tx.selectFrom("vop_bulk_entries").select(["position", "request", "result"])
      .where("bulk_id", "=", bulkId).where("result", "is", null).orderBy("position").limit(limit)
      .execute();
    return rows.map(entryOf);
  },

  async answer(tx, bulkId, answers) {
    for (const entry of answers) {
      await tx.updateTable("vop_bulk_entries").set({ result: JSON.stringify(entry.answer) })
        .where("bulk_id", "=", bulkId).where("position", "=", entry.position)
        .where("result", "is", null).execute();
    }
  },

  async unfinished(tx, limit) {
    const rows = await tx.selectFrom("vop_bulks").select("id")
      .where("status", "in", ["recieved", "pending"]).orderBy("created_at").limit(limit).execute();
    return rows.map((r) => r.id);
  },

  async transition(tx, id, from, to, at) {
    const result = await tx.updateTable("vop_bulks").set({ status: to, updated_at: at })
      .where("id", "=", id).where("status", "in", [...from]).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
