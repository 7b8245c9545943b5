/**
 * Which payment may go without the PSU's second factor (RTS 2018/389), and the count of those
 * that did. Only a single remote credit transfer in EUR that one signature authorises may: a
 * standing order's first execution and a bulk need SCA (art. 14 exempts only the executions
 * after it), and so do every cancellation and each signature of a multi-level payment. What an
 * exemption allows is checked when the PSU logs in (to skip the code) and again, with the count,
 * when it confirms: a limit reached in between refuses the confirmation.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps, ExemptionSettings } from "../deps.js";
import type { ScaExemption } from "../sca/model.js";
import type { SpentSinceSca } from "../sca/ports.js";

/** RTS art. 16: at most 30 EUR each; since the last SCA at most 100 EUR, or 5 payments. */
export const LOW_VALUE_MAX_MINOR = 30_00n;
export const LOW_VALUE_LIMITS = {
  amount: { amountMinor: 100_00n }, count: { payments: 5 },
} as const satisfies Record<string, Partial<SpentSinceSca>>;

/**
 * RTS art. 18 and its annex: a remote credit transfer up to `upToMinor` may be exempt while the
 * bank's fraud rate is at most the reference rate (in parts per million of the amount).
 */
export const TRA_BANDS = [
  { upToMinor: 100_00n, referencePpm: 150n },
  { upToMinor: 250_00n, referencePpm: 100n },
  { upToMinor: 500_00n, referencePpm: 50n },
] as const;

/** RTS art. 19: the fraud rate is taken over the last 90 days. */
export const FRAUD_RATE_DAYS = 90;

/**
 * What the rules read of a payment (payment/model.ts's Payment): the exemptions are the bank's
 * rules over payments, not a part of the payment's lifecycle, which asks them.
 */
export interface ExemptablePayment {
  service: string;
  currency: string;
  amountMinor: bigint;
  creditorAccount: { iban: string };
  signaturesRequired?: number;
}

/** The exemption a PSU may take on this payment, given what it can show (a known device). */
export interface PaymentUnderReview {
  psuId: string;
  payment: ExemptablePayment;
  knownDevice: boolean;
}

/** A company's payment that needs several signatures gets an SCA for each (multi-level). */
const exemptable = (p: ExemptablePayment) => p.service === "payments" && p.currency === "EUR"
  && (p.signaturesRequired ?? 1) <= 1;

/** The bank's fraud rate over the last 90 days, in parts per million (none executed: 0). */
export async function fraudRatePpm(
  deps: Pick<Deps, "store" | "clock">, tx: Tx,
): Promise<bigint> {
  const since = new Date(deps.clock.now().getTime() - FRAUD_RATE_DAYS * 86_400_000);
  const { all, fraud } = await deps.store.exemptions.fraudVolumes(tx, since.toISOString());
  return all === 0n ? 0n : (fraud * 1_000_000n) / all;
}

/** The largest amount the fraud rate allows under art. 18 (0: none). */
export async function traLimitMinor(
  deps: Pick<Deps, "store" | "clock">, tx: Tx,
): Promise<bigint> {
  const rate = await fraudRatePpm(deps, tx);
  const allowed = TRA_BANDS.filter((band) => rate <= band.referencePpm);
  return allowed.at(-1)?.upToMinor ?? 0n;
}

function withinLowValue(on: ExemptionSettings["lowValue"], spent: SpentSinceSca, amount: bigint) {
  if (on === "off" || amount > LOW_VALUE_MAX_MINOR) return false;
  return on === "count" ? spent.payments < LOW_VALUE_LIMITS.count.payments
    : spent.amountMinor + amount <= LOW_VALUE_LIMITS.amount.amountMinor;
}

/** What the rules read: the counters and the fraud rate, the time, the bank's settings. */
type RuleDeps = Pick<Deps, "store" | "clock" | "settings">;

async function allows(deps: RuleDeps, tx: Tx, exemption: ScaExemption, r: PaymentUnderReview) {
  const on = deps.settings.exemptions;
  const { store } = deps;
  const p = r.payment;
  switch (exemption) {
    case "13": return on.trustedPayees && (await store.exemptions.trustedPayees(tx, r.psuId))
      .some((payee) => payee.iban === p.creditorAccount.iban);
    case "16": return withinLowValue(on.lowValue,
      await store.exemptions.spentSinceSca(tx, r.psuId), p.amountMinor);
    case "18": return on.transactionRisk && r.knownDevice
      && p.amountMinor <= (await traLimitMinor(deps, tx));
    // Recorded only for the sandbox's always-exempted test PSU (test-psus.ts).
    case "sandbox": return deps.settings.sandbox === true;
    default: return false;
  }
}

/** The first exemption (art. 13, 16, 18, in that order) this payment may take, or null. */
export async function paymentExemption(
  deps: RuleDeps, tx: Tx, r: PaymentUnderReview,
): Promise<ScaExemption | null> {
  if (!exemptable(r.payment)) return null;
  for (const exemption of ["13", "16", "18"] as const) {
    if (await allows(deps, tx, exemption, r)) return exemption;
  }
  return null;
}

/**
 * On confirmation: whether the exemption taken at login still holds, and if so counts the
 * payment as one without a second factor (every exemption counts towards art. 16's limits,
 * which count every payment since the last SCA). False: nothing counted.
 */
export async function spendExemption(
  deps: RuleDeps, tx: Tx, exemption: ScaExemption, r: Omit<PaymentUnderReview, "knownDevice">,
): Promise<boolean> {
  const { exemptions } = deps.store;
  const amount = r.payment.amountMinor;
  if (exemption === "16") {
    const on = deps.settings.exemptions.lowValue;
    if (on === "off" || !(await allows(deps, tx, "16", { ...r, knownDevice: false }))) return false;
    return exemptions.spendWithoutSca(tx, r.psuId, amount, LOW_VALUE_LIMITS[on]);
  }
  // The device was checked at login; the rest again now (the list or the fraud rate changed).
  if (!(await allows(deps, tx, exemption, { ...r, knownDevice: true }))) return false;
  return exemptions.spendWithoutSca(tx, r.psuId, amount);
}
