/** Per-day access counters of consents (frequencyPerDay): one row per consent, account,
 * endpoint and day. */
import type { AccessKey, DeltaMark } from "../domain/consent/ports.js";
import { sql } from "kysely";
import { compiledQuery } from "./compiled.js";
import { inChunks } from "./bulk.js";
import type { Engine, Tx } from "./handle.js";

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

  /** Every resource and endpoint a consent was read at on one day. */
  async readsOf(
    tx: Tx, consentId: string, day: string,
  ): Promise<{ accountId: string; endpoint: string }[]> {
    const rows = await tx.selectFrom("consent_access_counts").select(["account_id", "endpoint"])
      .where("consent_id", "=", consentId).where("day", "=", day).execute();
    return rows.map((r) => ({ accountId: r.account_id, endpoint: r.endpoint }));
  },
};

/** Compiled once: every deltaList request reads its mark. */
const deltaMark = compiledQuery(["consentId", "accountId"] as const,
  (tx, p: { consentId: string; accountId: string }) => tx.selectFrom("consent_delta_marks")
    .select("entry_reference").where("consent_id", "=", p.consentId)
    .where("account_id", "=", p.accountId));

/** A mark's key among the shared reads' keys: a consent id and an account id hold no space. */
export const markKey = (consentId: string, accountId: string) => `${consentId} ${accountId}`;

/** Compiled once: the marks of a turn's consents (PostgreSQL only, as `= any`). */
const marksOfConsents = compiledQuery(["ids"] as const, (tx, p: { ids: readonly string[] }) => tx
  .selectFrom("consent_delta_marks").select(["consent_id", "account_id", "entry_reference"])
  .where(sql<boolean>`consent_id = any(${p.ids})`));

/**
 * The marks of many consents and accounts (keys from `markKey`), in one statement: the shared
 * reads' batch (PostgreSQL only, cached-reads.ts); a key without a mark has none.
 */
export async function deltaMarksByKey(tx: Tx, keys: readonly string[]) {
  const ids = [...new Set(keys.map((key) => key.split(" ")[0]!))];
  const { rows } = await marksOfConsents(tx, { ids });
  const wanted = new Set(keys);
  return new Map(rows.map((r) => [markKey(r.consent_id, r.account_id), r.entry_reference] as const)
    .filter(([key]) => wanted.has(key)));
}

/** Marks of one statement at most (`inChunks`). */
const MARKS_MAX = 256;

/** deltaList: the last entryReference of an account a consent was given. */
export const createDeltaMarkRepository = (engine: Engine) => ({
  async get(tx: Tx, consentId: string, accountId: string): Promise<string | null> {
    const { rows: [row] } = await deltaMark(tx, { consentId, accountId });
    return row?.entry_reference ?? null;
  },

  async setAll(tx: Tx, marks: readonly DeltaMark[]): Promise<void> {
    // PostgreSQL refuses a statement that updates one row twice.
    const last = new Map(marks.map((m) => [markKey(m.consentId, m.accountId), m]));
    await inChunks(engine, [...last.values()], MARKS_MAX, async (chunk) => {
      await tx.insertInto("consent_delta_marks").values(chunk.map((m) => ({
        consent_id: m.consentId, account_id: m.accountId, entry_reference: m.entryReference,
      }))).onConflict((oc) => oc.columns(["consent_id", "account_id"])
        .doUpdateSet((eb) => ({ entry_reference: eb.ref("excluded.entry_reference") }))).execute();
    });
  },
});
