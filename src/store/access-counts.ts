/** Per-day access counters of consents (frequencyPerDay): one row per consent, account,
 * endpoint and day. */
import type { Tx } from "./db.js";

export interface AccessKey { consentId: string; accountId: string; endpoint: string; day: string }

export const accessCountRepository = {
  async count(tx: Tx, k: AccessKey): Promise<number> {
    const row = await tx.selectFrom("consent_access_counts").select("count")
      .where("consent_id", "=", k.consentId).where("account_id", "=", k.accountId)
      .where("endpoint", "=", k.endpoint).where("day", "=", k.day).executeTakeFirst();
    return row?.count ?? 0;
  },

  async increment(tx: Tx, k: AccessKey): Promise<void> {
    await tx.insertInto("consent_access_counts").values({
      consent_id: k.consentId, account_id: k.accountId, endpoint: k.endpoint, day: k.day, count: 1,
    }).onConflict((oc) => oc.columns(["consent_id", "account_id", "endpoint", "day"])
      .doUpdateSet((eb) => ({ count: eb("consent_access_counts.count", "+", 1) }))).execute();
  },
};
