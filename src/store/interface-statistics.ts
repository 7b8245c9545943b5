/**
 * The interface statistics' counters (migration 0260): each instance adds its share with one
 * upsert that adds to the row, so two instances flushing the same day lose nothing.
 */
import type {
  Category, DayCounts, Downtime, Interface,
} from "../domain/statistics/ports.js";
import type { Tx } from "./handle.js";

export const interfaceStatisticsRepository = {
  async add(tx: Tx, counts: readonly DayCounts[]): Promise<void> {
    // One order of rows for every instance: two transactions never wait for each other's rows.
    const ordered = [...counts].sort((a, b) =>
      `${a.day} ${a.category}`.localeCompare(`${b.day} ${b.category}`));
    for (const c of ordered) {
      await tx.insertInto("interface_statistics").values({ day: c.day, category: c.category,
        requests: c.requests, errors: c.errors, duration_us: c.durationUs })
        .onConflict((oc) => oc.columns(["day", "category"]).doUpdateSet((eb) => ({
          requests: eb("interface_statistics.requests", "+", c.requests),
          errors: eb("interface_statistics.errors", "+", c.errors),
          duration_us: eb("interface_statistics.duration_us", "+", c.durationUs),
        }))).execute();
    }
  },

  async recordDowntime(tx: Tx, instanceId: string, windows: readonly Downtime[]): Promise<void> {
    for (const w of windows) {
      await tx.insertInto("interface_downtime").values({ instance_id: instanceId,
        interface: w.interface, started_at: w.startedAt, ended_at: w.endedAt })
        .onConflict((oc) => oc.columns(["instance_id", "interface", "started_at"])
          .doUpdateSet({ ended_at: w.endedAt })
          .where("interface_downtime.ended_at", "<", w.endedAt)).execute();
    }
  },

  async counts(tx: Tx, fromDay: string, toDay: string): Promise<DayCounts[]> {
    const rows = await tx.selectFrom("interface_statistics").selectAll()
      .where("day", ">=", fromDay).where("day", "<=", toDay).orderBy("day").execute();
    // Only add() writes the rows, with the domain's categories.
    return rows.map((r) => ({ day: r.day, category: r.category as Category,
      requests: Number(r.requests), errors: Number(r.errors), durationUs: Number(r.duration_us) }));
  },

  async firstDay(tx: Tx): Promise<string | null> {
    const row = await tx.selectFrom("interface_statistics")
      .select((eb) => eb.fn.min<string>("day").as("first")).executeTakeFirst();
    return row?.first ?? null;
  },

  async downtime(tx: Tx, from: string, to: string): Promise<Downtime[]> {
    const rows = await tx.selectFrom("interface_downtime")
      .select(["interface", "started_at", "ended_at"])
      .where("ended_at", ">", from).where("started_at", "<", to).execute();
    return rows.map((r) => ({ interface: r.interface as Interface, startedAt: r.started_at,
      endedAt: r.ended_at }));
  },
};
