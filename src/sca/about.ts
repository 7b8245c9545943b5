/**
 * What the PSU is about to authorise, in one line: shown above the password and the code, and on
 * the bank app's request, so no step asks for a secret without saying what it is for (issue 36).
 */
import { awaitingItems } from "../domain/basket/decision.js";
import type { Payment } from "../domain/payment/model.js";
import type { SubjectView } from "../domain/sca/subject.js";
import { totalsOf } from "../lib/money.js";
import { longDate, money } from "./format.js";
import type { Translate } from "./messages/index.js";

/** Who speaks to whom: the page's translator, language and the TPP's name. */
export interface Speaker { t: Translate; lang: string; tppName?: string }

/** Payments' totals per currency, "€12.50 + CHF 3.00"; "-" for none. */
export function totalsText(lang: string, payments: readonly Payment[]): string {
  return totalsOf(payments).map(([currency, minor]) => money(minor, currency, lang))
    .join(" + ") || "-";
}

export function aboutLine(s: Speaker, resource: SubjectView): string {
  const tpp = s.tppName ?? s.t("unknown_tpp");
  if (resource.type === "basket") {
    const { payments, consents } = awaitingItems(resource);
    const count = String(payments.length + consents.length);
    return s.t("about_basket", { tpp, count, total: totalsText(s.lang, payments) });
  }
  if (resource.type === "consent") {
    const { consent } = resource;
    const date = longDate(consent.validUntil, s.lang);
    return s.t(consent.kind === "funds-confirmation" ? "about_funds" : "about_consent",
      { tpp, date });
  }
  const p = resource.payment;
  const amount = money(p.amountMinor, p.currency, s.lang);
  if (resource.cancellation) {
    return s.t("about_cancellation", { tpp, amount, payee: p.creditorName });
  }
  if (resource.entries.length > 0) {
    const count = String(resource.entries.length);
    return s.t("about_bulk", { tpp, count, amount: totalsText(s.lang, resource.entries) });
  }
  return s.t("about_payment", { tpp, amount, payee: p.creditorName });
}
