/**
 * A payment's status as an ISO 20022 pain.002.001.10 CustomerPaymentStatusReport, for every
 * payment however it was initiated (JSON or pain.001; single, periodic or bulk). The bank keeps
 * no copy of a pain.001's own identifiers, so the report names the payment by its paymentId:
 * OrgnlMsgId and OrgnlPmtInfId are the paymentId, OrgnlMsgNmId is ORIGINAL_MESSAGE_NAME.
 */
import type { Payment } from "../../domain/payment/model.js";
import { formatAmount } from "../../lib/money.js";
import { buildXml, type XmlNode } from "./xml.js";

export const PAIN_002 = "pain.002.001.10";
const NAMESPACE = `urn:iso:std:iso:20022:tech:xsd:${PAIN_002}`;

/** What OrgnlMsgNmId says: a Berlin Group payment initiation, JSON or pain.001 alike. */
export const ORIGINAL_MESSAGE_NAME = "pain.001";

// End-to-end id SEPA uses when the initiating party gave none.
const NOT_PROVIDED = "NOTPROVIDED";

/**
 * The bank's own refusal reasons as ISO external status reason codes; a refusal without a
 * recorded reason is the PSU's (MS02, "not specified by the customer").
 */
const REASON_CODES: Record<string, string> = {
  account_unknown: "AC01", account_blocked: "AC06", currency_mismatch: "AM03",
  same_account: "AM03", insufficient_funds: "AM04", limit_exceeded: "AM02",
  sca_expired: "AB05",
};
const UNSPECIFIED = "MS02";
const CANCELLED = "DS02";

function reasonOf(payment: Payment): XmlNode | undefined {
  if (payment.status === "CANC") return { Rsn: { Cd: CANCELLED } };
  if (payment.status !== "RJCT") return undefined;
  const reason = payment.statusReason;
  return { Rsn: { Cd: (reason !== null && REASON_CODES[reason]) || UNSPECIFIED } };
}

function amountOf(payment: Payment): string {
  return formatAmount(payment.amountMinor, payment.currency);
}

function transaction(payment: Payment): XmlNode {
  const reason = reasonOf(payment);
  return {
    OrgnlEndToEndId: payment.endToEndId ?? NOT_PROVIDED,
    TxSts: payment.status,
    ...(reason ? { StsRsnInf: reason } : {}),
    OrgnlTxRef: {
      Amt: { InstdAmt: { "#text": amountOf(payment), "@_Ccy": payment.currency } },
      ...(payment.requestedExecutionDate === null ? {}
        : { ReqdExctnDt: { Dt: payment.requestedExecutionDate } }),
      DbtrAcct: { Id: { IBAN: payment.debtorAccount.iban } },
      Cdtr: { Pty: { Nm: payment.creditorName } },
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
  const group: XmlNode = {
    OrgnlMsgId: payment.id, OrgnlMsgNmId: ORIGINAL_MESSAGE_NAME,
    OrgnlCreDtTm: isoDateTime(new Date(payment.createdAt)), OrgnlNbOfTxs: count,
    ...(sum ? { OrgnlCtrlSum: sum } : {}),
    GrpSts: payment.status,
    ...(reason ? { StsRsnInf: reason } : {}),
  };
  return buildXml({
    Document: {
      "@_xmlns": NAMESPACE,
      CstmrPmtStsRpt: {
        GrpHdr: { MsgId: messageId, CreDtTm: isoDateTime(now) },
        OrgnlGrpInfAndSts: group,
        OrgnlPmtInfAndSts: {
          OrgnlPmtInfId: payment.id, OrgnlNbOfTxs: count,
          ...(sum ? { OrgnlCtrlSum: sum } : {}),
          TxInfAndSts: transactions.map(transaction),
        },
      },
    },
  });
}

/** ISO's DateTime without fractions, in UTC. */
function isoDateTime(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
