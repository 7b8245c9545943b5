/**
 * A payment's status as an ISO 20022 CustomerPaymentStatusReport, for every payment however it
 * was initiated (JSON or pain.001; single, periodic or bulk): pain.002.001.03 for a payment
 * that came as pain.001.001.03, the generation SEPA pairs them in, and pain.002.001.10 for
 * every other. A pain.001's own MsgId and PmtInfId are named back as OrgnlMsgId and
 * OrgnlPmtInfId; a JSON payment's report names it by its paymentId instead.
 */
import type { Payment, TransactionStatus } from "../../domain/payment/model.js";
import { formatAmount } from "../../lib/money.js";
import { buildXml, type XmlNode } from "./xml.js";
import type { RejectionReason } from "../../domain/account-information/core-banking.js";

export const PAIN_002 = "pain.002.001.10";
export const PAIN_002_V03 = "pain.002.001.03";
type ReportVersion = typeof PAIN_002 | typeof PAIN_002_V03;

/**
 * pain.002.001.03 knows fewer statuses than a payment reaches (Transaction{Group,Individual}
 * Status3Code): each other one as the nearest it has; a cancellation is RJCT with its reason
 * DS02, as SEPA reports it.
 */
const V03_GROUP: Partial<Record<TransactionStatus, string>> = {
  ACCC: "ACSC", CANC: "RJCT", PATC: "PDNG", RCVC: "RCVD", RVCM: "RCVD", RVNC: "RCVD",
};
const V03_TRANSACTION: Partial<Record<TransactionStatus, string>> = {
  ...V03_GROUP, RCVD: "PDNG", RCVC: "PDNG", RVCM: "PDNG", RVNC: "PDNG", PART: "ACSP",
};

function statusIn(version: ReportVersion, status: TransactionStatus, group: boolean): string {
  if (version === PAIN_002) return status;
  return (group ? V03_GROUP : V03_TRANSACTION)[status] ?? status;
}

const versionOf = (payment: Payment): ReportVersion =>
  (payment.initiationMessage?.name === "pain.001.001.03" ? PAIN_002_V03 : PAIN_002);

/** What OrgnlMsgNmId says of a JSON initiation: Berlin Group's payment initiation. */
export const ORIGINAL_MESSAGE_NAME = "pain.001";

// End-to-end id SEPA uses when the initiating party gave none.
const NOT_PROVIDED = "NOTPROVIDED";

/**
 * The bank's own refusal reasons as ISO 20022 ExternalStatusReason1Code codes; a refusal without
 * a recorded reason is the PSU's (MS02, "not specified by the customer"). An account to itself
 * has no code of its own: AG01, "transaction forbidden" on that account (not AM03, which says
 * the currency is not allowed).
 */
const REASON_CODES: Readonly<Record<RejectionReason | "sca_expired", string>> = {
  account_unknown: "AC01", account_blocked: "AC06", currency_mismatch: "AM03",
  same_account: "AG01", insufficient_funds: "AM04", limit_exceeded: "AM02",
  sca_expired: "AB05",
};
const UNSPECIFIED = "MS02";
const CANCELLED = "DS02";

/** The ISO code of a rejection's recorded reason (RejectionReason, or null for the PSU's). */
export function rejectionCode(reason: string | null): string {
  return (reason !== null && REASON_CODES[reason as RejectionReason]) || UNSPECIFIED;
}

function reasonOf(payment: Payment): XmlNode | undefined {
  if (payment.status === "CANC") return { Rsn: { Cd: CANCELLED } };
  if (payment.status !== "RJCT") return undefined;
  return { Rsn: { Cd: rejectionCode(payment.statusReason) } };
}

function amountOf(payment: Payment): string {
  return formatAmount(payment.amountMinor, payment.currency);
}

/** One transaction's status and reference; .03 writes its date and creditor one level flatter. */
function transaction(payment: Payment, version: ReportVersion): XmlNode {
  const reason = reasonOf(payment);
  const date = payment.requestedExecutionDate;
  const v03 = version === PAIN_002_V03;
  return {
    OrgnlEndToEndId: payment.endToEndId ?? NOT_PROVIDED,
    TxSts: statusIn(version, payment.status, false),
    ...(reason ? { StsRsnInf: reason } : {}),
    OrgnlTxRef: {
      Amt: { InstdAmt: { "#text": amountOf(payment), "@_Ccy": payment.currency } },
      ...(date === null ? {} : { ReqdExctnDt: v03 ? date : { Dt: date } }),
      DbtrAcct: { Id: { IBAN: payment.debtorAccount.iban } },
      Cdtr: v03 ? { Nm: payment.creditorName } : { Pty: { Nm: payment.creditorName } },
      CdtrAcct: { Id: { IBAN: payment.creditorAccount.iban } },
    },
  };
}

/** The control sum of payments sharing one currency, as ISO's DecimalNumber. */
function controlSum(payments: Payment[]): string | undefined {
  const [first] = payments;
  if (!first || payments.some((p) => p.currency !== first.currency)) return undefined;
  const total = payments.reduce((sum, p) => sum + p.amountMinor, 0n);
  return formatAmount(total, first.currency);
}

/**
 * The report of `payment` (for a bulk, with its `entries`): group status and, per transaction,
 * its own status and reason. `now` is the report's creation time, `messageId` its MsgId.
 */
export function pain002(
  payment: Payment, entries: Payment[], now: Date, messageId: string,
): string {
  const transactions = entries.length > 0 ? entries : [payment];
  const count = String(transactions.length);
  const sum = controlSum(transactions);
  const reason = reasonOf(payment);
  const version = versionOf(payment);
  const original = payment.initiationMessage;
  const group: XmlNode = {
    OrgnlMsgId: original?.messageId ?? payment.id,
    OrgnlMsgNmId: original?.name ?? ORIGINAL_MESSAGE_NAME,
    OrgnlCreDtTm: isoDateTime(new Date(payment.createdAt)), OrgnlNbOfTxs: count,
    ...(sum ? { OrgnlCtrlSum: sum } : {}),
    GrpSts: statusIn(version, payment.status, true),
    ...(reason ? { StsRsnInf: reason } : {}),
  };
  return buildXml({
    Document: {
      "@_xmlns": `urn:iso:std:iso:20022:tech:xsd:${version}`,
      CstmrPmtStsRpt: {
        GrpHdr: { MsgId: messageId, CreDtTm: isoDateTime(now) },
        OrgnlGrpInfAndSts: group,
        OrgnlPmtInfAndSts: {
          OrgnlPmtInfId: original?.paymentInformationId ?? payment.id, OrgnlNbOfTxs: count,
          ...(sum ? { OrgnlCtrlSum: sum } : {}),
          TxInfAndSts: transactions.map((t) => transaction(t, version)),
        },
      },
    },
  });
}

/** ISO's DateTime without fractions, in UTC. */
function isoDateTime(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
