/**
 * The PSU's dashboard sessions (step changes in session-steps.ts, as an authorisation's) and the
 * device chosen for an authorisation.
 */
import type { Selectable } from "kysely";
import type { DashboardStep, PsuSession } from "../domain/sca/model.js";
import type { Tx } from "./db.js";
import type { PsuSessionTable } from "./schema.js";
import { sessionSteps } from "./session-steps.js";

function toSession(row: Selectable<PsuSessionTable>): PsuSession {
  return {
    id: row.id, step: row.step as DashboardStep, psuId: row.psu_id, deviceId: row.device_id,
    csrf: row.csrf, lang: row.lang, lastSeenAt: row.last_seen_at,
  };
}

export const psuSessionRepository = {
  /** Inserts a session and drops the ones idle since before `staleBefore`, so none pile up. */
  async insert(tx: Tx, s: PsuSession, at: string, staleBefore: string): Promise<void> {
    await tx.deleteFrom("psu_sessions").where("last_seen_at", "<", staleBefore).execute();
    await tx.insertInto("psu_sessions").values({
      id: s.id, step: s.step, psu_id: s.psuId, device_id: s.deviceId, csrf: s.csrf, lang: s.lang,
      created_at: at, last_seen_at: at,
    }).execute();
  },

  async find(tx: Tx, id: string): Promise<PsuSession | undefined> {
    const row = await tx.selectFrom("psu_sessions").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toSession(row);
  },

  async touch(tx: Tx, id: string, at: string, lang: string): Promise<void> {
    await tx.updateTable("psu_sessions").set({ last_seen_at: at, lang }).where("id", "=", id).execute();
  },

  ...sessionSteps<DashboardStep>("psu_sessions"),

  async chooseMethod(tx: Tx, authorisationId: string, deviceId: string): Promise<void> {
    await tx.insertInto("authorisation_methods").values({ authorisation_id: authorisationId, device_id: deviceId })
      .onConflict((oc) => oc.column("authorisation_id").doUpdateSet({ device_id: deviceId })).execute();
  },

  async chosenMethod(tx: Tx, authorisationId: string): Promise<string | undefined> {
    const row = await tx.selectFrom("authorisation_methods").select("device_id")
      .where("authorisation_id", "=", authorisationId).executeTakeFirst();
    return row?.device_id;
  },
};
