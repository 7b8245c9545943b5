/**
 * HTML of the PSU's own dashboard: its login steps (the authorisation's forms at other addresses)
 * and the overview of consents and payments. Same rules as views.ts: escaped, no script.
 */
import type { TransactionStatus } from "../domain/payment/model.js";
import type { Overview } from "../domain/psu-dashboard.js";
import { Html, html } from "../lib/html.js";
import { groupedIban, money } from "./format.js";
import type { MessageKey } from "./messages/index.js";
import {
  codeForm, deviceForm, loginForm, longDate, page, sharesText, type DeviceInfo, type DeviceOption,
  type PageFrame, vopText,
} from "./views.js";

export const DASHBOARD = "/dashboard";

function heading(frame: PageFrame): Html {
  return html`<h1>${frame.t("dashboard_title", { bank: frame.bankName })}</h1>
<p>${frame.t("dashboard_login")}</p>`;
}

export function dashboardLoginPage(frame: PageFrame): string {
  return page(frame, html`${heading(frame)}${loginForm(frame, `${DASHBOARD}/login`)}`);
}

export function dashboardDevicePage(frame: PageFrame, devices: readonly DeviceOption[]): string {
  return page(frame, html`${heading(frame)}${deviceForm(frame, devices, `${DASHBOARD}/device`)}`);
}

export function dashboardCodePage(frame: PageFrame, device: DeviceInfo): string {
  return page(frame, html`${heading(frame)}${codeForm(frame, device, `${DASHBOARD}/code`)}`);
}

/** Payment statuses in the PSU's words: the ISO codes mean nothing to most people. */
const PAYMENT_STATUS: Record<TransactionStatus, MessageKey> = {
  RCVD: "status_payment_pending", RCVC: "status_payment_pending", RVCM: "status_payment_pending",
  RVNC: "status_payment_pending", PDNG: "status_payment_pending", PATC: "status_payment_pending",
  ACTC: "status_payment_accepted", ACCP: "status_payment_accepted", ACSP: "status_payment_accepted",
  PART: "status_payment_accepted", ACSC: "status_payment_executed", ACCC: "status_payment_executed",
  RJCT: "status_payment_rejected", CANC: "status_payment_cancelled",
};

function row(frame: PageFrame, key: MessageKey, value: Html | string): Html {
  return html`<dt>${frame.t(key)}</dt><dd>${value}</dd>`;
}

function consentCard(frame: PageFrame, c: Overview["consents"][number], i: number): Html {
  const accounts = html`<ul>${c.granted.map((g) => {
    const reference = "iban" in g.reference ? g.reference.iban : g.reference.maskedPan;
    const shown = "iban" in g.reference ? groupedIban(reference) : reference;
    return html`<li><span class="iban">${shown}</span> · ${sharesText(frame, g)}</li>`;
  })}</ul>`;
  const revokeLabel = frame.t("button_revoke", { tpp: c.tppName });
  const revoke = c.consent.status === "valid"
    ? html`<form method="post" action="${DASHBOARD}/revoke">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<input type="hidden" name="consent" value="${c.consent.id}">
<button type="submit" class="secondary">${revokeLabel}</button></form>` : html``;
  const heading = frame.t("consent_of", { tpp: c.tppName });
  return html`<li class="card"><h3 id="consent-${i}">${heading}</h3>
<dl>${row(frame, "consent_status", frame.t(`status_${c.consent.status}`))}
${c.granted.length ? row(frame, "consent_accounts", accounts) : html``}
${c.givenOn ? row(frame, "consent_given", longDate(c.givenOn, frame.lang)) : html``}
${row(frame, "consent_valid_until", longDate(c.consent.validUntil, frame.lang))}
${row(frame, "consent_last_use", longDate(c.lastActionDate, frame.lang))}</dl>${revoke}</li>`;
}

const ibanText = (iban: string) => html`<span class="iban">${groupedIban(iban)}</span>`;

function paymentCard(frame: PageFrame, p: Overview["payments"][number]): Html {
  const amount = money(p.amountMinor, p.currency, frame.lang);
  return html`<li class="card"><h3>${frame.t("payment_of", { amount, payee: p.creditorName })}</h3>
<dl>${row(frame, "review_payee_iban", ibanText(p.creditorAccount.iban))}
${row(frame, "review_debtor", ibanText(p.debtorAccount.iban))}
${row(frame, "payment_tpp", p.tppName)}
${p.vop ? row(frame, "review_vop", vopText(frame, p.vop) ?? "") : html``}
${row(frame, "consent_status", frame.t(PAYMENT_STATUS[p.status]))}
${row(frame, "payment_date", longDate(p.date, frame.lang))}</dl></li>`;
}

function section(frame: PageFrame, title: MessageKey, empty: MessageKey, cards: Html[]): Html {
  const id = `${title}-heading`;
  const body = cards.length
    ? html`<ul class="cards">${cards}</ul>` : html`<p>${frame.t(empty)}</p>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${
    frame.t(title)}</h2>${body}</section>`;
}

export function dashboardPage(frame: PageFrame, psuName: string, overview: Overview): string {
  const logout = html`<form method="post" action="${DASHBOARD}/logout" class="cancel">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<button type="submit" class="secondary">${frame.t("button_logout")}</button></form>`;
  return page(frame, html`<h1>${frame.t("dashboard_heading")}</h1>
<p>${frame.t("dashboard_signed_in", { name: psuName })}</p>${logout}
${section(frame, "dashboard_consents", "dashboard_no_consents",
    overview.consents.map((c, i) => consentCard(frame, c, i)))}
${section(frame, "dashboard_payments", "dashboard_no_payments",
    overview.payments.map((p) => paymentCard(frame, p)))}`);
}
