/**
 * A pain.001 document (001.001.03 or 001.001.09) read into the JSON initiation body it stands
 * for, so that it meets every rule of JSON payments in the same use case. What only the file
 * has (its schema, NbOfTxs, CtrlSum, one transaction on a single-payment path) is checked here,
 * each refusal naming the XML element.
 */
import { formatError } from "../../domain/kernel/errors.js";
import type { InitiationMessage, PaymentService } from "../../domain/payment/model.js";
import type { ReadDocument } from "./document.js";
import { messageOf, PAIN_001_VERSIONS, type Pain001Version } from "./schemas.js";
import type { XmlNode, XmlValue } from "./xml.js";

const ROOT = "Document/CstmrCdtTrfInitn";
const PMT_INF = `${ROOT}/PmtInf`;
const TX = `${PMT_INF}/CdtTrfTxInf`;

/** Where a JSON field of the initiation body came from in the document. */
const ELEMENTS: Record<string, string> = {
  debtorAccount: `${PMT_INF}/DbtrAcct`, requestedExecutionDate: `${PMT_INF}/ReqdExctnDt`,
  batchBookingPreferred: `${PMT_INF}/BtchBookg`, creditorAccount: `${TX}/CdtrAcct`,
  creditorName: `${TX}/Cdtr/Nm`, instructedAmount: `${TX}/Amt/InstdAmt`,
  creditorAgent: `${TX}/CdtrAgt`, creditorAddress: `${TX}/Cdtr/PstlAdr`,
  remittanceInformationUnstructured: `${TX}/RmtInf/Ustrd`, endToEndIdentification: `${TX}/PmtId`,
};

