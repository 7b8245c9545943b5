/** The audit log's rows: appended per request, queried by the operator, pruned after retention. */
import { bulkInsert, type BulkColumn } from "./bulk.js";
import type { AuditEntry, AuditQuery } from "../domain/kernel/ports.js";
import type { Engine, Tx } from "./handle.js";

export type { AuditEntry, AuditQuery };
import type { AuditLogTable } from "./schema.js";

const COLUMNS: readonly BulkColumn<AuditEntry, keyof AuditLogTable>[] = [
  ["id", "text", (e) => e.id], ["at", "text", (e) => e.at], ["tpp_id", "text", (e) => e.tppId],
  ["request_id", "text", (e) => e.requestId], ["psu_ip", "text", (e) => e.psuIp],
  ["method", "text", (e) => e.method],
  ["path", "text", (e) => e.path], ["resource_id", "text", (e) => e.resourceId],
  ["status", "bigint", (e) => e.status], ["ms", "bigint", (e) => e.ms],
];

export const createAuditRepository = (engine: Engine) => ({
  /** Many entries in a few statements, without the query builder: appended on every request. */
  async append(tx: Tx, entries: AuditEntry[]): Promise<void> {
    await bulkInsert(tx, engine, "audit_log", COLUMNS, entries);
  },

  /** Newest first, within the filters. */
  async query(tx: Tx, q: AuditQuery): Promise<AuditEntry[]> {
    let query = tx.selectFrom("audit_log").selectAll();
    if (q.tppId !== undefined) query = query.where("tpp_id", "=", q.tppId);
    if (q.resourceId !== undefined) query = query.where("resource_id", "=", q.resourceId);
    if (q.requestId !== undefined) query = query.where("request_id", "=", q.requestId);
    if (q.since !== undefined) query = query.where("at", ">=", q.since);
    if (q.until !== undefined) query = query.where("at", "<", q.until);
    const rows = await query.orderBy("at", "desc").orderBy("id", "desc").limit(q.limit).execute();
    return rows.map((r) => ({
      id: r.id, at: r.at, tppId: r.tpp_id, requestId: r.request_id, psuIp: r.psu_ip,
      method: r.method,
      path: r.path, resourceId: r.resource_id, status: Number(r.status), ms: Number(r.ms),
    }));
  },

  async pruneBefore(tx: Tx, at: string): Promise<number> {
    const result = await tx.deleteFrom("audit_log").where("at", "<", at).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
