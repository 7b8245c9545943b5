/** PSUs and their authorisation devices (the SCA aggregate's PsuPort, and administration). */
import type { Selectable } from "kysely";
import type { Psu, ScaDevice } from "../domain/sca/model.js";
import type { PsuAdministrationPort, PsuPort } from "../domain/sca/ports.js";
import type { OnStore, Tx } from "./handle.js";
import type { PsuTable, ScaDeviceTable } from "./schema.js";

/** The logins of `psd2-bank generate`'s scale-test data sets, which share a published password. */
const GENERATED_LOGIN = /^s\d+-\d{7}$/;

function toPsu(row: Selectable<PsuTable>): Psu {
  return {
    id: row.id, login: row.login, name: row.name, passwordHash: row.password_hash,
    status: row.status as Psu["status"], failedAttempts: row.failed_attempts,
    blockedUntil: row.blocked_until, sandbox: row.sandbox_behaviour as Psu["sandbox"],
  };
}

function toDevice(row: Selectable<ScaDeviceTable>): ScaDevice {
  return {
    id: row.id, psuId: row.psu_id, kind: row.kind as ScaDevice["kind"], label: row.label,
    secret: row.secret, phone: row.phone,
    lastTotpStep: row.last_totp_step === null ? null : BigInt(row.last_totp_step),
  };
}

/** What the bank's administration does with PSUs besides the SCA aggregate's needs. */
export const psuRepository: OnStore<PsuPort & PsuAdministrationPort> = {
  async insert(tx: Tx, psu: Psu, createdAt: string): Promise<void> {
    await tx.insertInto("psus").values({
      id: psu.id, login: psu.login, name: psu.name, password_hash: psu.passwordHash,
      status: psu.status, failed_attempts: psu.failedAttempts, blocked_until: psu.blockedUntil,
      created_at: createdAt, sandbox_behaviour: psu.sandbox ?? null,
    }).execute();
  },

  async findByLogin(tx: Tx, login: string): Promise<Psu | undefined> {
    const row = await tx.selectFrom("psus").selectAll().where("login", "=", login)
      .executeTakeFirst();
    return row && toPsu(row);
  },

  async find(tx: Tx, id: string): Promise<Psu | undefined> {
    const row = await tx.selectFrom("psus").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toPsu(row);
  },

  async list(tx: Tx): Promise<Psu[]> {
    const rows = await tx.selectFrom("psus").selectAll().orderBy("login").execute();
    return rows.map(toPsu);
  },

  async setStatus(tx: Tx, id: string, status: Psu["status"]): Promise<void> {
    await tx.updateTable("psus").set({ status }).where("id", "=", id).execute();
  },

  async setPasswordHash(tx: Tx, id: string, passwordHash: string): Promise<void> {
    await tx.updateTable("psus").set({ password_hash: passwordHash }).where("id", "=", id)
      .execute();
  },

  async count(tx: Tx): Promise<number> {
    const row = await tx.selectFrom("psus")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async findDemo(tx: Tx, logins: readonly string[]): Promise<Psu[]> {
    const rows = await tx.selectFrom("psus").selectAll()
      .where((eb) => eb.or([
        eb("login", "in", [...logins]), eb("sandbox_behaviour", "is not", null),
        eb("login", "like", "s%-_______"),
      ]))
      .orderBy("login").execute();
    return rows.map(toPsu).filter((p) => p.sandbox || logins.includes(p.login)
      || GENERATED_LOGIN.test(p.login));
  },

  async retire(tx: Tx, id: string, at: string): Promise<void> {
    await tx.deleteFrom("sca_devices").where("psu_id", "=", id).execute();
    await tx.updateTable("psu_apps").set({ revoked_at: at })
      .where("psu_id", "=", id).where("revoked_at", "is", null).execute();
    await tx.updateTable("psus").set({
      // No argon2 hash: no password verifies against it.
      login: `removed-${id}`, password_hash: "!", status: "blocked",
      sandbox_behaviour: null, failed_attempts: 0, blocked_until: null,
    }).where("id", "=", id).execute();
  },

  async recordFailure(tx: Tx, id: string, blockedUntil: string | null): Promise<void> {
    await tx.updateTable("psus")
      .set((eb) => ({
        failed_attempts: eb("failed_attempts", "+", 1), blocked_until: blockedUntil,
      }))
      .where("id", "=", id).execute();
  },

  async resetFailures(tx: Tx, id: string): Promise<void> {
    await tx.updateTable("psus").set({ failed_attempts: 0, blocked_until: null })
      .where("id", "=", id).execute();
  },

  async insertDevice(tx: Tx, d: ScaDevice): Promise<void> {
    await tx.insertInto("sca_devices").values({
      id: d.id, psu_id: d.psuId, kind: d.kind, label: d.label, secret: d.secret, phone: d.phone,
      last_totp_step: d.lastTotpStep,
    }).execute();
  },

  async devices(tx: Tx, psuId: string): Promise<ScaDevice[]> {
    const rows = await tx.selectFrom("sca_devices").selectAll()
      .where("psu_id", "=", psuId).orderBy("id").execute();
    return rows.map(toDevice);
  },

  async findDevice(tx: Tx, id: string): Promise<ScaDevice | undefined> {
    const row = await tx.selectFrom("sca_devices").selectAll().where("id", "=", id)
      .executeTakeFirst();
    return row && toDevice(row);
  },

  /** Consumes a TOTP time step: succeeds only for a step later than any used before. */
  async useTotpStep(tx: Tx, deviceId: string, step: bigint): Promise<boolean> {
    const result = await tx.updateTable("sca_devices").set({ last_totp_step: step })
      .where("id", "=", deviceId)
      .where((eb) => eb.or([
        eb("last_totp_step", "is", null), eb("last_totp_step", "<", Number(step)),
      ]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
