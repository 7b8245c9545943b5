/**
 * HTML of the PSU pages as escaped template literals: no script, no inline style, no external
 * asset, so the pages work with JavaScript disabled and under a strict Content-Security-Policy.
 */
import type { Consent } from "../domain/consent/model.js";
import { grantFor, isBankOffered } from "../domain/consent/grants.js";
import type { Payment, StandingOrder } from "../domain/payment/model.js";
import type {
  AccountName, DebtorOverview, Grantable, Review, SubjectView,
} from "../domain/sca/subject.js";
import type { VopOutcome } from "../domain/vop/ports.js";
import { Html, html } from "../lib/html.js";
import { LANGUAGES } from "../lib/languages.js";
import { groupedIban, longDate, money } from "./format.js";
import { CATALOGUES, type MessageKey, type Translate } from "./messages/index.js";

/** The bank's own pages, linked from every page's footer; and under the login form. */
export interface BankLinks {
  imprint: string; privacy: string; help: string; passwordReset: string; loginHelp: string;
}

export interface PageFrame {
  lang: string;
  t: Translate;
  bankName: string;
  links?: BankLinks;
  tppName?: string;
  /** The TPP's organizationIdentifier from its certificate: NCA and authorisation number. */
  tppId?: string;
  step?: 1 | 2 | 3;
  error?: MessageKey;
  errorValues?: Record<string, string>;
  notice?: MessageKey;
  noticeValues?: Record<string, string>;
  /** A second line under the notice, saying why (an exemption's reason in plain words). */
  noticeDetail?: MessageKey;
  /** Before the review: what the PSU is about to authorise, in one line (about.ts). */
  about?: string;
  csrf?: string;
  /** The page's own address for the language switch, where it is not the step's. */
  path?: string;
  /** The login name the PSU typed, kept for the next try after a refusal. */
  loginName?: string;
  /** Where a page that ends the PSU's visit leads back to the TPP. */
  back?: string;
  /**
   * Seconds after which the page forwards itself to `back` without script or click: the spec
   * sends the browser back to the TPP, and a PSU who closes the tab must not strand the TPP.
   */
  forwardSeconds?: number;
  /** On the PSU's dashboard: its own title, and no authorisation to cancel. */
  dashboard?: boolean;
  /** On a link's own page, before any session: where its forms post, with the link's token. */
  entry?: { action: string; token: string };
  /** The page's own title, where it is not an authorisation's or the dashboard's. */
  title?: MessageKey;
  /** A review's Confirm form: shown with Cancel in one bar, pinned to the bottom on a phone. */
  confirm?: Html;
  /** The bank's time zone (BANK_TIME_ZONE), for a moment's date and time; absent: UTC. */
  timeZone?: string;
  /** The one script a page may load (the bank app's, from this origin). */
  script?: string;
  /** The bank app's web app manifest: installable, full-screen, with the bank's own icons. */
  manifest?: { href: string; icon: string };
}

function steps(frame: PageFrame): Html {
  if (!frame.step) return html``;
  const names: MessageKey[] = ["step_login", "step_code", "step_review"];
  return html`<ol class="steps" aria-label="${frame.t("steps_label")}">${names.map((key, i) =>
    html`<li${new Html(i + 1 === frame.step ? ' aria-current="step"' : "")}>${i + 1} ${
      frame.t(key)}</li>`)}</ol>`;
}

const STEP_PATHS = ["/sca/login", "/sca/code", "/sca/review"] as const;

/** The page's own address, which a GET renders again. */
const pathOf = (frame: PageFrame) =>
  frame.path ?? (frame.step ? STEP_PATHS[frame.step - 1] : undefined);

/** Plain links, so switching works without JavaScript; the step's GET re-renders the page. */
function languageSwitch(frame: PageFrame): Html {
  const path = pathOf(frame);
  if (!path) return html``;
  const links = LANGUAGES.map((code) => {
    const current = new Html(code === frame.lang ? ' aria-current="true"' : "");
    return html`<li><a href="${path}${path.includes("?") ? "&" : "?"}lang=${code}" lang="${
      code}" hreflang="${code}"${current}><span class="long">${
      CATALOGUES[code].language_name}</span><span class="short" aria-hidden="true">${
      code.toUpperCase()}</span></a></li>`;
  });
  const label = frame.t("language_switch");
  return html`<nav class="languages" aria-label="${label}"><ul>${links}</ul></nav>`;
}