/** The XML element a JSON path ("payments[2].creditorName") of a pain.001 body names. */
export function elementOf(jsonPath: string): string {
  const field = jsonPath.replace(/^payments\[\d+\]\./, "").split(/[.[]/)[0] ?? "";
  return ELEMENTS[field] ?? ROOT;
}

const node = (value: XmlValue | undefined): XmlNode =>
  typeof value === "object" && !Array.isArray(value) ? value : {};
const list = (value: XmlValue | undefined): XmlValue[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const text = (value: XmlValue | undefined): string | undefined =>
  typeof value === "string" ? value : typeof value === "object" && !Array.isArray(value)
    ? text(value["#text"]) : undefined;

/** A decimal in units of 10^-18: CtrlSum allows 18 fraction digits, amounts fewer. */
function scaled(decimal: string): bigint {
  const [whole = "0", fraction = ""] = decimal.split(".");
  return BigInt(whole + fraction.padEnd(18, "0"));
}

function checkCounts(
  header: XmlNode, transactions: XmlNode[], where: string,
): void {
  const count = text(header.NbOfTxs);
  if (count !== undefined && Number(count) !== transactions.length) {
    throw formatError("body", `${where}/NbOfTxs`,
      `NbOfTxs is ${count} but the document has ${transactions.length} CdtTrfTxInf.`);
  }
  const sum = text(header.CtrlSum);
  const total = transactions.reduce(
    (all, t) => all + scaled(text(node(t.Amt).InstdAmt) ?? "0"), 0n);
  if (sum !== undefined && scaled(sum) !== total) {
    throw formatError("body", `${where}/CtrlSum`,
      `CtrlSum ${sum} is not the sum of the CdtTrfTxInf amounts.`);
  }
}

function account(value: XmlValue | undefined) {
  const held = node(value);
  const currency = text(held.Ccy);
  return { iban: text(node(held.Id).IBAN) ?? "", ...(currency !== undefined && { currency }) };
}

function transaction(t: XmlNode) {
  const amount = node(node(t.Amt).InstdAmt);
  const creditor = node(t.Cdtr);
  const agent = node(node(t.CdtrAgt).FinInstnId);
  const bic = text(agent.BICFI) ?? text(agent.BIC);
  const remittance = text(list(node(t.RmtInf).Ustrd)[0]);
  const endToEnd = text(node(t.PmtId).EndToEndId);
  return {
    creditorAccount: account(t.CdtrAcct), creditorName: text(creditor.Nm) ?? "",
    instructedAmount: { currency: text(amount["@_Ccy"]) ?? "", amount: text(amount) ?? "" },
    ...(bic !== undefined && { creditorAgent: bic }),
    ...(remittance !== undefined && { remittanceInformationUnstructured: remittance }),
    ...(endToEnd !== undefined && endToEnd !== "NOTPROVIDED"
      && { endToEndIdentification: endToEnd }),
  };
}

/** ReqdExctnDt is a date in .03 and a choice of Dt or DtTm in .09. */
function executionDate(value: XmlValue | undefined, version: Pain001Version): string | undefined {
  if (version === "pain.001.001.03") return text(value);
  const choice = node(value);
  return text(choice.Dt) ?? text(choice.DtTm)?.slice(0, 10);
}

function paymentInformation(document: XmlNode): XmlNode {
  const all = list(node(node(document.Document).CstmrCdtTrfInitn).PmtInf);
  if (all.length !== 1) {
    throw formatError("body", PMT_INF, "The document must carry exactly one PmtInf.");
  }
  return node(all[0]);
}

/** The message's own identifiers, which its status report (pain.002) names back. */
function identifiersOf(document: XmlNode, version: Pain001Version): InitiationMessage {
  const header = node(node(node(document.Document).CstmrCdtTrfInitn).GrpHdr);
  return { name: version, messageId: text(header.MsgId) ?? "",
    paymentInformationId: text(paymentInformation(document).PmtInfId) ?? "" };
}

/** The JSON initiation body of a schema-valid document, after the file's own checks. */
function bodyOf(document: XmlNode, service: PaymentService, version: Pain001Version) {
  const header = node(node(node(document.Document).CstmrCdtTrfInitn).GrpHdr);
  const info = paymentInformation(document);
  const transactions = list(info.CdtTrfTxInf).map(node);
  checkCounts(header, transactions, `${ROOT}/GrpHdr`);
  checkCounts(info, transactions, PMT_INF);
  const date = executionDate(info.ReqdExctnDt, version);
  const shared = {
    debtorAccount: account(info.DbtrAcct),
    ...(date !== undefined && { requestedExecutionDate: date }),
  };
  if (service === "bulk-payments") {
    const batch = text(info.BtchBookg);
    return {
      ...shared, ...(batch !== undefined && { batchBookingPreferred: batch === "true" }),
      payments: transactions.map(transaction),
    };
  }
  if (transactions.length !== 1) {
    throw formatError("body", TX,
      "A single payment carries exactly one CdtTrfTxInf; several make a bulk payment.");
  }
  return { ...shared, ...transaction(transactions[0] ?? {}) };
}

export const PAIN_001_SERVICES: readonly PaymentService[] = ["payments", "bulk-payments"];

/**
 * Reads a pain.001 body for a service: the document must be of a known version, valid against
 * its XSD (checked by the document reader) and agree with its own counts. Only single and bulk
 * payments come as pain.001.
 */
export function readPain001(
  read: ReadDocument, service: PaymentService,
): { body: object; message: InitiationMessage } {
  if (!PAIN_001_SERVICES.includes(service)) {
    throw formatError("body", "Document", "Periodic payments are initiated in JSON only.");
  }
  const version = messageOf(read.namespace, PAIN_001_VERSIONS);
  if (version === undefined) {
    throw formatError("body", "Document",
      `The document must be ${PAIN_001_VERSIONS.join(" or ")} (by its namespace).`);
  }
  if (read.violation !== null) {
    throw formatError("body", "Document",
      `The document is not a valid ${version}: ${read.violation}`);
  }
  return {
    body: bodyOf(read.document, service, version),
    message: identifiersOf(read.document, version),
  };
}
