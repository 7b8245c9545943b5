/** The PSU's dashboard sessions (their steps in session-steps.ts, as an authorisation's). */
import type { Selectable } from "kysely";
import type { DashboardStep, PsuSession } from "../domain/sca/model.js";
import type { PsuSessionPort } from "../domain/sca/ports.js";
import type { OnStore } from "./handle.js";
import type { PsuSessionTable } from "./schema.js";
import { loginSessions } from "./session-steps.js";

function toSession(row: Selectable<PsuSessionTable>): PsuSession {
  return {
    id: row.id, step: row.step as DashboardStep, psuId: row.psu_id, deviceId: row.device_id,
    csrf: row.csrf, lang: row.lang, lastSeenAt: row.last_seen_at,
  };
}

export const psuSessionRepository: OnStore<PsuSessionPort> = {
  ...loginSessions<PsuSession>("psu_sessions"),

  async find(tx, id) {
    const row = await tx.selectFrom("psu_sessions").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toSession(row);
  },

  /** Inserts a session and drops the ones idle since before `staleBefore`, so none pile up. */
  async insert(tx, s, at, staleBefore) {
    await tx.deleteFrom("psu_sessions").where("last_seen_at", "<", staleBefore).execute();
    await tx.insertInto("psu_sessions").values({
      id: s.id, step: s.step, psu_id: s.psuId, device_id: s.deviceId, csrf: s.csrf, lang: s.lang,
      created_at: at, last_seen_at: at,
    }).execute();
  },
};