export function page(frame: PageFrame, body: Html): string {
  const error = frame.error
    ? html`<p class="error" role="alert" id="form-error">${
      frame.t(frame.error, frame.errorValues)}</p>`
    : html``;
  const cancel = frame.csrf && !frame.dashboard && !frame.back ? cancelForm(frame) : html``;
  const back = frame.back ? html`<p><a class="button" href="${frame.back}">${
    frame.t("back_to_tpp", { tpp: frame.tppName ?? frame.t("unknown_tpp") })}</a></p>` : html``;
  const notice = frame.notice ? noticeOf(frame, frame.notice) : html``;
  return "<!doctype html>\n" + html`<html lang="${frame.lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">${forward(frame)}
<title>${frame.t(frame.title ?? (frame.dashboard ? "dashboard_title" : "page_title"),
  { bank: frame.bankName })}</title>
<link rel="stylesheet" href="/sca/static/style.css">${
  frame.script ? html`<script src="${frame.script}" defer></script>` : html``}${
  installable(frame)}</head>
<body><header><p class="bank">${frame.bankName}</p>${languageSwitch(frame)}</header>
<main>${idleNotice(frame)}${steps(frame)}${error}${notice}${body}${back}${
  actions(frame, cancel)}</main>${
  footer(frame)}</body>
</html>`.text;
}

/**
 * A session's step ends after SCA_SESSION_IDLE_SECONDS without activity (RTS art. 4). Without
 * script, the stylesheet shows the first notice shortly before, the second at the limit
 * (style.ts); the link renders the page again, which keeps the session going or, once it ended,
 * says so with the way back to the TPP (WCAG 2.2.1: warned, and extended by one click). No live
 * role: a change of style is no change a screen reader announces, and a hidden alert would be
 * one more alert on the page.
 */
function idleNotice(frame: PageFrame): Html {
  const path = pathOf(frame);
  if (!frame.step || !frame.csrf || frame.entry || frame.back || !path) return html``;
  return html`<div class="idle idle-soon"><p>${frame.t("idle_soon")} <a href="${
    path}">${frame.t("idle_stay")}</a></p></div><div class="idle idle-over"><p>${
    frame.t("idle_over")} <a href="${path}">${frame.t("idle_continue")}</a></p></div>`;
}

/** Cancel, and on a review Confirm beside it in one bar. */
function actions(frame: PageFrame, cancel: Html): Html {
  return frame.confirm ? html`<div class="actions">${frame.confirm}${cancel}</div>` : cancel;
}

/** A success notice; with a detail line, calm news that needs no colour of success. */
function noticeOf(frame: PageFrame, key: MessageKey): Html {
  const text = frame.t(key, frame.noticeValues);
  return frame.noticeDetail
    ? html`<div class="info" role="status"><p><strong>${text}</strong></p><p>${
      frame.t(frame.noticeDetail)}</p></div>`
    : html`<p class="notice" role="status">${text}</p>`;
}

function installable(frame: PageFrame): Html {
  return frame.manifest ? html`
<link rel="manifest" href="${frame.manifest.href}"><meta name="theme-color" content="#0b4f8a">
<link rel="apple-touch-icon" href="${frame.manifest.icon}">` : html``;
}

function forward(frame: PageFrame): Html {
  return frame.back && frame.forwardSeconds !== undefined
    ? html`\n<meta http-equiv="refresh" content="${
      String(frame.forwardSeconds)};url=${frame.back}">`
    : html``;
}

