/**
 * Authorisations, PSU redirect sessions, spent redirect tokens, one-time codes, failed logins of
 * unknown names and the sandbox's SMS outbox (the SCA aggregate's ports, domain/sca/ports.ts).
 * Everything that makes a step single-use is a conditional write here.
 */
import { sql, type Selectable } from "kysely";
import type {
  Authorisation, AuthorisedResource, ScaExemption, ScaSession, ScaStatus, ScaStep,
} from "../domain/sca/model.js";
import type {
  AuthorisationPort, ChallengePort, ScaSessionPort, UnknownLoginPort,
} from "../domain/sca/ports.js";
import { groupBy } from "../lib/group.js";
import type { ScaApproach } from "../lib/sca-approaches.js";
import { compiledInsert, compiledQuery } from "./compiled.js";
import type { OnStore, Tx } from "./handle.js";
import type { AuthorisationTable, ScaSessionTable } from "./schema.js";
import { loginSessions } from "./session-steps.js";

/** An authorisation in neither of these still waits for its PSU. */
const FINAL = ["finalised", "failed", "exempted"];
/**
 * A literal, not a parameter: PostgreSQL's generic plan of a named statement matches only a
 * literal to the partial index's predicate (migration 0350).
 */
const DECOUPLED = sql.lit("decoupled");

const insertAuthorisation = compiledInsert("authorisations", [
  "id", "resource_type", "resource_id", "tpp_id", "sca_status", "psu_id", "lang", "created_at",
  "updated_at", "named_psu", "approach",
]);

function toAuthorisation(row: Selectable<AuthorisationTable>): Authorisation {
  return {
    id: row.id, resourceType: row.resource_type as AuthorisedResource, resourceId: row.resource_id,
    tppId: row.tpp_id, scaStatus: row.sca_status as ScaStatus, psuId: row.psu_id, lang: row.lang,
    namedPsu: row.named_psu, approach: row.approach as ScaApproach, createdAt: row.created_at,
    exemption: row.exemption as ScaExemption | null,
  };
}

function toSession(row: Selectable<ScaSessionTable>): ScaSession {
  return {
    id: row.id, authorisationId: row.authorisation_id, step: row.step as ScaStep,
    psuId: row.psu_id, deviceId: row.device_id, csrf: row.csrf, lang: row.lang,
    lastSeenAt: row.last_seen_at, returnTo: row.return_to,
  };
}

export const scaSessionRepository: OnStore<ScaSessionPort> = {
  ...loginSessions<ScaSession>("sca_sessions"),

  async find(tx, id) {
    const row = await tx.selectFrom("sca_sessions").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toSession(row);
  },

  async insert(tx, s, at) {
    await tx.insertInto("sca_sessions").values({
      id: s.id, authorisation_id: s.authorisationId, step: s.step, psu_id: s.psuId,
      device_id: s.deviceId, csrf: s.csrf, lang: s.lang, created_at: at, last_seen_at: at,
      return_to: s.returnTo ?? null,
    }).execute();
  },
};

type TimedAuthorisation = Authorisation & { createdAt: string; updatedAt: string };

const timed = (row: Selectable<AuthorisationTable>): TimedAuthorisation =>
  ({ ...toAuthorisation(row), createdAt: row.created_at, updatedAt: row.updated_at });

/** Compiled once: the authorisations of a turn's resources (PostgreSQL only, as `= any`). */
const authorisationsOfResources = compiledQuery(["ids"] as const,
  (tx, p: { ids: readonly string[] }) => tx.selectFrom("authorisations").selectAll()
    .where(sql<boolean>`resource_id = any(${p.ids})`).orderBy("created_at").orderBy("id"));

/**
 * The authorisations of each of `resourceIds`, oldest first, in one statement: the shared reads'
 * batch (PostgreSQL only, cached-reads.ts); a resource without any has none.
 */
export async function authorisationsByResource(
  tx: Tx, resourceIds: readonly string[],
): Promise<Map<string, TimedAuthorisation[]>> {
  const { rows } = await authorisationsOfResources(tx, { ids: resourceIds });
  return new Map([...groupBy(rows, (row) => row.resource_id)]
    .map(([id, own]) => [id, own.map(timed)]));
}

