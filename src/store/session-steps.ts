/**
 * A PSU's login sessions, the same for an authorisation's (sca_sessions) and for the PSU's
 * dashboard (psu_sessions), as the SCA session machine needs them (domain/sca/ports.ts): each
 * step change is a conditional write, so a replayed or raced form post changes nothing.
 */
import type { LoginSession } from "../domain/sca/model.js";
import type { LoginSessionPort } from "../domain/sca/ports.js";
import type { OnStore, Tx } from "./handle.js";

type SessionTableName = "sca_sessions" | "psu_sessions";

/** Everything but `find`, whose row differs per table. */
export function loginSessions<S extends LoginSession>(
  table: SessionTableName,
): OnStore<Omit<LoginSessionPort<S>, "find">> {
  return {
    async touch(tx, id, at, lang) {
      await tx.updateTable(table).set({ last_seen_at: at, lang }).where("id", "=", id).execute();
    },

    async advance(tx, id, from, change) {
      let update = tx.updateTable(table).set({ step: change.step })
        .where("id", "=", id).where("step", "=", from);
      if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
      if (change.deviceId !== undefined) update = update.set({ device_id: change.deviceId });
      return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
    },

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
