/**
 * The SCA exemptions' records (domain/sca/ports.ts ExemptionPort). The low-value counters are
 * spent with one conditional update, so two payments confirmed at once never both pass a limit.
 */
import type { ExemptionPort } from "../domain/sca/ports.js";
import type { OnStore } from "./handle.js";

/** Statuses of an executed credit transfer, for the fraud rate's denominator. */
const EXECUTED = ["ACSC", "ACCC", "ACSP"];

export const exemptionRepository: OnStore<ExemptionPort> = {
  async recordExemption(tx, authorisationId, exemption) {
    await tx.updateTable("authorisations").set({ exemption }).where("id", "=", authorisationId)
      .execute();
  },

  async spentSinceSca(tx, psuId) {
    const row = await tx.selectFrom("exemption_counters").select(["payments", "amount"])
      .where("psu_id", "=", psuId).executeTakeFirst();
    return { payments: row?.payments ?? 0, amountMinor: BigInt(row?.amount ?? 0) };
  },

  async spendWithoutSca(tx, psuId, amountMinor, limits = {}) {
    await tx.insertInto("exemption_counters").values({ psu_id: psuId, payments: 0, amount: 0 })
      .onConflict((oc) => oc.column("psu_id").doNothing()).execute();
    let update = tx.updateTable("exemption_counters").set((eb) => ({
      payments: eb("payments", "+", 1), amount: eb("amount", "+", amountMinor.toString()),
    })).where("psu_id", "=", psuId);
    if (limits.payments !== undefined) {
      update = update.where("payments", "<", limits.payments);
    }
    const { amountMinor: most } = limits;
    if (most !== undefined) {
      update = update.where((eb) =>
        eb(eb("amount", "+", amountMinor.toString()), "<=", most.toString()));
    }
    return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
  },

  async resetSpent(tx, psuId) {
    await tx.deleteFrom("exemption_counters").where("psu_id", "=", psuId).execute();
  },

  async trustedPayees(tx, psuId) {
    const rows = await tx.selectFrom("trusted_payees").selectAll().where("psu_id", "=", psuId)
      .orderBy("created_at").orderBy("iban").execute();
    return rows.map((r) => ({ iban: r.iban, name: r.name, createdAt: r.created_at }));
  },

  async trust(tx, psuId, payee) {
    await tx.insertInto("trusted_payees").values({
      psu_id: psuId, iban: payee.iban, name: payee.name, created_at: payee.createdAt,
    }).onConflict((oc) => oc.columns(["psu_id", "iban"]).doUpdateSet({ name: payee.name }))
      .execute();
  },

  async distrust(tx, psuId, iban) {
    const result = await tx.deleteFrom("trusted_payees").where("psu_id", "=", psuId)
      .where("iban", "=", iban).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async lastConsentSca(tx, tppId, psuId) {
    const row = await tx.selectFrom("authorisations")
      .select((eb) => eb.fn.max("updated_at").as("at"))
      .where("tpp_id", "=", tppId).where("psu_id", "=", psuId)
      .where("resource_type", "=", "consent").where("sca_status", "=", "finalised")
      .executeTakeFirst();
    return row?.at ?? undefined;
  },

  async fraudVolumes(tx, since) {
    // A bulk counts by its payments, not its own row as well.
    const row = await tx.selectFrom("payments")
      .leftJoin("fraud_reports", "fraud_reports.payment_id", "payments.id")
      .select((eb) => [
        eb.fn.sum<string | number | null>("payments.amount").as("all"),
        eb.fn.sum<string | number | null>(eb.case()
          .when("fraud_reports.payment_id", "is not", null).then(eb.ref("payments.amount"))
          .else(0).end()).as("fraud"),
      ])
      .where("payments.status", "in", EXECUTED).where("payments.updated_at", ">=", since)
      .where((eb) => eb.or([
        eb("payments.service", "!=", "bulk-payments"), eb("payments.bulk_id", "is not", null),
      ]))
      .executeTakeFirst();
    return { all: BigInt(row?.all ?? 0), fraud: BigInt(row?.fraud ?? 0) };
  },

  async rememberDevice(tx, secretHash, psuId, at) {
    await tx.insertInto("known_devices")
      .values({ secret_hash: secretHash, psu_id: psuId, last_sca_at: at })
      .onConflict((oc) => oc.column("secret_hash").doUpdateSet({ psu_id: psuId, last_sca_at: at }))
      .execute();
  },

  async isKnownDevice(tx, secretHash, psuId) {
    const row = await tx.selectFrom("known_devices").select("psu_id")
      .where("secret_hash", "=", secretHash).where("psu_id", "=", psuId).executeTakeFirst();
    return row !== undefined;
  },
};
