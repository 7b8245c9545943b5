/**
 * An account's booked transactions as a SWIFT MT940 customer statement (text/plain), the format
 * German banks and accounting software exchange every day: one statement for the range, the
 * opening (:60F:) and closing (:62F:) booked balances, a :61: line and its :86: details per
 * entry. Only the SWIFT X character set, no line over 65 characters, CRLF line ends.
 */
import type { BankAccount, BookedTransaction } from "../domain/core-banking.js";
import type { StatementFile } from "../domain/consent/statement-file.js";
import { formatAmount } from "../lib/money.js";

const LINE_MAX = 65;
const DETAIL_LINES_MAX = 6;
const REFERENCE_MAX = 16;
const SPELLED: Readonly<Record<string, string>> = {
  ä: "ae", Ä: "Ae", ö: "oe", Ö: "Oe", ü: "ue", Ü: "Ue", ß: "ss",
};

/**
 * Text in the SWIFT X character set: umlauts spelled out, accents dropped, anything else a
 * space; never a line start that reads as a tag (":") or as the statement's end ("-").
 */
export function swiftText(text: string): string {
  return text.replace(/[äÄöÖüÜß]/g, (c) => SPELLED[c] ?? c)
    .normalize("NFD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, " ").replace(/\s+/g, " ").trim();
}

/** 1234.5 EUR as "1234,50": a decimal comma always, no sign (the D/C mark carries it). */
function amountText(minor: bigint, currency: string): string {
  const text = formatAmount(minor < 0n ? -minor : minor, currency);
  return text.includes(".") ? text.replace(".", ",") : `${text},`;
}

const yymmdd = (date: string) => date.slice(2).replace(/-/g, "");
const mark = (minor: bigint) => (minor < 0n ? "D" : "C");

function balanceLine(tag: string, minor: bigint, date: string, currency: string): string {
  return `:${tag}:${mark(minor)}${yymmdd(date)}${currency}${amountText(minor, currency)}`;
}

/** Text cut into lines of at most 65 characters, none starting with ":" or "-". */
function wrap(text: string, firstPrefix: string, linesMax: number): string[] {
  const lines: string[] = [];
  let rest = `${firstPrefix}${text}`;
  while (rest.length > 0 && lines.length < linesMax) {
    lines.push(rest.slice(0, LINE_MAX).trimEnd());
    rest = rest.slice(LINE_MAX).replace(/^[\s:-]+/, "");
  }
  return lines;
}

/** :61: value date, entry date, D/C, amount, NTRF, the payer's reference and the bank's. */
function entryLines(t: BookedTransaction): string[] {
  const head = `:61:${yymmdd(t.valueDate)}${t.bookingDate.slice(5).replace("-", "")}`
    + `${mark(t.amountMinor)}${amountText(t.amountMinor, t.currency)}NTRF`;
  const bankReference = `//${t.entryReference.slice(0, REFERENCE_MAX)}`;
  const room = Math.min(REFERENCE_MAX, LINE_MAX - head.length - bankReference.length);
  const reference = swiftText(t.endToEndId ?? "").replace(/\s/g, "").slice(0, room) || "NONREF";
  const incoming = t.amountMinor >= 0n;
  const details = [t.remittance, incoming ? t.debtorName : t.creditorName,
    incoming ? t.debtorIban : t.creditorIban].filter((part) => part).join(" ");
  return [`${head}${reference}${bankReference}`,
    ...wrap(swiftText(details) || "NONREF", ":86:", DETAIL_LINES_MAX)];
}

/** The statement of `s` for `account`; `reference` (at most 16 characters) is its :20:. */
export function mt940(s: StatementFile<BankAccount>, reference: string): string {
  const { account } = s;
  const lines = [
    `:20:${swiftText(reference).slice(0, REFERENCE_MAX)}`, `:25:${account.iban}`, ":28C:00001",
    balanceLine("60F", s.openingMinor, s.dateFrom, account.currency),
    ...s.booked.flatMap(entryLines),
    balanceLine("62F", s.closingMinor, s.dateTo, account.currency), "-",
  ];
  return `${lines.join("\r\n")}\r\n`;
}
