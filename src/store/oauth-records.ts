/** The OAuth authorisation server's records (domain/kernel/ports.ts OAuthRecordPort). */
import type { Selectable } from "kysely";
import type { OAuthRecord, OAuthRecordPort } from "../domain/kernel/ports.js";
import type { OnStore, Tx } from "./handle.js";
import type { OAuthRecordTable } from "./schema.js";

const seconds = (value: number | bigint | string | null) => value === null ? null : Number(value);

function toRecord(row: Selectable<OAuthRecordTable>): OAuthRecord {
  return {
    payload: row.payload, grantId: row.grant_id, uid: row.uid, resourceId: row.resource_id,
    expiresAt: seconds(row.expires_at), consumedAt: seconds(row.consumed_at),
  };
}

async function revokeGrant(tx: Tx, grantId: string): Promise<void> {
  await tx.deleteFrom("oauth_records").where("grant_id", "=", grantId).execute();
  await tx.deleteFrom("oauth_records").where("model", "=", "Grant").where("id", "=", grantId)
    .execute();
}

export const oauthRecordRepository: OnStore<OAuthRecordPort> = {
  async save(tx, model, id, record) {
    const values = {
      payload: record.payload, grant_id: record.grantId, uid: record.uid,
      resource_id: record.resourceId, expires_at: record.expiresAt,
    };
    await tx.insertInto("oauth_records").values({ model, id, ...values, consumed_at: null })
      .onConflict((oc) => oc.columns(["model", "id"]).doUpdateSet(values)).execute();
  },

  async find(tx, model, id) {
    const row = await tx.selectFrom("oauth_records").selectAll().where("model", "=", model)
      .where("id", "=", id).executeTakeFirst();
    return row && toRecord(row);
  },

  async findByUid(tx, model, uid) {
    return tx.selectFrom("oauth_records").select("id").where("model", "=", model)
      .where("uid", "=", uid).executeTakeFirst();
  },

  async consume(tx, model, id, at) {
    const result = await tx.updateTable("oauth_records").set({ consumed_at: at })
      .where("model", "=", model).where("id", "=", id).where("consumed_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async destroy(tx, model, id) {
    await tx.deleteFrom("oauth_records").where("model", "=", model).where("id", "=", id).execute();
  },

  revokeGrant,

  async revokeResource(tx, resourceId) {
    const grants = await tx.selectFrom("oauth_records").select("grant_id").distinct()
      .where("resource_id", "=", resourceId).where("grant_id", "is not", null).execute();
    for (const { grant_id } of grants) if (grant_id) await revokeGrant(tx, grant_id);
  },

  async prune(tx, at) {
    const result = await tx.deleteFrom("oauth_records").where("expires_at", "<", at)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