/** Who runs this site, where its legal and help pages are, and the one rule that keeps it safe. */
function footer(frame: PageFrame): Html {
  const links = frame.links;
  const nav = links ? html`<ul>${([
    ["footer_imprint", links.imprint], ["footer_privacy", links.privacy],
    ["footer_help", links.help],
  ] as const).map(([key, href]) => html`<li><a href="${href}">${frame.t(key)}</a></li>`)}</ul>`
    : html``;
  return html`<footer><p class="security">${frame.t("footer_security", {
    bank: frame.bankName })}</p>${nav}<p>© ${frame.bankName}</p></footer>`;
}

/** The login block's length as the pages say it: whole minutes, rounded up. */
export const blockMinutes = (seconds: number) => String(Math.ceil(seconds / 60));

/** Ties the page's error message to a group of fields (WCAG 3.3.1, 1.3.1). */
function errorRef(frame: PageFrame): Html {
  return new Html(frame.error ? ' aria-describedby="form-error"' : "");
}

/** The link's token, and which of the link page's forms was sent. */
function entryFields(frame: PageFrame, cancel = false): Html {
  if (!frame.entry) return html``;
  const which = cancel ? html`<input type="hidden" name="cancel" value="yes">` : html``;
  return html`<input type="hidden" name="token" value="${frame.entry.token}">${which}`;
}

function cancelForm(frame: PageFrame): Html {
  return html`<form method="post" action="${frame.entry?.action ?? "/sca/cancel"}" class="cancel">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">${entryFields(frame, true)}
<button type="submit" class="secondary">${frame.t("button_cancel")}</button></form>`;
}

/** What the PSU is asked to authorise, as the pages' heading says it. */
export type IntroKind =
  | "payment" | "consent" | "payment-cancellation" | "funds-confirmation" | "basket";

export function introKind(resource: SubjectView): IntroKind {
  if (resource.type === "basket") return "basket";
  if (resource.type === "consent") return resource.consent.kind ?? "consent";
  return resource.cancellation ? "payment-cancellation" : "payment";
}

const INTROS = {
  "payment": "intro_payment", "consent": "intro_consent",
  "payment-cancellation": "intro_payment_cancellation",
  "funds-confirmation": "intro_funds_confirmation", "basket": "intro_basket",
} as const satisfies Record<IntroKind, MessageKey>;

export function intro(frame: PageFrame, type: IntroKind): Html {
  const about = frame.about ? html`<p class="about"><span class="hint">${
    frame.t("about_label")}</span> <strong id="about">${frame.about}</strong></p>` : html``;
  return html`<h1>${frame.t(INTROS[type], { tpp: frame.tppName ?? "" })}</h1>${about}`;
}

export function loginPage(frame: PageFrame, type: IntroKind): string {
  const action = frame.entry?.action ?? "/sca/login";
  return page(frame, html`${intro(frame, type)}${loginForm(frame, action)}`);
}

export function loginForm(frame: PageFrame, action: string): Html {
  const described = frame.error ? ' aria-describedby="form-error" aria-invalid="true"' : "";
  return html`<form method="post" action="${action}">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">${entryFields(frame)}
<label for="login">${frame.t("label_login")}</label>
<input id="login" name="login" autocomplete="username" value="${frame.loginName ?? ""}" required${
  new Html(described)}>
<label for="password">${frame.t("label_password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${
  new Html(described)}>
<button type="submit">${frame.t("button_login")}</button></form>${loginHelp(frame)}`;
}

/** Where a PSU stuck at the login goes: the bank's password reset and its help. */
function loginHelp(frame: PageFrame): Html {
  if (!frame.links) return html``;
  return html`<ul class="login-help"><li><a href="${frame.links.passwordReset}">${
    frame.t("login_forgot_password")}</a></li><li><a href="${frame.links.loginHelp}">${
    frame.t("login_help")}</a></li></ul>`;
}

export interface DeviceInfo { kind: string; label: string; phone: string | null }

export function codePage(frame: PageFrame, type: IntroKind, device: DeviceInfo): string {
  return page(frame, html`${intro(frame, type)}${codeForm(frame, device, "/sca/code")}`);
}

const CODE_INPUT = new Html(
  'inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6"');

/**
 * The code form; `action`/resend takes a fresh SMS code. `fields` carry what the code confirms
 * where the session does not (a change of the dashboard's trusted payees): such a code is sent
 * again by asking for the change again, not by resend.
 */
