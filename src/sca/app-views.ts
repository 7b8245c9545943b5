/**
 * The bank app's pages (decoupled approach): the requests waiting for the PSU, each with what
 * dynamic linking requires (amount and payee, or the TPP and the accounts), confirmed with the
 * app PIN or rejected. The list refreshes itself through /app/app.js, the one script of the PSU
 * pages; without it a reload shows the same.
 */
import type { DecoupledRequest } from "../domain/sca/decoupled.js";
import { awaitingItems } from "../domain/basket/decision.js";
import type { BasketView } from "../domain/basket/model.js";
import { Html, html } from "../lib/html.js";
import { totalsText } from "./about.js";
import { groupedIban, money } from "./format.js";
import { page, type PageFrame } from "./views.js";

export const APP = "/app";

/** What the PSU confirms, in one sentence. */
function requestText(frame: PageFrame, request: DecoupledRequest): string {
  const { resource, tppName: tpp } = request;
  if (resource.type === "basket") return basketText(frame, resource, tpp);
  if (resource.type === "consent") {
    const a = resource.consent.access;
    const named = [...new Set([...a.accounts, ...a.balances, ...a.transactions])];
    const accounts = named.length > 0 ? named.map(groupedIban).join(", ")
      : frame.t("app_consent_all");
    return frame.t("app_consent", { tpp, accounts });
  }
  const p = resource.payment;
  const amount = money(p.amountMinor, p.currency, frame.lang);
  if (resource.cancellation) {
    return frame.t("app_cancellation", { tpp, amount, payee: p.creditorName });
  }
  return frame.t("app_payment",
    { tpp, amount, payee: p.creditorName, iban: groupedIban(p.creditorAccount.iban) });
}

/** A basket: how many items, and its payments' totals (each listed on the TPP's side). */
function basketText(frame: PageFrame, resource: BasketView, tpp: string): string {
  const { payments, consents } = awaitingItems(resource);
  const count = String(payments.length + consents.length);
  return frame.t("app_basket", { tpp, count, total: totalsText(frame.lang, payments) });
}

function requestCard(frame: PageFrame, request: DecoupledRequest, index: number): Html {
  const id = request.authorisationId;
  const csrf = html`<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">
<input type="hidden" name="authorisation" value="${id}">`;
  return html`<li class="card"><p>${requestText(frame, request)}</p>
<form method="post" action="${APP}/approve">${csrf}
<label for="pin-${index}">${frame.t("app_pin_label")}</label>
<input id="pin-${index}" name="pin" type="password" inputmode="numeric" autocomplete="off"
 pattern="[0-9]{4,8}" maxlength="8" required>
<button type="submit">${frame.t("app_approve")}</button></form>
<form method="post" action="${APP}/reject" class="cancel">${csrf}
<button type="submit" class="secondary">${frame.t("app_reject")}</button></form></li>`;
}

export function appPage(frame: PageFrame, requests: readonly DecoupledRequest[]): string {
  const ids = requests.map((r) => r.authorisationId).join(",");
  const list = requests.length === 0 ? html`<p>${frame.t("app_none")}</p>`
    : html`<ul class="cards">${requests.map((r, i) => requestCard(frame, r, i))}</ul>`;
  return page(frame, html`<h1>${frame.t("app_heading")}</h1>
<div id="requests" data-ids="${ids}">${list}</div>`);
}

export function appInactivePage(frame: PageFrame): string {
  return page(frame, html`<h1>${frame.t("app_title", { bank: frame.bankName })}</h1>
<p>${frame.t("app_not_activated", { bank: frame.bankName })}</p>
<p><a class="button" href="/dashboard">${frame.t("app_activate_link")}</a></p>`);
}

/**
 * Asks for the ids of the waiting requests every second and reloads the page when they change,
 * so a new request shows within two seconds without the PSU reloading.
 */
export const APP_SCRIPT = `"use strict";
(() => {
  const list = document.getElementById("requests");
  if (!list) return;
  const shown = list.dataset.ids || "";
  const poll = async () => {
    try {
      const answer = await fetch("${APP}/pending", { credentials: "same-origin" });
      if (answer.ok && (await answer.text()) !== shown) return location.replace(location.pathname);
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
})();
`;
