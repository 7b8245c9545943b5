/**
 * The bank app's pages (decoupled approach): the requests waiting for the PSU, each with what
 * dynamic linking requires (amount and payee, or the TPP and the accounts), confirmed with the
 * app PIN or rejected. The list refreshes itself through /app/app.js, the one script of the PSU
 * pages; without it a reload shows the same.
 */
import type { Consent } from "../domain/consent/model.js";
import type { DecoupledRequest } from "../domain/sca/decoupled.js";
import { awaitingItems } from "../domain/basket/decision.js";
import type { BasketView } from "../domain/basket/model.js";
import { type Html, html } from "../lib/html.js";
import { aboutLine, totalsText } from "./about.js";
import { groupedIban, money } from "./format.js";
import { debtorSection, page, payeeSection, type PageFrame } from "./views.js";

export const APP = "/app";

/** The app's manifest and icons, served by the bank (app.ts): installable, no third party. */
export const APP_MANIFEST = { href: `${APP}/manifest.webmanifest`, icon: `${APP}/icon-192.png` };
export const APP_ICON_SIZES = [192, 512] as const;

/** The web app manifest: opens full-screen (no browser bar) at the app, in the bank's colours. */
export function appManifest(bankName: string, lang: string): string {
  return JSON.stringify({
    name: `${bankName} app`, short_name: bankName, lang, start_url: APP, scope: `${APP}`,
    display: "standalone", background_color: "#f4f6fa", theme_color: "#0b4f8a",
    icons: APP_ICON_SIZES.map((size) => ({ src: `${APP}/icon-${size}.png`,
      sizes: `${size}x${size}`, type: "image/png", purpose: "any maskable" })),
  });
}

/** The accounts a consent names, each by its name where it is the PSU's, and its IBAN. */
function consentAccounts(frame: PageFrame, request: DecoupledRequest, consent: Consent): string {
  const a = consent.access;
  const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
  if (named.length === 0) return frame.t("app_consent_all");
  return named.map((reference) => {
    const known = request.review?.accounts.find((g) => g.reference === reference);
    const name = known?.name ?? known?.product;
    return name ? `${name} ${groupedIban(reference)}` : groupedIban(reference);
  }).join(", ");
}

/** What the PSU confirms where no payment's details say it (a consent, a basket). */
function requestText(frame: PageFrame, request: DecoupledRequest): string {
  const { resource, tppName: tpp } = request;
  if (resource.type === "basket") return basketText(frame, resource, tpp);
  if (resource.type !== "consent") return "";
  const accounts = consentAccounts(frame, request, resource.consent);
  return frame.t("app_consent", { tpp, accounts });
}

/** A basket: how many items, and its payments' totals (each listed on the TPP's side). */
function basketText(frame: PageFrame, resource: BasketView, tpp: string): string {
  const { payments, consents } = awaitingItems(resource);
  const count = String(payments.length + consents.length);
  return frame.t("app_basket", { tpp, count, total: totalsText(frame.lang, payments) });
}

/**
 * A payment as the review shows it: the amount as the headline, each payee with its IBAN and the
 * check of its name, the purpose, the account the money leaves and what it holds.
 */
function paymentDetails(frame: PageFrame, request: DecoupledRequest): Html {
  const { resource, review } = request;
  if (resource.type !== "payment") return html`<p>${requestText(frame, request)}</p>`;
  const p = resource.payment;
  const total = resource.entries.length > 0 ? totalsText(frame.lang, resource.entries)
    : money(p.amountMinor, p.currency, frame.lang);
  return html`<p class="headline">${total}</p><dl class="review">${
    payeeSection(frame, resource, review?.ownPayees ?? [], review?.flaggedPayees ?? [])}${
    debtorSection(frame, p, review?.debtor ?? null)}</dl>`;
}

/** m:ss, as the countdown shows it; app.js counts it down from here. */
const clockText = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

/** How long the request waits for the PSU: counted down by app.js, as rendered without it. */
function countdown(frame: PageFrame, request: DecoupledRequest): Html {
  const left = Math.max(0, request.secondsLeft);
  return html`<p class="expiry">${frame.t("app_time_left")} <span class="countdown" data-seconds="${
    String(left)}">${clockText(left)}</span></p>`;
}

function requestCard(frame: PageFrame, request: DecoupledRequest, index: number): Html {
  const id = request.authorisationId;
  const csrf = html`<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<input type="hidden" name="authorisation" value="${id}">`;
  const about = aboutLine({ ...frame, tppName: request.tppName }, request.resource);
  return html`<li class="card"><p class="about"><span class="hint">${frame.t("about_label")}</span>
<strong>${about}</strong></p>${paymentDetails(frame, request)}${countdown(frame, request)}
<form method="post" action="${APP}/approve">${csrf}
<label for="pin-${index}">${frame.t("app_pin_label")}</label>
<input id="pin-${index}" name="pin" type="password" inputmode="numeric" autocomplete="off"
 pattern="[0-9]{4,8}" maxlength="8" required>
<button type="submit">${frame.t("app_approve")}</button></form>
<form method="post" action="${APP}/reject" class="cancel">${csrf}
<button type="submit" class="secondary">${frame.t("app_reject")}</button></form></li>`;
}

/** The requests waiting, after `outcome`: what became of the one the PSU answered last. */
export function appPage(
  frame: PageFrame, requests: readonly DecoupledRequest[], outcome: Html = html``,
): string {
  const ids = requests.map((r) => r.authorisationId).join(",");
  const list = requests.length === 0 ? html`<p>${frame.t("app_none")}</p>`
    : html`<ul class="cards">${requests.map((r, i) => requestCard(frame, r, i))}</ul>`;
  return page(frame, html`${outcome}<h1>${frame.t("app_heading")}</h1>
<div id="requests" data-ids="${ids}">${list}</div>`);
}

export function appInactivePage(frame: PageFrame): string {
  return page(frame, html`<h1>${frame.t("app_title", { bank: frame.bankName })}</h1>
<p>${frame.t("app_not_activated", { bank: frame.bankName })}</p>
<p><a class="button" href="/dashboard">${frame.t("app_activate_link")}</a></p>`);
}

/**
 * Asks for the ids of the waiting requests every second and reloads the page when they change,
 * so a new request shows within two seconds without the PSU reloading; counts each request's
 * time left down from what the page says, on the phone's own clock (no skew with the bank's).
 */
export const APP_SCRIPT = `"use strict";
(() => {
  const loaded = Date.now();
  const clocks = [...document.querySelectorAll(".countdown")];
  const tick = () => {
    const gone = Math.floor((Date.now() - loaded) / 1000);
    for (const clock of clocks) {
      const left = Math.max(0, Number(clock.dataset.seconds) - gone);
      clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    }
    setTimeout(tick, 1000 - ((Date.now() - loaded) % 1000));
  };
  if (clocks.length > 0) tick();
  const list = document.getElementById("requests");
  if (!list) return;
  const shown = list.dataset.ids || "";
  // A reload after Confirm or Reject was sent would cancel that answer's page: the request leaves
  // the waiting list the moment the bank takes the answer, so a poll in flight sees it change.
  let answered = false;
  document.addEventListener("submit", () => { answered = true; });
  const poll = async () => {
    try {
      const answer = await fetch("${APP}/pending", { credentials: "same-origin" });
      const ids = answer.ok ? await answer.text() : shown;
      if (answered) return;
      if (ids !== shown) return location.replace(location.pathname);
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
})();
`;