export function codeForm(
  frame: PageFrame, device: DeviceInfo, action: string, fields?: Html,
): Html {
  const hint = device.kind === "sms"
    ? frame.t("code_sms_hint", { phone: maskPhone(device.phone ?? "") })
    : frame.t("code_totp_hint");
  const resend = device.kind === "sms" && !fields
    ? html`<form method="post" action="${action}/resend">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<button type="submit" class="link">${frame.t("button_resend")}</button></form>` : html``;
  const described = frame.error ? "code-hint form-error" : "code-hint";
  return html`<form method="post" action="${action}">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">${fields ?? html``}
<label for="code">${frame.t("label_code")}</label>
<p class="hint" id="code-hint">${hint}</p>
<input id="code" name="code" ${CODE_INPUT} required aria-describedby="${described}"${
  new Html(frame.error ? ' aria-invalid="true"' : "")}>
<button type="submit">${frame.t("button_continue")}</button></form>${resend}`;
}

export function devicePage(
  frame: PageFrame, type: IntroKind, devices: readonly DeviceOption[],
): string {
  return page(frame, html`${intro(frame, type)}${deviceForm(frame, devices, "/sca/device")}`);
}

export interface DeviceOption extends DeviceInfo { id: string }

/** After the password, a PSU with several devices picks the one to get the code from. */
export function deviceForm(
  frame: PageFrame, devices: readonly DeviceOption[], action: string,
): Html {
  const options = devices.map((d, i) => html`<div class="choice">
<input type="radio" id="device-${i}" name="device" value="${d.id}" required${
  new Html(i === 0 ? " checked" : "")}>
<label for="device-${i}">${deviceName(frame, d)}</label></div>`);
  return html`<form method="post" action="${action}">
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<fieldset${errorRef(frame)}><legend>${
  frame.t("label_device")}</legend>${options}</fieldset>
<button type="submit">${frame.t("button_continue")}</button></form>`;
}

function deviceName(frame: PageFrame, d: DeviceInfo): string {
  return d.kind === "sms"
    ? frame.t("device_sms", { phone: maskPhone(d.phone ?? "") })
    : frame.t("device_totp");
}

export function maskPhone(phone: string): string {
  if (phone.length <= 6) return phone;
  return `${phone.slice(0, 6)}${"•".repeat(phone.length - 8)}${phone.slice(-2)}`;
}

export type PaymentResource = Extract<SubjectView, { type: "payment" }>;

/** A <dt>/<dd> pair, or nothing for a missing value. */
export function row(
  frame: PageFrame, key: MessageKey, value: string | Html | null, cls = "",
): Html {
  if (value === null) return html``;
  const attr = new Html(cls ? ` class="${cls}"` : "");
  return html`<dt>${frame.t(key)}</dt><dd${attr}>${value}</dd>`;
}

export const ibanOf = (iban: string) => html`<span class="iban">${groupedIban(iban)}</span>`;

/**
 * What the payee's bank said about the name (Verification of Payee), before Confirm; for the
 * payer's own account (`own`) that it is, whatever the name given.
 */
export function vopText(frame: PageFrame, vop: VopOutcome | null, own = false): Html | null {
  if (vop === null) return null;
  if (own) return html`<span class="vop-match">✓ ${frame.t("vop_own_account")}</span>`;
  switch (vop.result) {
    case "MTCH": return html`<span class="vop-match">✓ ${frame.t("vop_match")}</span>`;
    case "CMTC": return html`<span class="vop-caution" role="status">${
      frame.t("vop_close", { name: vop.matchedName ?? "" })}</span>`;
    case "NMTC": return html`<span class="warning" role="alert">${frame.t("vop_no_match")}</span>`;
    case "NOAP": return html`<span class="vop-caution">${frame.t("vop_not_possible")}</span>`;
  }
}

/**
 * PSR art. 83 (proposal): the payee's IBAN is flagged as used for fraud, said before Confirm;
 * nothing when it is not.
 */
