/**
 * Amounts and IBANs as people read them, in the page's language. Only the pages format this way:
 * the interface and the stored data keep the plain decimal text and the unspaced IBAN.
 */
import { formatAmount } from "../lib/money.js";

/**
 * "98.765,43 €" in German, "€98,765.43" in English. Intl formats the exact decimal text (never a
 * float); the cast only bridges TypeScript's ES2022 typing, which predates string input.
 */
export function money(amountMinor: bigint, currency: string, lang: string): string {
  const exact = formatAmount(amountMinor, currency) as unknown as number;
  return new Intl.NumberFormat(lang, { style: "currency", currency }).format(exact);
}

/** Groups of four, as printed on a bank card or statement; the stylesheet never breaks a group. */
export function groupedIban(iban: string): string {
  return iban.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}

/** A calendar date (YYYY-MM-DD) as the PSU's language writes it; no time zone shift. */
export function longDate(isoDate: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" })
    .format(new Date(`${isoDate}T00:00:00Z`));
}

/** A moment as the PSU's language writes it, in the bank's time zone: "March 1, 2030 at 10:00". */
export function dateTime(iso: string, lang: string, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short", timeZone })
    .format(new Date(iso));
}
