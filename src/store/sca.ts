/**
 * Authorisations, PSU redirect sessions, spent redirect tokens, one-time codes and the sandbox's
 * SMS outbox. Everything that makes a step single-use is a conditional write here.
 */
import type { Selectable } from "kysely";
import type {
  Authorisation, AuthorisedResource, ScaSession, ScaStatus, ScaStep,
} from "../domain/sca/model.js";
import type { Tx } from "./db.js";
import type { AuthorisationTable, ScaSessionTable } from "./schema.js";
import { sessionSteps } from "./session-steps.js";

function toAuthorisation(row: Selectable<AuthorisationTable>): Authorisation {
  return {
    id: row.id, resourceType: row.resource_type as AuthorisedResource, resourceId: row.resource_id,
    tppId: row.tpp_id, scaStatus: row.sca_status as ScaStatus, psuId: row.psu_id, lang: row.lang,
  };
}

function toSession(row: Selectable<ScaSessionTable>): ScaSession {
  return {
    id: row.id, authorisationId: row.authorisation_id, step: row.step as ScaStep,
    psuId: row.psu_id, deviceId: row.device_id, csrf: row.csrf, lang: row.lang,
    lastSeenAt: row.last_seen_at,
  };
}

const scaSteps = sessionSteps<ScaStep>("sca_sessions");

export interface OtpChallenge { codeHash: string; binding: string; expiresAt: string; usedAt: string | null }

export const scaRepository = {
  async insertAuthorisation(tx: Tx, a: Authorisation, at: string): Promise<void> {
    await tx.insertInto("authorisations").values({
      id: a.id, resource_type: a.resourceType, resource_id: a.resourceId, tpp_id: a.tppId,
      sca_status: a.scaStatus, psu_id: a.psuId, lang: a.lang, created_at: at, updated_at: at,
    }).execute();
  },

  async authorisationsOf(tx: Tx, resourceId: string): Promise<(Authorisation & { createdAt: string; updatedAt: string })[]> {
    const rows = await tx.selectFrom("authorisations").selectAll().where("resource_id", "=", resourceId)
      .orderBy("created_at").orderBy("id").execute();
    return rows.map((row) => ({ ...toAuthorisation(row), createdAt: row.created_at, updatedAt: row.updated_at }));
  },

  async findAuthorisation(tx: Tx, id: string): Promise<Authorisation | undefined> {
    const row = await tx.selectFrom("authorisations").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toAuthorisation(row);
  },

  async setScaStatus(
    tx: Tx, id: string, from: readonly ScaStatus[], to: ScaStatus, at: string, psuId?: string,
  ): Promise<boolean> {
    let update = tx.updateTable("authorisations").set({ sca_status: to, updated_at: at })
      .where("id", "=", id).where("sca_status", "in", [...from]);
    if (psuId !== undefined) update = update.set({ psu_id: psuId });
    return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
  },

  /** Ends every authorisation of a resource still in progress: the resource no longer waits. */
  async failOpenAuthorisations(tx: Tx, resourceId: string, at: string): Promise<void> {
    await tx.updateTable("authorisations").set({ sca_status: "failed", updated_at: at })
      .where("resource_id", "=", resourceId)
      .where("sca_status", "in", ["received", "psuIdentified", "psuAuthenticated"]).execute();
  },

  /** Records a redirect token's id; false when it was already used (single use). */
  async spendToken(tx: Tx, jti: string, expiresAt: string): Promise<boolean> {
    const result = await tx.insertInto("used_tokens").values({ jti, expires_at: expiresAt })
      .onConflict((oc) => oc.column("jti").doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  async insertSession(tx: Tx, s: ScaSession, at: string): Promise<void> {
    await tx.insertInto("sca_sessions").values({
      id: s.id, authorisation_id: s.authorisationId, step: s.step, psu_id: s.psuId,
      device_id: s.deviceId, csrf: s.csrf, lang: s.lang, created_at: at, last_seen_at: at,
    }).execute();
  },

  async findSession(tx: Tx, id: string): Promise<ScaSession | undefined> {
    const row = await tx.selectFrom("sca_sessions").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toSession(row);
  },

  async touchSession(tx: Tx, id: string, at: string): Promise<void> {
    await tx.updateTable("sca_sessions").set({ last_seen_at: at }).where("id", "=", id).execute();
  },

  advanceSession: scaSteps.advance,
  renameSession: scaSteps.rename,
  deleteSession: scaSteps.remove,

  async putChallenge(tx: Tx, sessionId: string, c: OtpChallenge): Promise<void> {
    await tx.deleteFrom("otp_challenges").where("session_id", "=", sessionId).execute();
    await tx.insertInto("otp_challenges").values({
      session_id: sessionId, code_hash: c.codeHash, binding: c.binding,
      expires_at: c.expiresAt, used_at: c.usedAt,
    }).execute();
  },

  async findChallenge(tx: Tx, sessionId: string): Promise<OtpChallenge | undefined> {
    const row = await tx.selectFrom("otp_challenges").selectAll()
      .where("session_id", "=", sessionId).executeTakeFirst();
    return row && {
      codeHash: row.code_hash, binding: row.binding, expiresAt: row.expires_at, usedAt: row.used_at,
    };
  },

  async useChallenge(tx: Tx, sessionId: string, at: string): Promise<boolean> {
    const result = await tx.updateTable("otp_challenges").set({ used_at: at })
      .where("session_id", "=", sessionId).where("used_at", "is", null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async sendSms(tx: Tx, sms: { id: string; psuId: string; phone: string; text: string; at: string }) {
    const last = await tx.selectFrom("sms_outbox")
      .select((eb) => eb.fn.max<number | string>("seq").as("seq")).executeTakeFirst();
    await tx.insertInto("sms_outbox").values({
      id: sms.id, psu_id: sms.psuId, phone: sms.phone, text: sms.text, created_at: sms.at,
      seq: BigInt(last?.seq ?? 0) + 1n,
    }).execute();
  },

  async smsOf(tx: Tx, psuId: string, limit: number) {
    return tx.selectFrom("sms_outbox").select(["phone", "text", "created_at"])
      .where("psu_id", "=", psuId).orderBy("seq", "desc").limit(limit).execute();
  },
};