export const fraudWarning = (frame: PageFrame, flagged: boolean): Html | null => flagged
  ? html`<span class="warning" role="alert">${frame.t("fraud_flagged")}</span>` : null;

const paidTo = (resource: PaymentResource) =>
  resource.entries.length > 0 ? resource.entries : [resource.payment];

/** Who gets the money, each payee with the outcome of the check of its name. */
export function payeeSection(
  frame: PageFrame, resource: PaymentResource, own: readonly string[], flagged: readonly string[],
): Html {
  const bulk = resource.entries.length > 0;
  return html`${paidTo(resource).map((e) => html`
${bulk ? row(frame, "review_amount", money(e.amountMinor, e.currency, frame.lang)) : html``}
${row(frame, "review_payee", e.creditorName)}${
  row(frame, "review_payee_iban", ibanOf(e.creditorAccount.iban))}
${resource.cancellation ? html`` : row(frame, "review_vop",
    vopText(frame, e.vop, own.includes(e.id)))}
${row(frame, "review_fraud", fraudWarning(frame, flagged.includes(e.id)))}
${row(frame, "review_purpose", e.remittance)}`)}${
  row(frame, "review_vop", creditorConfirmed(frame, resource))}`;
}

/** The TPP confirmed the payee after showing the PSU the name check (VOP 1.1). */
const creditorConfirmed = (frame: PageFrame, resource: PaymentResource) =>
  resource.payment.creditorConfirmedAt && !resource.cancellation
    ? html`<span class="vop-caution" role="status">${frame.t("vop_creditor_confirmed")}</span>`
    : null;

/** A payee's name did not match: Confirm needs the PSU's tick that it understands. */
function vopAcknowledgement(
  frame: PageFrame, resource: PaymentResource, own: readonly string[],
): Html {
  return payeeAcknowledgement(frame, !resource.cancellation ? paidTo(resource) : [], own);
}

/** The tick, when a payee's name did not match and the account is not the payer's own. */
export function payeeAcknowledgement(
  frame: PageFrame, paid: readonly Payment[], own: readonly string[],
): Html {
  const unmatched = paid.some((p) => p.vop?.result === "NMTC" && !own.includes(p.id));
  return unmatched ? html`<p class="choice"><input type="checkbox" id="vop-ack"
 name="vop_acknowledged" value="yes" required><label for="vop-ack">${
  frame.t("vop_acknowledge")}</label></p>` : html``;
}

/** A standing order's schedule in words: how often, from when, until when. */
export function scheduleText(frame: PageFrame, order: StandingOrder | null): string | null {
  if (order === null) return null;
  const frequency = frame.t(`frequency_${order.frequency}`);
  const start = longDate(order.startDate, frame.lang);
  return order.endDate === null
    ? frame.t("schedule_open", { frequency, start })
    : frame.t("schedule_until", { frequency, start, end: longDate(order.endDate, frame.lang) });
}

export function executionText(
  frame: PageFrame, p: Payment, executesOn: string | null,
): string {
  if (executesOn !== null) return longDate(executesOn, frame.lang);
  return frame.t(p.product === "instant-sepa-credit-transfers"
    ? "execution_instant" : "execution_today");
}

/** Multi-level SCA: the signatures given so far of those the payment needs. */
function signaturesText(frame: PageFrame, p: Payment): string | null {
  const required = p.signaturesRequired ?? 1;
  return required > 1 ? frame.t("signatures_given",
    { given: String(p.signatures ?? 0), required: String(required) }) : null;
}

/**
 * An account as the PSU's online banking names it: its nickname, else its product, over its IBAN
 * in groups of four; the IBAN alone where the bank knows no name.
 */
export function accountText(account: AccountName | null, iban: string): Html {
  const name = account?.name ?? account?.product;
  return name ? html`${name}<br>${ibanOf(iban)}` : ibanOf(iban);
}

/** The account the money leaves: its name, its IBAN and what it holds now. */
export function debtorSection(frame: PageFrame, p: Payment, debtor: DebtorOverview | null): Html {
  const available = debtor && money(debtor.availableMinor, debtor.currency, frame.lang);
  return html`${row(frame, "review_debtor", accountText(debtor, p.debtorAccount.iban))}${
    row(frame, "review_available", available)}`;
}

