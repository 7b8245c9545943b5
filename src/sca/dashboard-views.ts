/**
 * HTML of the PSU's own dashboard: its login steps (the authorisation's forms at other addresses)
 * and the overview of consents and payments. Same rules as views.ts: escaped, no script.
 */
import type { TransactionStatus } from "../domain/payment/model.js";
import type { Overview } from "../domain/dashboard/dashboard.js";
import { WITHDRAWN_BY_PSU, type HeldAccount } from "../domain/dashboard/permissions.js";
import { OLD_HISTORY_DAYS } from "../domain/account-information/statement-query.js";
import type { PayeeChange } from "../domain/exemptions/trusted-payees.js";
import { isReportable } from "../domain/fraud/signals.js";
import { Html, html } from "../lib/html.js";
import { groupedIban, longDate, money } from "./format.js";
import type { MessageKey } from "./messages/index.js";
import { receiptOf, referenceOf } from "./result-view.js";
import {
  codeForm, deviceForm, loginForm, page, scheduleText, sharesText, type DeviceInfo,
  type DeviceOption, type PageFrame, vopText,
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

type ListedPayment = Overview["payments"][number];

function row(frame: PageFrame, key: MessageKey, value: Html | string): Html {
  return html`<dt>${frame.t(key)}</dt><dd>${value}</dd>`;
}

type ListedConsent = Overview["consents"][number];

/**
 * Ended by the PSU's own newer consent at the same TPP (a recurring consent replaces the one
 * before), not by the TPP: the newer one was authorised the moment the older one ended.
 */
function replacedIn(consents: readonly ListedConsent[]): Set<string> {
  const key = (c: ListedConsent, at: string | null) => `${c.consent.tppId} ${at}`;
  return new Set(consents.filter((c) => c.consent.status === "terminatedByTpp"
    // Not by itself: a consent the TPP deleted in the instant it was authorised.
    && consents.some((n) => n !== c
      && key(n, n.consent.authorisedAt) === key(c, c.consent.updatedAt)))
    .map((c) => c.consent.id));
}

function consentCard(
  frame: PageFrame, c: ListedConsent, i: number, revocable = true, replaced = false,
): Html {
  const accounts = html`<ul>${c.granted.map((g) => {
    const reference = "iban" in g.reference ? g.reference.iban : g.reference.maskedPan;
    const shown = "iban" in g.reference ? groupedIban(reference) : reference;
    // A funds-confirmation consent shares no data of the account: the Data row says what.
    const shares = c.consent.kind === "funds-confirmation" ? "" : ` · ${sharesText(frame, g)}`;
    return html`<li><span class="iban">${shown}</span>${shares}</li>`;
  })}</ul>`;
  const revokeLabel = frame.t("button_revoke", { tpp: c.tppName });
  // A GET: it only asks "are you sure?"; the revocation itself is the confirmation page's POST.
  const revoke = revocable && c.consent.status === "valid"
    ? html`<form method="get" action="${DASHBOARD}/revoke">
<input type="hidden" name="consent" value="${c.consent.id}">
<button type="submit" class="secondary">${revokeLabel}</button></form>` : html``;
  const heading = frame.t("consent_of", { tpp: c.tppName });
  return html`<li class="card"><h3 id="consent-${i}">${heading}</h3>
<dl>${row(frame, "consent_status",
    frame.t(replaced ? "status_replaced" : `status_${c.consent.status}`))}
${endedRow(frame, c.endedOn)}${purposeRow(frame, c.purpose)}
${c.granted.length ? row(frame, "consent_accounts", accounts) : html``}
${row(frame, "permission_data", dataText(frame, c))}
${c.givenOn ? row(frame, "consent_given", longDate(c.givenOn, frame.lang)) : html``}
${row(frame, "consent_valid_until", longDate(c.consent.validUntil, frame.lang))}
${row(frame, "consent_last_use", longDate(c.lastActionDate, frame.lang))}</dl>${revoke}</li>`;
}

/** PSR: the purpose as the provider declared it, said to be missing where it declared none. */
const purposeRow = (frame: PageFrame, purpose: string | null) =>
  row(frame, "permission_purpose", purpose ?? frame.t("purpose_not_stated"));

const endedRow = (frame: PageFrame, endedOn: string | null) =>
  endedOn ? row(frame, "permission_ended", longDate(endedOn, frame.lang)) : html``;

/**
 * The categories of data a consent opens, across its accounts, and how far back transactions
 * go (RTS art. 10a: 90 days, older ones only in the hour after the PSU's authentication).
 */
function dataText(frame: PageFrame, c: ListedConsent): string {
  if (c.consent.kind === "funds-confirmation") return frame.t("data_funds");
  const shared = [frame.t("access_list")];
  if (c.granted.some((g) => g.balances)) shared.push(frame.t("access_balances"));
  if (c.granted.some((g) => g.transactions)) {
    shared.push(frame.t("data_transactions_back", { days: String(OLD_HISTORY_DAYS) }));
  }
  return shared.join(", ");
}

const ibanText = (iban: string) => html`<span class="iban">${groupedIban(iban)}</span>`;

/** Where the receipt of one of the PSU's payments can be seen again, and printed. */
export const receiptLink = (id: string) => `${DASHBOARD}/receipt?payment=${id}`;

function paymentCard(
  frame: PageFrame, p: ListedPayment, own: readonly string[], extra = html``,
): Html {
  const amount = money(p.amountMinor, p.currency, frame.lang);
  // Between the PSU's own accounts the name check has nothing to warn about (issue 36).
  const ownPayee = own.includes(p.creditorAccount.iban);
  return html`<li class="card"><h3>${frame.t("payment_of", { amount, payee: p.creditorName })}</h3>
<dl>${row(frame, "review_payee_iban", ibanText(p.creditorAccount.iban))}
${row(frame, "review_debtor", ibanText(p.debtorAccount.iban))}
${row(frame, "payment_tpp", p.tppName)}
${p.vop ? row(frame, "review_vop", vopText(frame, p.vop, ownPayee) ?? "") : html``}
${row(frame, "consent_status", frame.t(PAYMENT_STATUS[p.status]))}
${row(frame, "payment_date", longDate(p.date, frame.lang))}
${row(frame, "receipt_reference", referenceOf(p))}${extra}</dl>
<p><a href="${receiptLink(p.id)}">${frame.t("receipt_heading")}</a></p>${
  fraudButton(frame, p)}</li>`;
}

/** PSR art. 83 (proposal): a GET, it only asks "are you sure?"; the report is that page's POST. */
const fraudButton = (frame: PageFrame, p: ListedPayment): Html => isReportable(p)
  ? html`<form method="get" action="${DASHBOARD}/report-fraud">
<input type="hidden" name="payment" value="${p.id}">
<button type="submit" class="secondary">${frame.t("button_report_fraud")}</button></form>`
  : html``;

/** The "are you sure?" before a payment is reported as fraud. */
export function dashboardReportFraudPage(frame: PageFrame, p: ListedPayment): string {
  const amount = money(p.amountMinor, p.currency, frame.lang);
  return confirmationPage(frame, {
    heading: frame.t("report_fraud_heading"),
    about: html`<p>${frame.t("payment_of", { amount, payee: p.creditorName })}, ${
      ibanText(p.creditorAccount.iban)}</p><p>${frame.t("report_fraud_text")}</p>`,
    action: "report-fraud", field: "payment", id: p.id,
    confirm: "button_report_fraud_confirm", back: "link_dashboard",
  });
}

/**
 * An "are you sure?" page of the dashboard: what the PSU is about to do, a POST (CSRF-protected)
 * that names the one thing it acts on, and the way back that changes nothing.
 */
function confirmationPage(frame: PageFrame, c: {
  heading: string; about: Html; action: string; field: string; id: string;
  confirm: MessageKey; back: MessageKey;
}): string {
  return page(frame, html`<h1>${c.heading}</h1>
${c.about}
<form method="post" action="${DASHBOARD}/${c.action}">${csrfField(frame)}
<input type="hidden" name="${c.field}" value="${c.id}">
<button type="submit">${frame.t(c.confirm)}</button></form>
<p><a class="button secondary" href="${DASHBOARD}">${frame.t(c.back)}</a></p>`);
}

/**
 * A payment's receipt, again from the dashboard: printable, no forwarding anywhere; the account
 * debited named as the overview names it (no balance after: later bookings moved it since).
 */
export function dashboardReceiptPage(
  frame: PageFrame, p: ListedPayment, debtor: HeldAccount | null,
): string {
  const amount = money(p.amountMinor, p.currency, frame.lang);
  const resource = { type: "payment" as const, payment: p, cancellation: false, entries: [] };
  return page(frame, html`<h1>${frame.t("payment_of", { amount, payee: p.creditorName })}</h1>
<p>${frame.t(PAYMENT_STATUS[p.status])}</p>${receiptOf(frame, resource,
  debtor && { ...debtor, balanceAfterMinor: null })}
<p><a class="button secondary" href="${DASHBOARD}">${frame.t("link_dashboard")}</a></p>`);
}

function section(
  frame: PageFrame, title: MessageKey, body: Html, abandoned: Html[] = [],
): Html {
  const id = `${title}-heading`;
  const collapsed = abandoned.length ? html`<details><summary>${frame.t("abandoned_summary",
    { count: String(abandoned.length) })}</summary><ul class="cards">${abandoned}</ul></details>`
    : html``;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${
    frame.t(title)}</h2>${body}${collapsed}</section>`;
}

const cardsOr = (frame: PageFrame, empty: MessageKey, cards: Html[]) =>
  cards.length ? html`<ul class="cards">${cards}</ul>` : html`<p>${frame.t(empty)}</p>`;

export const PAYMENT_FILTERS = ["all", "awaiting", "executed", "rejected"] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
export interface PaymentListing { filter: PaymentFilter; page: number }

const PER_PAGE = 10;

const FILTER_OF: Record<TransactionStatus, Exclude<PaymentFilter, "all">> = {
  RCVD: "awaiting", RCVC: "awaiting", RVCM: "awaiting", RVNC: "awaiting", PDNG: "awaiting",
  PATC: "awaiting", ACTC: "executed", ACCP: "executed", ACSP: "executed", PART: "executed",
  ACSC: "executed", ACCC: "executed", RJCT: "rejected", CANC: "rejected",
};


/** Authorisations nobody completed: kept out of the way, one click away. */
const abandonedPayment = (p: ListedPayment) =>
  p.status === "RJCT" && p.statusReason === "sca_expired";
const abandonedConsent = (c: Overview["consents"][number]) =>
  c.consent.status === "rejected" && c.consent.authorisedAt === null;

const listingLink = (filter: PaymentFilter, page = 1) =>
  `${DASHBOARD}?payments=${filter}${page > 1 ? `&page=${page}` : ""}`;

function filterNav(frame: PageFrame, current: PaymentFilter): Html {
  return html`<nav aria-label="${frame.t("filter_label")}" class="filters"><ul>${
    PAYMENT_FILTERS.map((f) => html`<li><a href="${listingLink(f)}"${
      new Html(f === current ? ' aria-current="page"' : "")}>${frame.t(`filter_${f}`)}</a></li>`)
  }</ul></nav>`;
}

function pager(frame: PageFrame, listing: PaymentListing, pages: number): Html {
  if (pages <= 1) return html``;
  const { filter, page } = listing;
  const previous = page > 1
    ? html`<a href="${listingLink(filter, page - 1)}" rel="prev">${frame.t("link_previous")}</a>`
    : html``;
  const next = page < pages
    ? html`<a href="${listingLink(filter, page + 1)}" rel="next">${frame.t("link_next")}</a>`
    : html``;
  return html`<p class="pager">${previous} <span>${frame.t("page_of",
    { page: String(page), pages: String(pages) })}</span> ${next}</p>`;
}

function paymentsSection(
  frame: PageFrame, payments: readonly ListedPayment[], listing: PaymentListing,
  own: readonly string[],
): Html {
  const active = payments.filter((p) => !abandonedPayment(p));
  const chosen = listing.filter === "all" ? active
    : active.filter((p) => FILTER_OF[p.status] === listing.filter);
  const pages = Math.max(1, Math.ceil(chosen.length / PER_PAGE));
  const page = Math.min(Math.max(1, listing.page), pages);
  const cards = chosen.slice((page - 1) * PER_PAGE, page * PER_PAGE)
    .map((p) => paymentCard(frame, p, own));
  const empty = payments.length === 0 ? "dashboard_no_payments" : "filter_none";
  const body = html`${payments.length ? filterNav(frame, listing.filter) : html``}${
    cardsOr(frame, empty, cards)}${pager(frame, { ...listing, page }, pages)}`;
  return section(frame, "dashboard_payments", body,
    payments.filter(abandonedPayment).map((p) => paymentCard(frame, p, own)));
}

/** "Are you sure?" before a revocation, which cannot be undone. */
export function dashboardRevokePage(frame: PageFrame, c: Overview["consents"][number]): string {
  return confirmationPage(frame, {
    heading: frame.t("revoke_confirm_heading", { tpp: c.tppName }),
    about: html`<p>${frame.t("revoke_confirm_text", { tpp: c.tppName })}</p>
<ul class="cards">${consentCard(frame, c, 0, false)}</ul>`,
    action: "revoke", field: "consent", id: c.consent.id,
    confirm: "button_revoke_confirm", back: "link_keep_access",
  });
}

export function dashboardPage(
  frame: PageFrame, psuName: string, overview: Overview, listing: PaymentListing,
): string {
  const logout = html`<form method="post" action="${DASHBOARD}/logout" class="cancel">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<button type="submit" class="secondary">${frame.t("button_logout")}</button></form>`;
  const { consents } = overview;
  const replaced = replacedIn(consents);
  const card = (c: ListedConsent, i: number) =>
    consentCard(frame, c, i, true, replaced.has(c.consent.id));
  return page(frame, html`<h1>${frame.t("dashboard_heading")}</h1>
<p>${frame.t("dashboard_signed_in", { name: psuName })}</p>${logout}
${accountsSection(frame, overview)}
${section(frame, "dashboard_consents", html`<p>${frame.t("permissions_text",
    { days: String(overview.historyDays) })}</p>${cardsOr(frame, "dashboard_no_consents",
    consents.filter((c) => !abandonedConsent(c)).map(card))}`,
  consents.filter(abandonedConsent).map((c, i) => card(c, consents.length + i)))}
${ordersSection(frame, overview.orders)}
${signatureSection(frame, overview.awaitingSignature, overview.ownIbans)}
${paymentsSection(frame, overview.payments, listing, overview.ownIbans)}
${trustedSection(frame, overview.trustedPayees)}${appSection(frame, overview.apps)}`);
}

const csrfField = (frame: PageFrame) =>
  html`<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">`;

/** A change of the list as hidden fields: what the code then confirms. */
const changeFields = (c: PayeeChange) => html`<input type="hidden" name="action" value="${
  c.action}"><input type="hidden" name="iban" value="${c.iban}">
<input type="hidden" name="name" value="${c.name}">`;

/** RTS art. 13: the PSU's trusted payees, each change confirmed with a code on the next page. */
function trustedSection(frame: PageFrame, payees: Overview["trustedPayees"]): Html {
  if (payees === null) return html``;
  const cards = payees.map((p) => html`<li class="card"><h3>${p.name}</h3>
<p>${ibanText(p.iban)}</p><form method="post" action="${DASHBOARD}/trusted">${csrfField(frame)}
${changeFields({ action: "remove", iban: p.iban, name: p.name })}
<button type="submit" class="secondary">${frame.t("trusted_remove")}</button></form></li>`);
  return section(frame, "trusted_heading", html`<p>${frame.t("trusted_text")}</p>
${cardsOr(frame, "trusted_none", cards)}
<form method="post" action="${DASHBOARD}/trusted">${csrfField(frame)}
<input type="hidden" name="action" value="add">
<label for="trusted-iban">${frame.t("trusted_iban")}</label>
<input id="trusted-iban" name="iban" autocomplete="off" maxlength="42" required>
<label for="trusted-name">${frame.t("trusted_name")}</label>
<input id="trusted-name" name="name" autocomplete="off" maxlength="70" required>
<button type="submit">${frame.t("trusted_add")}</button></form>`);
}

/** The second factor again, bound to one change of the trusted payees. */
export function dashboardTrustedPage(
  frame: PageFrame, change: PayeeChange, device: DeviceInfo,
): string {
  const key = change.action === "add" ? "trusted_confirm_add" : "trusted_confirm_remove";
  return page(frame, html`<h1>${frame.t("trusted_heading")}</h1>
<p>${frame.t(key, { name: change.name, iban: groupedIban(change.iban) })}</p>
${codeForm(frame, device, `${DASHBOARD}/trusted/confirm`, changeFields(change))}
<p><a class="button secondary" href="${DASHBOARD}">${frame.t("button_cancel")}</a></p>`);
}

/** A company user's payments to sign; only shown to a user who has some. */
function signatureSection(
  frame: PageFrame, payments: Overview["awaitingSignature"], own: readonly string[],
): Html {
  if (payments.length === 0) return html``;
  const cards = payments.map((p) => paymentCard(frame, p, own, row(frame, "payment_signatures",
    frame.t("signatures_given", {
      given: String(p.signatures ?? 0), required: String(p.signaturesRequired ?? 1),
    }))));
  return section(frame, "dashboard_awaiting_signature", html`<p>${
    frame.t("dashboard_awaiting_signature_text")}</p><ul class="cards">${cards}</ul>`);
}

/** The bank app (decoupled approach): the devices it is active on, and activation here. */
function appSection(frame: PageFrame, apps: Overview["apps"]): Html {
  const csrf = html`<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">`;
  const cards = apps.map((a) => html`<li class="card"><p>${frame.t("dashboard_app_active",
    { date: longDate(a.activatedOn, frame.lang) })}</p>
<form method="post" action="${DASHBOARD}/app/revoke">${csrf}
<input type="hidden" name="app" value="${a.id}">
<button type="submit" class="secondary">${frame.t("dashboard_app_revoke")}</button></form></li>`);
  return section(frame, "dashboard_app_heading", html`<p>${frame.t("dashboard_app_text")}</p>
${cards.length > 0 ? html`<ul class="cards">${cards}</ul>` : html``}
<form method="post" action="${DASHBOARD}/app">${csrf}
<label for="app-pin">${frame.t("dashboard_app_pin")}</label>
<input id="app-pin" name="pin" type="password" inputmode="numeric" pattern="[0-9]{4,8}"
 maxlength="8" autocomplete="new-password" required>
<button type="submit">${frame.t("dashboard_app_activate")}</button></form>`);
}

/** "•••• 1234": a card's last four digits, as on the card's back and in the bank's app. */
const maskedCard = (maskedPan: string) => `•••• ${maskedPan.slice(-4)}`;

const balanceRow = (frame: PageFrame, balance: bigint | null, currency: string) =>
  balance === null ? html`` : row(frame, "review_available", money(balance, currency, frame.lang));

/** Issue 36: the PSU's accounts with their balances first, its cards after them, masked. */
function accountsSection(frame: PageFrame, overview: Overview): Html {
  const accounts = overview.accounts.map((a) => html`<li class="card"><h3>${
    a.name ?? a.product ?? frame.t("account_unnamed")}</h3><p>${ibanText(a.iban)}</p>
<dl>${balanceRow(frame, a.balance, a.currency)}</dl></li>`);
  const cards = overview.cards.map((c) => html`<li class="card"><h3>${
    c.product ?? c.name ?? frame.t("card_unnamed")}</h3><p><span class="iban">${
    maskedCard(c.maskedPan)}</span></p>
<dl>${balanceRow(frame, c.balance, c.currency)}</dl></li>`);
  return section(frame, "dashboard_accounts",
    cardsOr(frame, "dashboard_no_accounts", [...accounts, ...cards]));
}

type ListedOrder = Overview["orders"][number];

/** A standing order's status in the PSU's words: running, or how it ended. */
function orderStatus(p: ListedOrder): MessageKey {
  if (p.status === "CANC" && p.statusReason === WITHDRAWN_BY_PSU) return "status_withdrawn";
  if (p.status === "ACTC") return "status_valid";
  if (p.status === "ACSC" || p.status === "ACCC") return "status_order_completed";
  if (p.status === "RJCT") return "status_rejected";
  return PAYMENT_STATUS[p.status];
}

function orderCard(frame: PageFrame, p: ListedOrder, withdrawable = true): Html {
  const amount = money(p.amountMinor, p.currency, frame.lang);
  // A GET: it only asks "are you sure?"; the withdrawal itself is the confirmation page's POST.
  const withdraw = withdrawable && p.status === "ACTC"
    ? html`<form method="get" action="${DASHBOARD}/withdraw">
<input type="hidden" name="payment" value="${p.id}">
<button type="submit" class="secondary">${frame.t("button_withdraw_order")}</button></form>`
    : html``;
  return html`<li class="card"><h3>${frame.t("order_of", { amount, payee: p.creditorName })}</h3>
<dl>${row(frame, "consent_status", frame.t(orderStatus(p)))}${endedRow(frame, p.endedOn)}
${row(frame, "payment_tpp", p.tppName)}${purposeRow(frame, p.purpose)}
${row(frame, "review_debtor", ibanText(p.debtorAccount.iban))}
${row(frame, "review_payee_iban", ibanText(p.creditorAccount.iban))}
${row(frame, "review_schedule", scheduleText(frame, p.standingOrder) ?? "")}
${p.requestedExecutionDate && p.status === "ACTC"
    ? row(frame, "order_next", longDate(p.requestedExecutionDate, frame.lang)) : html``}
</dl>${withdraw}</li>`;
}

/** PSR: payments that run again, each a permission the PSU gave a provider and may withdraw. */
function ordersSection(frame: PageFrame, orders: Overview["orders"]): Html {
  if (orders.length === 0) return html``;
  return section(frame, "dashboard_orders",
    html`<ul class="cards">${orders.map((p) => orderCard(frame, p))}</ul>`);
}

/** "Are you sure?" before a standing order is stopped, which cannot be undone. */
export function dashboardWithdrawPage(frame: PageFrame, p: ListedOrder): string {
  return confirmationPage(frame, {
    heading: frame.t("withdraw_confirm_heading", { payee: p.creditorName }),
    about: html`<p>${frame.t("withdraw_confirm_text", { tpp: p.tppName })}</p>
<ul class="cards">${orderCard(frame, p, false)}</ul>`,
    action: "withdraw", field: "payment", id: p.id,
    confirm: "button_withdraw_confirm", back: "link_keep_order",
  });
}
