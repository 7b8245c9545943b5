/** Savepoints inside a transaction (SQLite and PostgreSQL alike): all of a batch, or nothing of
 * it. */
import { sql } from "kysely";
import type { Tx } from "./handle.js";

export const savepointRepository = {
  /** Runs `work` under a savepoint and undoes its writes unless it answers true (or if it
   * throws). */
  async keepIf(tx: Tx, work: () => Promise<boolean>): Promise<boolean> {
    await sql`SAVEPOINT batch`.execute(tx);
    let keep = false;
    try {
      keep = await work();
    } finally {
      if (!keep) await sql`ROLLBACK TO SAVEPOINT batch`.execute(tx);
      await sql`RELEASE SAVEPOINT batch`.execute(tx);
    }
    return keep;
  },
};
