/** Counts for the operator's metrics: resources by status and ledger totals, read at scrape
 * time. */
import type { Tx } from "./handle.js";

export interface StatusCount { status: string; count: number }
export interface LedgerTotal {
  kind: string; currency: string; debitsMinor: bigint; creditsMinor: bigint;
}

async function countByStatus(tx: Tx, table: "payments" | "consents"): Promise<StatusCount[]> {
  const rows = await tx.selectFrom(table)
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("n")])
    .groupBy("status").execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}

export const statsRepository = {
  payments: (tx: Tx) => countByStatus(tx, "payments"),
  consents: (tx: Tx) => countByStatus(tx, "consents"),

  async authorisations(tx: Tx): Promise<StatusCount[]> {
    const rows = await tx.selectFrom("authorisations")
      .select(["sca_status", (eb) => eb.fn.countAll<string | number>().as("n")])
      .groupBy("sca_status").execute();
    return rows.map((r) => ({ status: r.sca_status, count: Number(r.n) }));
  },

  async ledgerTotals(tx: Tx): Promise<LedgerTotal[]> {
    const rows = await tx.selectFrom("ledger_accounts")
      .select(["kind", "currency",
        (eb) => eb.fn.sum<string | number | bigint>("debits_posted").as("debits"),
        (eb) => eb.fn.sum<string | number | bigint>("credits_posted").as("credits")])
      .groupBy(["kind", "currency"]).execute();
    return rows.map((r) => ({
      kind: r.kind, currency: r.currency, debitsMinor: BigInt(r.debits),
      creditsMinor: BigInt(r.credits),
    }));
  },
};
