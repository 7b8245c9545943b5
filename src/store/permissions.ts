/** The permission dashboard's storage (domain/dashboard/ports.ts PermissionPort). */
import type { PermissionPort } from "../domain/dashboard/ports.js";
import type { OnStore, Tx } from "./handle.js";

/** Consents purged per statement: a bounded IN list on both engines. */
const BATCH = 200;

/** What hangs on a consent's authorisations, then the authorisations themselves. */
async function deleteAuthorisations(tx: Tx, resourceIds: string[]): Promise<void> {
  const authorisations = tx.selectFrom("authorisations").select("id")
    .where("resource_id", "in", resourceIds);
  const sessions = tx.selectFrom("sca_sessions").select("id")
    .where("authorisation_id", "in", authorisations);
  await tx.deleteFrom("otp_challenges").where("session_id", "in", sessions).execute();
  await tx.deleteFrom("sca_sessions").where("authorisation_id", "in", authorisations).execute();
  await tx.deleteFrom("authorisation_methods").where("authorisation_id", "in", authorisations)
    .execute();
  await tx.deleteFrom("authorisation_confirmations")
    .where("authorisation_id", "in", authorisations).execute();
  await tx.deleteFrom("authorisations").where("resource_id", "in", resourceIds).execute();
}

async function deleteConsents(tx: Tx, ids: string[]): Promise<void> {
  await deleteAuthorisations(tx, ids);
  const byConsent = ["consent_accounts", "consent_access_counts", "consent_delta_marks"] as const;
  for (const table of byConsent) {
    await tx.deleteFrom(table).where("consent_id", "in", ids).execute();
  }
  for (const table of ["notifications", "notification_subscriptions", "oauth_records",
    "permission_purposes"] as const) {
    await tx.deleteFrom(table).where("resource_id", "in", ids).execute();
  }
  await tx.deleteFrom("consents").where("id", "in", ids).execute();
}

export const permissionRepository: OnStore<PermissionPort> = {
  async declarePurpose(tx, resourceId, purpose, at) {
    await tx.insertInto("permission_purposes")
      .values({ resource_id: resourceId, purpose, declared_at: at }).execute();
  },

  async purposes(tx, resourceIds) {
    if (resourceIds.length === 0) return new Map();
    const rows = await tx.selectFrom("permission_purposes").select(["resource_id", "purpose"])
      .where("resource_id", "in", [...resourceIds]).execute();
    return new Map(rows.map((r) => [r.resource_id, r.purpose]));
  },

  async purgeConsents(tx, ended, before) {
    let purged = 0;
    for (;;) {
      const ids = (await tx.selectFrom("consents").select("id")
        .where("status", "in", [...ended]).where("updated_at", "<", before)
        .limit(BATCH).execute()).map((r) => r.id);
      if (ids.length === 0) return purged;
      await deleteConsents(tx, ids);
      purged += ids.length;
    }
  },
};
