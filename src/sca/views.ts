/**
 * HTML of the PSU pages as escaped template literals: no script, no inline style, no external
 * asset, so the pages work with JavaScript disabled and under a strict Content-Security-Policy.
 */
import type { BankAccount } from "../domain/core-banking.js";
import type { Consent } from "../domain/consents-model.js";
import { grantFor } from "../domain/decisions.js";
import type { Payment } from "../domain/payments-model.js";
import { Html, html } from "../lib/html.js";
import { formatAmount } from "../lib/money.js";
import { LANGUAGES } from "../lib/languages.js";
import { CATALOGUES, type MessageKey, type Translate } from "./messages/index.js";

export interface PageFrame {
  lang: string;
  t: Translate;
  bankName: string;
  tppName?: string;
  step?: 1 | 2 | 3;
  error?: MessageKey;
  errorValues?: Record<string, string>;
  notice?: MessageKey;
  csrf?: string;
}

function steps(frame: PageFrame): Html {
  if (!frame.step) return html``;
  const names: MessageKey[] = ["step_login", "step_code", "step_review"];
  return html`<ol class="steps" aria-label="${frame.t("steps_label")}">${names.map((key, i) =>
    html`<li${new Html(i + 1 === frame.step ? ' aria-current="step"' : "")}>${i + 1} ${frame.t(key)}</li>`)}</ol>`;
}

const STEP_PATHS = ["/sca/login", "/sca/code", "/sca/review"] as const;

/** Plain links, so switching works without JavaScript; the step's GET re-renders the page. */
function languageSwitch(frame: PageFrame): Html {
  if (!frame.step) return html``;
  const path = STEP_PATHS[frame.step - 1];
  const links = LANGUAGES.map((code) => {
    const current = new Html(code === frame.lang ? ' aria-current="true"' : "");
    return html`<li><a href="${path}?lang=${code}" lang="${code}" hreflang="${code}"${current}>${
      CATALOGUES[code].language_name}</a></li>`;
  });
  const label = frame.t("language_switch");
  return html`<nav class="languages" aria-label="${label}"><ul>${links}</ul></nav>`;
}

export function page(frame: PageFrame, body: Html): string {
  const error = frame.error
    ? html`<p class="error" role="alert" id="form-error">${frame.t(frame.error, frame.errorValues)}</p>` : html``;
  const cancel = frame.csrf ? cancelForm(frame) : html``;
  const notice = frame.notice ? html`<p class="notice" role="status">${frame.t(frame.notice)}</p>` : html``;
  return "<!doctype html>\n" + html`<html lang="${frame.lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.t("page_title", { bank: frame.bankName })}</title>
<link rel="stylesheet" href="/sca/static/style.css"></head>
<body><header><p class="bank">${frame.bankName}</p>${languageSwitch(frame)}</header>
<main>${steps(frame)}${error}${notice}${body}${cancel}</main></body></html>`.text;
}

function cancelForm(frame: PageFrame): Html {
  return html`<form method="post" action="/sca/cancel" class="cancel">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<button type="submit" class="secondary">${frame.t("button_cancel")}</button></form>`;
}

function intro(frame: PageFrame, type: "payment" | "consent"): Html {
  return html`<h1>${frame.t(type === "payment" ? "intro_payment" : "intro_consent", { tpp: frame.tppName ?? "" })}</h1>`;
}

export function loginPage(frame: PageFrame, type: "payment" | "consent"): string {
  const described = frame.error ? ' aria-describedby="form-error"' : "";
  return page(frame, html`${intro(frame, type)}
<form method="post" action="/sca/login">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<label for="login">${frame.t("label_login")}</label>
<input id="login" name="login" autocomplete="username" required${new Html(described)}>
<label for="password">${frame.t("label_password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${new Html(described)}>
<button type="submit">${frame.t("button_login")}</button></form>`);
}

export function codePage(
  frame: PageFrame, type: "payment" | "consent", device: { kind: string; label: string; phone: string | null },
): string {
  const hint = device.kind === "sms"
    ? frame.t("code_sms_hint", { phone: maskPhone(device.phone ?? "") })
    : frame.t("code_totp_hint", { device: device.label });
  const resend = device.kind === "sms" ? html`<form method="post" action="/sca/code/resend">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<button type="submit" class="link">${frame.t("button_resend")}</button></form>` : html``;
  return page(frame, html`${intro(frame, type)}
<form method="post" action="/sca/code">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<label for="code">${frame.t("label_code")}</label>
<p class="hint" id="code-hint">${hint}</p>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required aria-describedby="code-hint">
<button type="submit">${frame.t("button_continue")}</button></form>${resend}`);
}

function maskPhone(phone: string): string {
  return phone.length > 6 ? `${phone.slice(0, 6)}${"•".repeat(phone.length - 8)}${phone.slice(-2)}` : phone;
}

export function paymentReviewPage(frame: PageFrame, p: Payment, canConfirm: boolean): string {
  const row = (key: MessageKey, value: string | null) =>
    value === null ? html`` : html`<dt>${frame.t(key)}</dt><dd>${value}</dd>`;
  const confirm = canConfirm ? confirmForm(frame, html``) : html``;
  return page(frame, html`${intro(frame, "payment")}
<dl class="review">
${row("review_amount", `${formatAmount(p.amountMinor, p.currency)} ${p.currency}`)}
${row("review_payee", p.creditorName)}${row("review_payee_iban", p.creditorAccount.iban)}
${row("review_purpose", p.remittance)}${row("review_debtor", p.debtorAccount.iban)}
</dl>${confirm}`);
}

function confirmForm(frame: PageFrame, fields: Html): Html {
  return html`<form method="post" action="/sca/confirm">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">${fields}
<button type="submit">${frame.t("button_confirm")}</button></form>`;
}

/** A calendar date (YYYY-MM-DD) as the PSU's language writes it; no time zone shift. */
function longDate(isoDate: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" })
    .format(new Date(`${isoDate}T00:00:00Z`));
}

function sharedOf(frame: PageFrame, consent: Consent, account: BankAccount): string {
  const grant = grantFor(consent, account);
  const shared: MessageKey[] = ["access_list"];
  if (grant.balances) shared.push("access_balances");
  if (grant.transactions) shared.push("access_transactions");
  return frame.t("review_shares", { what: shared.map((key) => frame.t(key)).join(", ") });
}

export function consentReviewPage(
  frame: PageFrame, consent: Consent, accounts: readonly BankAccount[], canConfirm: boolean,
): string {
  const boxes = accounts.map((a, i) => html`<div class="account">
<input type="checkbox" id="account-${i}" name="account" value="${a.iban}" checked aria-describedby="account-${i}-info">
<label for="account-${i}">${a.iban}</label>
<span class="hint" id="account-${i}-info">${a.product ?? ""} · ${a.currency} · ${
  sharedOf(frame, consent, a)}</span></div>`);
  const fields = html`<fieldset><legend>${frame.t("review_accounts", { tpp: frame.tppName ?? "" })}</legend>
${boxes}</fieldset><p class="hint">${frame.t("review_valid_until", { date: longDate(consent.validUntil, frame.lang) })}</p>`;
  return page(frame, html`${intro(frame, "consent")}${canConfirm ? confirmForm(frame, fields) : html``}`);
}

export function messagePage(frame: PageFrame): string {
  return page(frame, html``);
}
