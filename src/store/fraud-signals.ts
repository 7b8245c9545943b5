/** Fraud signals (domain/fraud/ports.ts FraudSignalPort): PSUs' reports, other PSPs' shares. */
import type { FlaggedPayee, FraudSignalPort } from "../domain/fraud/ports.js";
import type { OnStore } from "./handle.js";

/** Per IBAN, when each distinct PSU first reported it, earliest first. */
function firstReports(rows: readonly { payee_iban: string | null; psu_id: string | null;
  reported_at: string }[]): Map<string, string[]> {
  const first = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (row.payee_iban === null || row.psu_id === null) continue;
    const byPsu = first.get(row.payee_iban) ?? new Map<string, string>();
    if (!byPsu.has(row.psu_id)) byPsu.set(row.psu_id, row.reported_at);
    first.set(row.payee_iban, byPsu);
  }
  return new Map([...first].map(([iban, byPsu]) => [iban, [...byPsu.values()].sort()]));
}

export const fraudSignalRepository: OnStore<FraudSignalPort> = {
  async report(tx, r) {
    const result = await tx.insertInto("fraud_reports").values({
      payment_id: r.paymentId, reported_at: r.at, psu_id: r.psuId, payee_iban: r.payeeIban,
    }).onConflict((oc) => oc.column("payment_id").doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  async flaggedAmong(tx, ibans, reportersMin) {
    if (ibans.length === 0) return [];
    const reported = await tx.selectFrom("fraud_reports").select("payee_iban")
      .where("payee_iban", "in", [...ibans]).groupBy("payee_iban")
      .having((eb) => eb.fn.count("psu_id").distinct(), ">=", reportersMin).execute();
    const shared = await tx.selectFrom("shared_fraud_signals").select("iban")
      .where("iban", "in", [...ibans]).execute();
    return [...new Set([...reported.flatMap((r) => r.payee_iban ?? []),
      ...shared.map((s) => s.iban)])];
  },

  async flagged(tx, reportersMin) {
    const rows = await tx.selectFrom("fraud_reports")
      .select(["payee_iban", "psu_id", "reported_at"]).orderBy("reported_at").execute();
    const flagged = new Map<string, FlaggedPayee>();
    for (const [iban, times] of firstReports(rows)) {
      const at = times[reportersMin - 1];
      if (at !== undefined) {
        flagged.set(iban, { iban, flaggedAt: at, reporters: times.length, sharedBy: null });
      }
    }
    for (const s of await tx.selectFrom("shared_fraud_signals").selectAll().execute()) {
      const own = flagged.get(s.iban);
      flagged.set(s.iban, own ? { ...own, sharedBy: s.shared_by }
        : { iban: s.iban, flaggedAt: s.flagged_at, reporters: 0, sharedBy: s.shared_by });
    }
    return [...flagged.values()].sort((a, b) => a.iban.localeCompare(b.iban));
  },

  async share(tx, sharedBy, ibans, at) {
    let added = 0;
    for (const iban of ibans) {
      const result = await tx.insertInto("shared_fraud_signals")
        .values({ iban, shared_by: sharedBy, flagged_at: at })
        .onConflict((oc) => oc.column("iban").doNothing()).executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return added;
  },
};
