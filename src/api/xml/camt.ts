/**
 * An account's transactions as ISO 20022 cash management messages, version 08: camt.053
 * (statement: past days only, booked entries between the opening and closing booked balances)
 * or camt.052 (report: a range reaching today, booked and pending entries, the interim booked
 * balance). Built from the same ledger rows as the JSON answer, so both tell the same story.
 */
import type {
  BankAccount, BookedTransaction, PendingTransaction, TransactionParties,
} from "../../domain/account-information/core-banking.js";
import type { StatementFile } from "../../domain/consent/statement-file.js";
import { formatAmount } from "../../lib/money.js";
import { buildXml, type XmlNode } from "./xml.js";

export const CAMT_053 = "camt.053.001.08";
export const CAMT_052 = "camt.052.001.08";
export type CamtMessage = typeof CAMT_052 | typeof CAMT_053;

/** What a statement or report covers: its account, its days and what was booked in them. */
export type AccountStatement = StatementFile<BankAccount>;

// The ISO bank transaction code of a SEPA credit transfer, received or issued.
const SEPA_TRANSFER = { domain: "PMNT", received: "RCDT", issued: "ICDT", sub: "ESCT" };

const amount = (minor: bigint, currency: string): XmlNode =>
  ({ "#text": formatAmount(minor < 0n ? -minor : minor, currency), "@_Ccy": currency });

const side = (minor: bigint) => (minor < 0n ? "DBIT" : "CRDT");

/** The JSON list's transactionId (a UUID, 36 characters) in ISO's Max35Text: its 32 hex digits. */
const servicerReference = (transactionId: string) => transactionId.replace(/-/g, "").slice(0, 35);

function balance(code: string, minor: bigint, currency: string, date: string): XmlNode {
  return {
    Tp: { CdOrPrtry: { Cd: code } }, Amt: amount(minor, currency), CdtDbtInd: side(minor),
    Dt: { Dt: date },
  };
}

/** A Berlin Group code "PMNT-ICDT-ESCT" as ISO's domain, family and sub-family. */
function transactionCode(t: TransactionParties): XmlNode {
  const [domain, family, sub] = t.bankTransactionCode?.split("-") ?? [];
  const code = (d: string, f: string, sf: string) =>
    ({ Domn: { Cd: d, Fmly: { Cd: f, SubFmlyCd: sf } } });
  if (domain && family && sub) return code(domain, family, sub);
  const familyCode = t.amountMinor < 0n ? SEPA_TRANSFER.issued : SEPA_TRANSFER.received;
  return code(SEPA_TRANSFER.domain, familyCode, SEPA_TRANSFER.sub);
}

const party = (name: string | null, iban: string | null, role: "Dbtr" | "Cdtr"): XmlNode => ({
  ...(name ? { [role]: { Pty: { Nm: name.slice(0, 140) } } } : {}),
  ...(iban ? { [`${role}Acct`]: { Id: { IBAN: iban } } } : {}),
});

/** Who paid whom, the end-to-end id and the remittance text of one entry. */
function details(t: TransactionParties, endToEndId: string | null): XmlNode {
  const parties = { ...party(t.debtorName, t.debtorIban, "Dbtr"),
    ...party(t.creditorName, t.creditorIban, "Cdtr") };
  return {
    TxDtls: {
      ...(endToEndId ? { Refs: { EndToEndId: endToEndId } } : {}),
      Amt: amount(t.amountMinor, t.currency), CdtDbtInd: side(t.amountMinor),
      ...(Object.keys(parties).length > 0 ? { RltdPties: parties } : {}),
      ...(t.remittance ? { RmtInf: { Ustrd: t.remittance.slice(0, 140) } } : {}),
    },
  };
}

function bookedEntry(t: BookedTransaction): XmlNode {
  return {
    NtryRef: t.entryReference, Amt: amount(t.amountMinor, t.currency),
    CdtDbtInd: side(t.amountMinor), Sts: { Cd: "BOOK" }, BookgDt: { Dt: t.bookingDate },
    ValDt: { Dt: t.valueDate }, AcctSvcrRef: servicerReference(t.transactionId),
    BkTxCd: transactionCode(t),
    NtryDtls: details(t, t.endToEndId),
  };
}

function pendingEntry(t: PendingTransaction): XmlNode {
  return {
    Amt: amount(t.amountMinor, t.currency), CdtDbtInd: side(t.amountMinor), Sts: { Cd: "PDNG" },
    ValDt: { Dt: t.transactionDate }, AcctSvcrRef: servicerReference(t.transactionId),
    BkTxCd: transactionCode(t),
    NtryDtls: details(t, null),
  };
}

function accountNode(a: BankAccount): XmlNode {
  return {
    Id: { IBAN: a.iban }, Ccy: a.currency, ...(a.name ? { Nm: a.name.slice(0, 70) } : {}),
    ...(a.ownerName ? { Ownr: { Nm: a.ownerName } } : {}),
    ...(a.bic ? { Svcr: { FinInstnId: { BICFI: a.bic } } } : {}),
  };
}

/**
 * The statement (camt.053) or report (camt.052) of `s`; `now` is its creation time,
 * `messageId` its MsgId and, with the account's IBAN and the days, its Id.
 */
export function camtDocument(
  message: CamtMessage, s: AccountStatement, now: Date, messageId: string,
): string {
  const { account, dateFrom, dateTo } = s;
  const statement = message === CAMT_053;
  const created = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  const closing = statement ? "CLBD" : "ITBD";
  const body: XmlNode = {
    Id: `${dateFrom}/${dateTo}`, CreDtTm: created,
    FrToDt: { FrDtTm: `${dateFrom}T00:00:00`, ToDtTm: `${dateTo}T23:59:59` },
    Acct: accountNode(account),
    Bal: [balance("OPBD", s.openingMinor, account.currency, dateFrom),
      balance(closing, s.closingMinor, account.currency, dateTo)],
    Ntry: [...s.booked.map(bookedEntry), ...(statement ? [] : s.pending.map(pendingEntry))],
  };
  const [root, part] = statement ? ["BkToCstmrStmt", "Stmt"] : ["BkToCstmrAcctRpt", "Rpt"];
  return buildXml({
    Document: {
      "@_xmlns": `urn:iso:std:iso:20022:tech:xsd:${message}`,
      [root]: { GrpHdr: { MsgId: messageId, CreDtTm: created }, [part]: body },
    },
  });
}
