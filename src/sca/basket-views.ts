/**
 * A signing basket on the PSU's pages: its review lists every payment (amount, payee, the check
 * of the payee's name) with a total per currency, and every consent (accounts, what each shares,
 * until when), confirmed with one SCA.
 */
import type { Consent } from "../domain/consent/model.js";
import { grantFor } from "../domain/consent/grants.js";
import type { Payment } from "../domain/payment/model.js";
import type { BasketView } from "../domain/basket/model.js";
import type { Review } from "../domain/sca/subject.js";
import { awaitingItems } from "../domain/basket/decision.js";
import { html, type Html } from "../lib/html.js";
import { totalsOf } from "../lib/money.js";
import { groupedIban, longDate, money } from "./format.js";
import {
  accountText, confirmForm, executionText, fraudWarning, ibanOf, intro, page,
  payeeAcknowledgement, row,
  scheduleText, sharesText, vopText, type PageFrame,
} from "./views.js";

function paymentRows(frame: PageFrame, p: Payment, review: Review | null): Html {
  const own = review?.ownPayees ?? [];
  return html`<dl class="review">
${row(frame, "review_amount", money(p.amountMinor, p.currency, frame.lang), "amount")}
${row(frame, "review_payee", p.creditorName)}${
  row(frame, "review_payee_iban", ibanOf(p.creditorAccount.iban))}
${row(frame, "review_vop", vopText(frame, p.vop, own.includes(p.id)))}
${row(frame, "review_fraud", fraudWarning(frame, review?.flaggedPayees.includes(p.id) ?? false))}
${row(frame, "review_purpose", p.remittance)}
${row(frame, "review_execution", executionText(frame, p, p.requestedExecutionDate))}
${row(frame, "review_schedule", scheduleText(frame, p.standingOrder))}
${row(frame, "review_debtor",
  accountText(review?.debtorNames?.[p.debtorAccount.iban] ?? null, p.debtorAccount.iban))}</dl>`;
}

/** The accounts a consent names, each with what it shares; or all the PSU's, by its flags. */
function consentRows(frame: PageFrame, consent: Consent): Html {
  const a = consent.access;
  const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
  const shares = (reference: string) => sharesText(frame,
    grantFor(consent, { id: reference, reference, currency: "", product: null }));
  const accounts = named.length === 0
    ? html`${frame.t("app_consent_all")} · ${shares("")}`
    : html`${named.map((ref, i) => html`${i > 0 ? html`<br>` : html``}<span class="iban">${
      groupedIban(ref)}</span> · ${shares(ref)}`)}`;
  const until = longDate(consent.validUntil, frame.lang);
  return html`<dl class="review">${row(frame, "review_basket_accounts", accounts)}</dl>
<p class="hint">${frame.t("review_valid_until", { date: until })}</p>`;
}

function totalRows(frame: PageFrame, payments: readonly Payment[]): Html {
  if (payments.length === 0) return html``;
  return html`<dl class="review">${totalsOf(payments).map(([currency, minor]) =>
    row(frame, "review_total", money(minor, currency, frame.lang), "amount"))}</dl>`;
}

export function basketReviewPage(
  frame: PageFrame, resource: BasketView, review: Review | null, canConfirm: boolean,
): string {
  const { payments, consents } = awaitingItems(resource);
  const own = review?.ownPayees ?? [];
  const paid = payments.length === 0 ? html`` : html`<h2>${
    frame.t("review_basket_payments")}</h2>${payments.map((p) => paymentRows(frame, p, review))}${
    totalRows(frame, payments)}`;
  const granted = consents.length === 0 ? html`` : html`<h2>${
    frame.t("review_basket_consents")}</h2>${consents.map((c) => consentRows(frame, c))}`;
  const foreign = review?.foreign.length ? html`<p class="warning" role="alert">${
    frame.t("basket_foreign", { ibans: review.foreign.join(", ") })}</p>` : html``;
  const confirm = canConfirm
    ? confirmForm(frame, payeeAcknowledgement(frame, payments, own)) : html``;
  return page({ ...frame, confirm }, html`${intro(frame, "basket")}${paid}${granted}${foreign}
<p class="hint">${frame.t("review_next", { tpp: frame.tppName ?? "" })}</p>`);
}
