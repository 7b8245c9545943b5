/** Leases of scheduled jobs (see migration 0005): one holder per job until the lease expires. */
import type { Tx } from "./handle.js";

export const leaseRepository = {
  /**
   * Takes the job's lease until `until` when it is free or expired; false while anyone (this
   * holder too) has it. One conditional upsert: racing instances cannot both win.
   */
  async acquire(tx: Tx, job: string, holder: string, now: string, until: string): Promise<boolean> {
    const result = await tx.insertInto("job_leases")
      .values({ name: job, holder, expires_at: until })
      .onConflict((oc) => oc.column("name").doUpdateSet({ holder, expires_at: until })
        .where("job_leases.expires_at", "<=", now))
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  },
};
