/**
 * The page after the PSU's decision, before the way back to the TPP. It reads what became of the
 * payment or consent from their statuses now, never from the decision alone: a payment the
 * bank's core refused after a correct SCA reads as refused, with the reason the PSU may know.
 */
import type { Consent } from "../domain/consent/model.js";
import type { Payment } from "../domain/payment/model.js";
import type { BasketView } from "../domain/basket/model.js";
import type { ReceiptAccount, SubjectView } from "../domain/sca/subject.js";
import type { ScaStatus } from "../domain/sca/model.js";
import { html, type Html } from "../lib/html.js";
import { dateTime, longDate, money } from "./format.js";
import type { MessageKey } from "./messages/index.js";
import {
  accountText, ibanOf, page, row, scheduleText, type PageFrame, type PaymentResource,
} from "./views.js";

export interface Outcome {
  /**
   * Done (or will be), not done by the bank's refusal, or left as it was by the PSU's choice:
   * the heading and how the page marks it.
   */
  tone: Tone;
  key: MessageKey;
  values?: Record<string, string>;
}

/** Why the core refused a booking (RejectionReason), in words the PSU may be told. */
const REASONS: Readonly<Record<string, MessageKey>> = {
  insufficient_funds: "reason_insufficient_funds",
  limit_exceeded: "reason_limit_exceeded",
  account_blocked: "reason_account_blocked",
};

type Tone = "done" | "refused" | "unchanged";

/**
 * `forward`: seconds before the page goes back to the TPP by itself (at most 3, issue 34); a
 * refusal after a correct SCA is news to the PSU, so it stays longest.
 */
const TONES: Readonly<Record<Tone, {
  title: MessageKey; cls: string; role: string; forward: number;
}>> = {
  done: { title: "result_title_done", cls: "notice", role: "status", forward: 2 },
  refused: { title: "result_title_refused", cls: "warning", role: "alert", forward: 3 },
  unchanged: { title: "result_title_unchanged", cls: "outcome", role: "status", forward: 2 },
};

function rejected(frame: PageFrame, p: Payment): Outcome {
  const reason = frame.t(REASONS[p.statusReason ?? ""] ?? "reason_other");
  return { tone: "refused", key: "result_rejected", values: { reason } };
}

/** An authorised payment not booked yet: a standing order, a future date, or on its way. */
function authorised(frame: PageFrame, p: Payment): Outcome {
  const date = p.requestedExecutionDate && longDate(p.requestedExecutionDate, frame.lang);
  if (!date) return { tone: "done", key: "result_accepted" };
  const key = p.standingOrder ? "result_standing_order" : "result_scheduled";
  return { tone: "done", key, values: { date } };
}

function paymentOutcome(frame: PageFrame, p: Payment, scaStatus: ScaStatus): Outcome {
  switch (p.status) {
    case "ACSC": case "ACCC": return { tone: "done", key: "result_executed" };
    case "ACSP": return { tone: "done", key: "result_sent" };
    case "ACTC": case "ACCP": case "PDNG": return authorised(frame, p);
    case "PATC": return { tone: "done", key: "result_awaiting_signature" };
    case "PART": return { tone: "refused", key: "result_partly_executed" };
    case "RJCT": return scaStatus === "failed"
      ? { tone: "unchanged", key: "result_cancelled" } : rejected(frame, p);
    case "CANC": return { tone: "unchanged", key: "result_cancelled" };
    default: return { tone: "unchanged", key: "result_pending" };
  }
}

function consentOutcome(frame: PageFrame, consent: Consent): Outcome {
  if (consent.status === "partiallyAuthorised") {
    return { tone: "done", key: "result_consent_awaiting_signature" };
  }
  if (consent.status !== "valid") return { tone: "unchanged", key: "result_consent_refused" };
  const date = longDate(consent.validUntil, frame.lang);
  return { tone: "done", key: "result_consent_given", values: { tpp: frame.tppName ?? "", date } };
}

const sentence = (frame: PageFrame, outcome: Outcome) => frame.t(outcome.key, outcome.values);

/** What became of each item of a signing basket, read from its status now. */
function basketItemsOutcome(frame: PageFrame, resource: BasketView): Html {
  const payments = resource.payments.map((p) => html`<li>${
    money(p.amountMinor, p.currency, frame.lang)} · ${p.creditorName}: ${
    sentence(frame, paymentOutcome(frame, p, "finalised"))}</li>`);
  const consents = resource.consents.map((c) =>
    html`<li>${sentence(frame, consentOutcome(frame, c))}</li>`);
  return html`<ul class="outcomes">${payments}${consents}</ul>`;
}

