/** The audit log's rows: appended per request, queried by the operator, pruned after retention. */
import type { Tx } from "./db.js";

export interface AuditEntry {
  id: string;
  at: string;
  tppId: string | null;
  requestId: string | null;
  psuIp: string | null;
  method: string;
  path: string;
  resourceId: string | null;
  status: number;
  ms: number;
}

export interface AuditQuery {
  tppId?: string;
  resourceId?: string;
  requestId?: string;
  since?: string;
  until?: string;
  limit: number;
}

export const auditRepository = {
  /** Many entries in one statement: 10 parameters each, well within both engines' limits. */
  async append(tx: Tx, entries: AuditEntry[]): Promise<void> {
    await tx.insertInto("audit_log").values(entries.map((e) => ({
      id: e.id, at: e.at, tpp_id: e.tppId, request_id: e.requestId, psu_ip: e.psuIp, method: e.method,
      path: e.path, resource_id: e.resourceId, status: e.status, ms: e.ms,
    }))).execute();
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
      id: r.id, at: r.at, tppId: r.tpp_id, requestId: r.request_id, psuIp: r.psu_ip, method: r.method,
      path: r.path, resourceId: r.resource_id, status: Number(r.status), ms: Number(r.ms),
    }));
  },

  async pruneBefore(tx: Tx, at: string): Promise<number> {
    const result = await tx.deleteFrom("audit_log").where("at", "<", at).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
