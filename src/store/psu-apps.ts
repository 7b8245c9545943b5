/** The PSUs' bank apps (domain/sca/ports.ts PsuAppPort): bound devices, revocable. */
import type { Selectable } from "kysely";
import type { PsuApp, PsuAppPort } from "../domain/sca/ports.js";
import type { OnStore } from "./handle.js";
import type { PsuAppTable } from "./schema.js";

function toApp(row: Selectable<PsuAppTable>): PsuApp {
  return {
    id: row.id, psuId: row.psu_id, pinHash: row.pin_hash, csrf: row.csrf,
    createdAt: row.created_at, lastUsedAt: row.last_used_at,
  };
}

export const psuAppRepository: OnStore<PsuAppPort> = {
  async insert(tx, app, secretHash) {
    await tx.insertInto("psu_apps").values({
      id: app.id, psu_id: app.psuId, secret_hash: secretHash, pin_hash: app.pinHash,
      csrf: app.csrf, created_at: app.createdAt, last_used_at: app.lastUsedAt, revoked_at: null,
    }).execute();
  },

  async findBySecret(tx, secretHash) {
    const row = await tx.selectFrom("psu_apps").selectAll().where("secret_hash", "=", secretHash)
      .where("revoked_at", "is", null).executeTakeFirst();
    return row && toApp(row);
  },

  async listOf(tx, psuId) {
    const rows = await tx.selectFrom("psu_apps").selectAll().where("psu_id", "=", psuId)
      .where("revoked_at", "is", null).orderBy("created_at").execute();
    return rows.map(toApp);
  },

  async revoke(tx, id, psuId, at) {
    const result = await tx.updateTable("psu_apps").set({ revoked_at: at }).where("id", "=", id)
      .where("psu_id", "=", psuId).where("revoked_at", "is", null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async touch(tx, id, at) {
    await tx.updateTable("psu_apps").set({ last_used_at: at }).where("id", "=", id).execute();
  },
};