export function outcomeOf(frame: PageFrame, resource: SubjectView, scaStatus: ScaStatus): Outcome {
  if (scaStatus === "unconfirmed") {
    return { tone: "done", key: "result_unconfirmed", values: { tpp: frame.tppName ?? "" } };
  }
  if (resource.type === "basket") {
    return scaStatus === "finalised" ? { tone: "done", key: "result_basket_done" }
      : { tone: "unchanged", key: "result_basket_refused" };
  }
  if (resource.type === "consent") return consentOutcome(frame, resource.consent);
  if (!resource.cancellation) return paymentOutcome(frame, resource.payment, scaStatus);
  return scaStatus === "finalised"
    ? { tone: "done", key: "result_payment_cancelled" }
    : { tone: "unchanged", key: "result_cancellation_kept" };
}

/**
 * The outcome, what it was about (amount and payee of a payment, each item of a basket), and the
 * way back, which the page takes by itself after a few seconds; its button stays as the fallback.
 */
export function resultPage(
  frame: PageFrame, resource: SubjectView, scaStatus: ScaStatus, account: ReceiptAccount | null,
): string {
  const { tone, text } = toned(frame, resource, scaStatus);
  return page({ ...frame, forwardSeconds: tone.forward }, html`<h1>${frame.t(tone.title)}</h1>
<p class="${tone.cls}" role="${tone.role}" id="outcome">${text}</p>${
  aboutOf(frame, resource, account)}`);
}

function toned(frame: PageFrame, resource: SubjectView, scaStatus: ScaStatus) {
  const outcome = outcomeOf(frame, resource, scaStatus);
  return { tone: TONES[outcome.tone], text: frame.t(outcome.key, outcome.values) };
}

/** The bank app's word after a decision, as the result page says it: heading and sentence. */
export function outcomeNotice(frame: PageFrame, resource: SubjectView, scaStatus: ScaStatus): Html {
  const { tone, text } = toned(frame, resource, scaStatus);
  return html`<p class="${tone.cls}" role="${tone.role}" id="outcome"><strong>${
    frame.t(tone.title)}</strong><br>${text}</p>`;
}

function aboutOf(frame: PageFrame, resource: SubjectView, account: ReceiptAccount | null): Html {
  if (resource.type === "basket") return basketItemsOutcome(frame, resource);
  return resource.type === "payment" ? receiptOf(frame, resource, account) : html``;
}

const balanceAfter = (frame: PageFrame, account: ReceiptAccount | null) =>
  account?.balanceAfterMinor == null ? null
    : money(account.balanceAfterMinor, account.currency, frame.lang);

/** The end-to-end id the TPP gave, else the payment's own id shortened: what the PSU quotes. */
export function referenceOf(p: Payment): string {
  return p.endToEndId && p.endToEndId !== "NOTPROVIDED"
    ? p.endToEndId : p.id.replace(/-/g, "").slice(0, 10).toUpperCase();
}

/**
 * A receipt as a bank prints one (issue 36): amount, payee and IBAN, the account debited by its
 * name and what it holds after the booking, when, the reference to quote, a schedule's dates; the
 * print style sheet keeps only this and the outcome. Without `account`, the account debited by its
 * IBAN alone.
 */
export function receiptOf(
  frame: PageFrame, resource: PaymentResource, account: ReceiptAccount | null = null,
): Html {
  const p = resource.payment;
  const count = resource.entries.length;
  const payee = count > 0
    ? row(frame, "review_payee", frame.t("review_payees", { count: String(count) }))
    : html`${row(frame, "review_payee", p.creditorName)}${
      row(frame, "review_payee_iban", ibanOf(p.creditorAccount.iban))}`;
  const date = p.requestedExecutionDate && longDate(p.requestedExecutionDate, frame.lang);
  return html`<section class="receipt" aria-labelledby="receipt-heading"><h2 id="receipt-heading">${
    frame.t("receipt_heading")}</h2><dl class="review">
${row(frame, "review_amount", money(p.amountMinor, p.currency, frame.lang), "amount")}
${payee}${row(frame, "review_debtor", accountText(account, p.debtorAccount.iban))}
${row(frame, "receipt_balance_after", balanceAfter(frame, account))}
${row(frame, "review_purpose", p.remittance)}
${row(frame, "review_execution", p.standingOrder ? null : date)}
${row(frame, "review_schedule", scheduleText(frame, p.standingOrder))}
${row(frame, "receipt_time", dateTime(p.updatedAt, frame.lang, frame.timeZone))}
${row(frame, "receipt_reference", html`<span class="reference">${referenceOf(p)}</span>`)}
</dl></section>`;
}
