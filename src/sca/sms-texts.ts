/**
 * The SMS a PSU gets with a code, in the language of its pages, written from the same catalogues:
 * what the code authorises, with amounts and IBANs as the pages show them.
 */
import type { SmsAccount, SmsAmount, SmsSubject, SmsTexts } from "../domain/sca/ports.js";
import { groupedIban, longDate, money } from "./format.js";
import { translator, type Translate } from "./messages/index.js";

/**
 * The account a payment leaves, as the PSU knows it: its name and the IBAN's first and last
 * four characters; the middle masked with "*", which the GSM 7-bit alphabet has ("•" it has not).
 */
export function smsAccountText({ name, iban }: SmsAccount): string {
  const masked = `${iban.slice(0, 4)} **** ${iban.slice(-4)}`;
  return name ? `${name} ${masked}` : masked;
}

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
        iban: groupedIban(s.iban), account: smsAccountText(s.from) });
    case "bulk": return t("sms_bulk", { total: totalText(s.totals, lang),
      count: String(s.payees), account: smsAccountText(s.from) });
    case "consent": return s.accounts.length === 0
      ? t("sms_consent", { tpp: s.tpp, date: longDate(s.validUntil, lang) })
      : t("sms_consent_accounts", { tpp: s.tpp, date: longDate(s.validUntil, lang),
        accounts: s.accounts.map(smsAccountText).join(", ") });
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