export const scaRepository: OnStore<AuthorisationPort & ChallengePort> = {
  async discardAuthorisation(tx, id) {
    await tx.deleteFrom("sca_sessions").where("authorisation_id", "=", id).execute();
    await tx.deleteFrom("authorisation_methods").where("authorisation_id", "=", id).execute();
    const result = await tx.deleteFrom("authorisations").where("id", "=", id)
      .where("sca_status", "in", ["received", "psuIdentified"]).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async insertAuthorisation(tx, a, at) {
    await insertAuthorisation(tx, {
      id: a.id, resource_type: a.resourceType, resource_id: a.resourceId, tpp_id: a.tppId,
      sca_status: a.scaStatus, psu_id: a.psuId, lang: a.lang, created_at: at, updated_at: at,
      named_psu: a.namedPsu ?? null, approach: a.approach ?? "redirect",
    });
  },

  async authorisationsOf(tx, resourceId) {
    const rows = await tx.selectFrom("authorisations").selectAll()
      .where("resource_id", "=", resourceId).orderBy("created_at").orderBy("id").execute();
    return rows.map(timed);
  },

  async pendingDecoupled(tx, login) {
    const rows = await tx.selectFrom("authorisations").selectAll()
      .where("approach", "=", DECOUPLED).where("named_psu", "=", login)
      .where("sca_status", "not in", FINAL)
      .orderBy("created_at").orderBy("id").limit(50).execute();
    return rows.map(toAuthorisation);
  },

  async namePsu(tx, id, login) {
    const result = await tx.updateTable("authorisations").set({ named_psu: login })
      .where("id", "=", id).where("named_psu", "is", null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async pendingDecoupledOfSandbox(tx, behaviour) {
    const rows = await tx.selectFrom("authorisations")
      .innerJoin("psus", "psus.login", "authorisations.named_psu")
      .selectAll("authorisations").where("psus.sandbox_behaviour", "=", behaviour)
      .where("authorisations.approach", "=", DECOUPLED)
      .where("authorisations.sca_status", "not in", FINAL).limit(100).execute();
    return rows.map(toAuthorisation);
  },

  async lateDecoupled(tx, before, limit) {
    const rows = await tx.selectFrom("authorisations").selectAll()
      .where("approach", "=", DECOUPLED).where("sca_status", "not in", FINAL)
      .where("created_at", "<", before).orderBy("created_at").limit(limit).execute();
    return rows.map(toAuthorisation);
  },

  async findAuthorisation(tx, id) {
    const row = await tx.selectFrom("authorisations").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toAuthorisation(row);
  },

  async setScaStatus(tx, id, from, to, at, psuId) {
    let update = tx.updateTable("authorisations").set({ sca_status: to, updated_at: at })
      .where("id", "=", id).where("sca_status", "in", [...from]);
    if (psuId !== undefined) update = update.set({ psu_id: psuId });
    return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
  },

  async setScaStatusOf(tx, resourceId, from, to, at) {
    const rows = await tx.updateTable("authorisations").set({ sca_status: to, updated_at: at })
      .where("resource_id", "=", resourceId).where("sca_status", "in", [...from])
      .returning("id").execute();
    return rows.map((row) => row.id);
  },

  /** Records a redirect token's id; false when it was already used (single use). */
  async spendToken(tx, jti, expiresAt) {
    const result = await tx.insertInto("used_tokens").values({ jti, expires_at: expiresAt })
      .onConflict((oc) => oc.column("jti").doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  async tokenSpent(tx, jti) {
    const row = await tx.selectFrom("used_tokens").select("jti").where("jti", "=", jti)
      .executeTakeFirst();
    return row !== undefined;
  },

  async forgetTokensExpiredBefore(tx, before) {
    const result = await tx.deleteFrom("used_tokens").where("expires_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async chooseMethod(tx, authorisationId, deviceId) {
    await tx.insertInto("authorisation_methods")
      .values({ authorisation_id: authorisationId, device_id: deviceId })
      .onConflict((oc) => oc.column("authorisation_id").doUpdateSet({ device_id: deviceId }))
      .execute();
  },

  async chosenMethod(tx, authorisationId) {
    const row = await tx.selectFrom("authorisation_methods").select("device_id")
      .where("authorisation_id", "=", authorisationId).executeTakeFirst();
    return row?.device_id;
  },

  async putChallenge(tx, sessionId, c) {
    const previous = await tx.deleteFrom("otp_challenges").where("session_id", "=", sessionId)
      .returning("sends").executeTakeFirst();
    await tx.insertInto("otp_challenges").values({
      session_id: sessionId, code_hash: c.codeHash, binding: c.binding,
      expires_at: c.expiresAt, used_at: c.usedAt, sends: (previous?.sends ?? 0) + 1,
    }).execute();
  },

  async findChallenge(tx, sessionId) {
    const row = await tx.selectFrom("otp_challenges").selectAll()
      .where("session_id", "=", sessionId).executeTakeFirst();
    return row && {
      codeHash: row.code_hash, binding: row.binding, expiresAt: row.expires_at, usedAt: row.used_at,
      sends: Number(row.sends),
    };
  },

  async useChallenge(tx, sessionId, at) {
    const result = await tx.updateTable("otp_challenges").set({ used_at: at })
      .where("session_id", "=", sessionId).where("used_at", "is", null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async sendSms(tx, sms) {
    const last = await tx.selectFrom("sms_outbox")
      .select((eb) => eb.fn.max<number | string>("seq").as("seq")).executeTakeFirst();
    await tx.insertInto("sms_outbox").values({
      id: sms.id, psu_id: sms.psuId, phone: sms.phone, text: sms.text, created_at: sms.at,
      seq: BigInt(last?.seq ?? 0) + 1n,
    }).execute();
  },

  async smsOf(tx, psuId, limit) {
    return tx.selectFrom("sms_outbox").select(["phone", "text", "created_at"])
      .where("psu_id", "=", psuId).orderBy("seq", "desc").limit(limit).execute();
  },
};

export const unknownLoginRepository: OnStore<UnknownLoginPort> = {
  async failures(tx, key) {
    const row = await tx.selectFrom("unknown_login_failures").selectAll()
      .where("login_key", "=", key).executeTakeFirst();
    return row && { failedAttempts: Number(row.failed_attempts), blockedUntil: row.blocked_until };
  },

  async recordFailure(tx, key, blockedUntil) {
    await tx.insertInto("unknown_login_failures")
      .values({ login_key: key, failed_attempts: 1, blocked_until: blockedUntil })
      .onConflict((oc) => oc.column("login_key").doUpdateSet((eb) => ({
        failed_attempts: eb("unknown_login_failures.failed_attempts", "+", 1),
        blocked_until: blockedUntil,
      }))).execute();
  },
};