export function paymentReviewPage(
  frame: PageFrame, resource: PaymentResource, review: Review | null, canConfirm: boolean,
): string {
  const p = resource.payment;
  const debtor = review?.debtor ?? null;
  const warning = debtor?.short
    ? html`<p class="warning" role="alert">${frame.t("warning_insufficient")}</p>` : html``;
  const nextKey = (p.signatures ?? 0) + 1 < (p.signaturesRequired ?? 1)
    ? "review_next_signature" : "review_next";
  const next = resource.cancellation
    ? html`` : html`<p class="hint">${frame.t(nextKey, { tpp: frame.tppName ?? "" })}</p>`;
  const own = review?.ownPayees ?? [];
  const confirm = canConfirm
    ? confirmForm(frame, vopAcknowledgement(frame, resource, own)) : html``;
  const execution = resource.cancellation
    ? null : executionText(frame, p, review?.executesOn ?? null);
  return page({ ...frame, confirm }, html`${intro(frame, introKind(resource))}
<dl class="review">
${row(frame, "review_amount", money(p.amountMinor, p.currency, frame.lang), "amount")}
${payeeSection(frame, resource, own, review?.flaggedPayees ?? [])}${
  row(frame, "review_execution", execution)}
${row(frame, "review_schedule", scheduleText(frame, p.standingOrder))}
${row(frame, "review_fees", frame.t("fees_none"))}${debtorSection(frame, p, debtor)}
${row(frame, "payment_signatures", resource.cancellation ? null : signaturesText(frame, p))}
${row(frame, "review_tpp", frame.tppId ? frame.t("tpp_registered", {
    tpp: frame.tppName ?? "", id: frame.tppId }) : null)}
</dl>${warning}${next}`);
}

/**
 * The review's form; with an `id`, its button is left to confirmButton, which submits it from
 * the bar of Confirm and Cancel (a consent's form holds the accounts to tick, far above the bar).
 */
export function confirmForm(frame: PageFrame, fields: Html, id?: string): Html {
  return html`<form method="post" action="/sca/confirm"${new Html(id ? ` id="${id}"` : "")}>
<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">${fields}${
  id ? html`` : confirmButton(frame)}</form>`;
}

export function confirmButton(frame: PageFrame, form?: string): Html {
  return html`<button type="submit"${new Html(form ? ` form="${form}"` : "")}>${
    frame.t("button_confirm")}</button>`;
}

function sharedOf(frame: PageFrame, consent: Consent, account: Grantable): string {
  return sharesText(frame, grantFor(consent, account));
}

/** "shares: account details, balances, ..." in the page's language. */
export function sharesText(
  frame: PageFrame, grant: { balances: boolean; transactions: boolean },
): string {
  const shared: MessageKey[] = ["access_list"];
  if (grant.balances) shared.push("access_balances");
  if (grant.transactions) shared.push("access_transactions");
  return frame.t("review_shares", { what: shared.map((key) => frame.t(key)).join(", ") });
}

/** What the PSU ticked on its last try, kept over a refusal; nothing before its first. */
export interface ConsentChoice { accounts: string[]; balances: string[]; transactions: string[] }

const NOTHING_CHOSEN: ConsentChoice = { accounts: [], balances: [], transactions: [] };

const ticked = (on: boolean) => new Html(on ? " checked" : "");

/** On a bank-offered consent the PSU decides per account whether balances and transactions go. */
function choicesOf(frame: PageFrame, account: Grantable, i: number, chosen: ConsentChoice): Html {
  const box = (name: "balances" | "transactions", key: MessageKey) => html`<span class="choice">
<input type="checkbox" id="${name}-${i}" name="${name}" value="${account.reference}"${
  ticked(chosen[name].includes(account.reference))}>
<label for="${name}-${i}">${frame.t(key)}</label></span>`;
  return html`<span class="hint">${frame.t("access_list")}</span><span class="choices">${
    box("balances", "access_balances")}${box("transactions", "access_transactions")}</span>`;
}

