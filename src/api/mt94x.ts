/**
 * An account's transactions as SWIFT MT94x text (text/plain), the formats German banks and
 * accounting software exchange every day. Past days: an MT940 customer statement, the opening
 * (:60F:) and closing (:62F:) booked balances and a :61: line with its :86: details per entry.
 * A range reaching today: an MT942 interim transaction report, what is booked so far and what is
 * pending, with the debit and credit totals (:90D:, :90C:) and no balances, as SWIFT defines it.
 * Only the SWIFT X character set, no line over 65 characters, CRLF line ends.
 */
import type {
  BankAccount, BookedTransaction, PendingTransaction, TransactionParties,
} from "../domain/account-information/core-banking.js";
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

/** What a :61: line tells of an entry, booked or pending. */
interface SwiftEntry extends TransactionParties {
  valueDate: string;
  entryDate: string;
  endToEndId: string | null;
  bankReference: string;
}

const bookedEntry = (t: BookedTransaction): SwiftEntry => ({
  ...t, entryDate: t.bookingDate, bankReference: t.entryReference,
});

/** Announced, not booked: no entry reference yet, so the bank's reference is its id. */
const pendingEntry = (t: PendingTransaction): SwiftEntry => ({
  ...t, valueDate: t.transactionDate, entryDate: t.transactionDate, endToEndId: null,
  bankReference: t.transactionId.replace(/-/g, ""),
});

/** :61: value date, entry date, D/C, amount, NTRF, the payer's reference and the bank's. */
function entryLines(t: SwiftEntry): string[] {
  const head = `:61:${yymmdd(t.valueDate)}${t.entryDate.slice(5).replace("-", "")}`
    + `${mark(t.amountMinor)}${amountText(t.amountMinor, t.currency)}NTRF`;
  const bankReference = `//${t.bankReference.slice(0, REFERENCE_MAX)}`;
  const room = Math.min(REFERENCE_MAX, LINE_MAX - head.length - bankReference.length);
  const reference = swiftText(t.endToEndId ?? "").replace(/\s/g, "").slice(0, room) || "NONREF";
  const incoming = t.amountMinor >= 0n;
  const details = [t.remittance, incoming ? t.debtorName : t.creditorName,
    incoming ? t.debtorIban : t.creditorIban].filter((part) => part).join(" ");
  return [`${head}${reference}${bankReference}`,
    ...wrap(swiftText(details) || "NONREF", ":86:", DETAIL_LINES_MAX)];
}

const message = (lines: string[]) => `${[...lines, "-"].join("\r\n")}\r\n`;

/** :20: the reference (at most 16 characters), :25: the account, :28C: the sequence. */
function header(account: BankAccount, reference: string): string[] {
  return [`:20:${swiftText(reference).slice(0, REFERENCE_MAX)}`, `:25:${account.iban}`,
    ":28C:00001"];
}

/** The statement of `s` for its account: its booked entries between the booked balances. */
export function mt940(s: StatementFile<BankAccount>, reference: string): string {
  const { account } = s;
  return message([
    ...header(account, reference),
    balanceLine("60F", s.openingMinor, s.dateFrom, account.currency),
    ...s.booked.map(bookedEntry).flatMap(entryLines),
    balanceLine("62F", s.closingMinor, s.dateTo, account.currency),
  ]);
}

/** :90D: or :90C:, the number and sum of the debit or credit entries. */
function totalLine(entries: SwiftEntry[], debit: boolean, currency: string): string {
  const side = entries.filter((e) => (e.amountMinor < 0n) === debit);
  const sum = side.reduce((total, e) => total + e.amountMinor, 0n);
  return `:90${debit ? "D" : "C"}:${side.length}${currency}${amountText(sum, currency)}`;
}

/** YYMMDDHHMM+0000: the report's time, in UTC. */
const dateTimeIndication = (now: Date) =>
  `${now.toISOString().slice(2, 16).replace(/[-T:]/g, "")}+0000`;

/**
 * The interim report of `s`, made at `now`: booked entries, then pending ones. The floor limit
 * (:34F:) is zero: every entry is reported, whatever its amount.
 */
export function mt942(s: StatementFile<BankAccount>, reference: string, now: Date): string {
  const { account } = s;
  const entries = [...s.booked.map(bookedEntry), ...s.pending.map(pendingEntry)];
  return message([
    ...header(account, reference), `:34F:${account.currency}0,`,
    `:13D:${dateTimeIndication(now)}`, ...entries.flatMap(entryLines),
    totalLine(entries, true, account.currency), totalLine(entries, false, account.currency),
  ]);
}
