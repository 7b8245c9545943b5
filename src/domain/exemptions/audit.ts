/**
 * The SCA exemptions of Commission Delegated Regulation 2018/389 (as amended by 2022/2360) as
 * the bank records them: each one applied is in the audit log with its article, so that the
 * operator (`payment show`) sees why a payment or consent went without a second factor.
 */
import { newTimeOrderedUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { ScaExemption } from "../sca/model.js";

/** What each article exempts, as the audit log and `payment show` name it. */
export const EXEMPTION_NAMES: Readonly<Record<ScaExemption, string>> = {
  "10a": "account information within 180 days of the last SCA",
  "13": "trusted beneficiary",
  "14": "recurring transaction, same amount and payee",
  "16": "low-value payment",
  "18": "transaction risk analysis",
  sandbox: "the sandbox's test PSU rule",
};

/** The reason an exemption gives, e.g. "RTS art. 16 (low-value payment)". */
export const exemptionReason = (exemption: ScaExemption) => (exemption === "sandbox"
  ? `${EXEMPTION_NAMES.sandbox} (no RTS article; sandbox mode only)`
  : `RTS art. ${exemption} (${EXEMPTION_NAMES[exemption]})`);

/** The audit log's path of an exemption applied: PSU's confirmation or bank's execution. */
export const exemptionAuditPath = (exemption: ScaExemption, what = "/sca/confirm") =>
  `${what} (SCA exempted: ${exemptionReason(exemption)})`;

/** One exemption applied, in the audit log (in the decision's transaction). */
export async function auditExemption(
  { store }: Pick<Deps, "store">, tx: Tx,
  applied: { exemption: ScaExemption; tppId: string; resourceId: string; at: string },
  what?: string,
): Promise<void> {
  await store.audit.append(tx, [{
    id: newTimeOrderedUuid(), at: applied.at, tppId: applied.tppId, requestId: null,
    psuIp: null, method: what === undefined ? "PSU" : "BANK",
    path: exemptionAuditPath(applied.exemption, what), resourceId: applied.resourceId,
    status: 200, ms: 0,
  }]);
}