/** An IBAN in groups of four as a bank prints it; a card's masked number as it is. */
const referenceText = (reference: string) =>
  /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(reference) ? groupedIban(reference) : reference;

/** An account to tick, named as online banking names it: its name, then its IBAN. */
function grantableName(a: Grantable): Html {
  const name = a.name ?? a.product;
  const reference = html`<span class="iban">${referenceText(a.reference)}</span>`;
  return name ? html`<strong>${name}</strong> ${reference}` : reference;
}

/** Under an account: what it holds now (not for a card), its currency and what it shares. */
function grantableInfo(frame: PageFrame, consent: Consent, a: Grantable, pick: boolean): Html {
  const held = a.availableMinor === undefined ? a.currency : frame.t("account_available",
    { amount: money(a.availableMinor, a.currency, frame.lang) });
  return html`${held}${pick ? html`` : html` · ${sharedOf(frame, consent, a)}`}`;
}

/** The form's id: its Confirm sits in the bar with Cancel, pinned to the bottom on a phone. */
const CONSENT_FORM = "consent-form";

export function consentReviewPage(
  frame: PageFrame, consent: Consent, accounts: readonly Grantable[], canConfirm: boolean,
  chosen: ConsentChoice = NOTHING_CHOSEN,
): string {
  const pick = isBankOffered(consent);
  const boxes = accounts.map((a, i) => html`<div class="account">
<input type="checkbox" id="account-${i}" name="account" value="${a.reference}"${
  ticked(chosen.accounts.includes(a.reference))} aria-describedby="account-${i}-info">
<label for="account-${i}">${grantableName(a)}</label>
<span class="hint" id="account-${i}-info">${grantableInfo(frame, consent, a, pick)}</span>${
  pick ? choicesOf(frame, a, i, chosen) : html``}</div>`);
  const legend = frame.t("review_accounts", { tpp: frame.tppName ?? "" });
  const validUntil = frame.t("review_valid_until", {
    date: longDate(consent.validUntil, frame.lang),
  });
  const fields = html`<fieldset${errorRef(frame)}><legend>${legend}</legend>
${boxes}</fieldset><p class="hint">${validUntil}</p>`;
  const form = canConfirm ? confirmForm(frame, fields, CONSENT_FORM) : html``;
  const confirm = canConfirm ? confirmButton(frame, CONSENT_FORM) : undefined;
  return page({ ...frame, confirm }, html`${intro(frame, consent.kind ?? "consent")}${form}`);
}

/** The site's root, and (with an error) any unknown path: what this site is, and a way on. */
export function sitePage(frame: PageFrame, dashboardPath: string): string {
  return page(frame, html`<h1>${frame.bankName}</h1>
<p>${frame.t("site_intro", { bank: frame.bankName })}</p>
<p><a href="${dashboardPath}">${frame.t("link_dashboard")}</a></p>`);
}

/**
 * A page that only says something: with an error, a whole page (heading, the reason, and the
 * way back to the TPP, else to the bank's start page), never one red line.
 */
export function messagePage(frame: PageFrame, heading: MessageKey = "error_heading"): string {
  if (!frame.error) return page(frame, html``);
  const home = frame.back ? html`` : html`<p><a class="button" href="/">${
    frame.t("link_bank_home")}</a></p>`;
  return page({ ...frame, error: undefined }, html`<h1>${frame.t(heading)}</h1>
<p class="error" role="alert" id="form-error">${frame.t(frame.error, frame.errorValues)}</p>${
  home}`);
}

/**
 * Any failure behind a PSU page (a database timeout): the bank's page in the PSU's language,
 * to try again (`retry`) or go back to the TPP, never the framework's JSON.
 */
export function unavailablePage(frame: PageFrame, retry: string): string {
  return page(frame, html`<h1>${frame.t("unavailable_heading")}</h1>
<p class="warning" role="alert" id="form-error">${frame.t("error_unavailable")}</p>
<p><a class="button${frame.back ? " secondary" : ""}" href="${retry}">${
  frame.t("button_try_again")}</a></p>`);
}
