/**
 * Step changes of a PSU's session, the same for an authorisation's (sca_sessions) and for the
 * PSU's dashboard (psu_sessions): each is a conditional write, so a replayed or raced form post
 * changes nothing.
 */
import type { Tx } from "./handle.js";

type SessionTableName = "sca_sessions" | "psu_sessions";

export function sessionSteps<Step extends string>(table: SessionTableName) {
  return {
    /** Moves the session from one step to the next only once; the loser of a race gets false. */
    async advance(
      tx: Tx, id: string, from: Step, change: { step: Step; psuId?: string; deviceId?: string },
    ): Promise<boolean> {
      let update = tx.updateTable(table).set({ step: change.step })
        .where("id", "=", id).where("step", "=", from);
      if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
      if (change.deviceId !== undefined) update = update.set({ device_id: change.deviceId });
      return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
    },

    /** Session fixation defence: the session gets a new id (and CSRF token) after each factor. */
    async rename(tx: Tx, id: string, newId: string, csrf: string): Promise<void> {
      await tx.updateTable(table).set({ id: newId, csrf }).where("id", "=", id).execute();
      await tx.updateTable("otp_challenges").set({ session_id: newId })
        .where("session_id", "=", id).execute();
    },

    async remove(tx: Tx, id: string): Promise<void> {
      await tx.deleteFrom("otp_challenges").where("session_id", "=", id).execute();
      await tx.deleteFrom(table).where("id", "=", id).execute();
    },
  };
}
