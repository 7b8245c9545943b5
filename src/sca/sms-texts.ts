/**
 * The SMS a PSU gets with a code, in the language of its pages, written from the same catalogues:
 * what the code authorises, with amounts and IBANs as the pages show them.
 */
import type { SmsAmount, SmsSubject, SmsTexts } from "../domain/sca/ports.js";
import { groupedIban, money } from "./format.js";
import { translator, type Translate } from "./messages/index.js";
import { longDate } from "./format.js";

function totalText(totals: readonly SmsAmount[], lang: string): string {
  return totals.map((t) => money(t.amountMinor, t.currency, lang)).join(" + ");
}

function basketText(t: Translate, s: Extract<SmsSubject, { kind: "basket" }>, lang: string) {
  const parts = [
    ...(s.payments > 0 ? [t("sms_basket_payments",
      { count: String(s.payments), total: totalText(s.totals, lang) })] : []),
    ...(s.consents > 0 ? [t("sms_basket_consents", { count: String(s.consents) })] : []),
  ];
  return t("sms_basket", { items: parts.join(", ") });
}

/** What the code authorises, in words. */
function subjectText(t: Translate, s: SmsSubject, lang: string): string {
  switch (s.kind) {
    case "payment": case "cancellation": return t(`sms_${s.kind}`,
      { amount: money(s.amount.amountMinor, s.amount.currency, lang), payee: s.payee,
        iban: groupedIban(s.iban) });
    case "bulk": return t("sms_bulk",
      { total: totalText(s.totals, lang), count: String(s.payees) });
    case "consent": return t("sms_consent",
      { tpp: s.tpp, date: longDate(s.validUntil, lang) });
    case "basket": return basketText(t, s, lang);
    case "dashboard": return t("sms_dashboard");
    case "trustedPayeeAdd": case "trustedPayeeRemove": return t(
      s.kind === "trustedPayeeAdd" ? "sms_payee_add" : "sms_payee_remove",
      { payee: s.payee, iban: groupedIban(s.iban) });
  }
}

export function createSmsTexts(bankName: string): SmsTexts {
  return {
    text(lang, subject, code) {
      const t = translator(lang);
      const text = t("sms_text", { bank: bankName, code, what: subjectText(t, subject, lang) });
      // Intl's no-break spaces are not in the GSM 7-bit alphabet: one would make it a UCS-2 SMS.
      return text.replace(/[\u00a0\u202f]/g, " ");
    },
  };
}
