/**
 * The demo TPP's budgeting view, as a real aggregator shows it: every account and card the PSU
 * shared, balances under the names people know, and all booked transactions of the period,
 * newest first, read page by page along the bank's `next` links.
 */
import { addDays } from "../lib/clock.js";
import { Html, html } from "../lib/html.js";
import type { Xs2aClient } from "./xs2a-client.js";

/**
 * The first day of the budget's period: today by UTC's calendar and the 89 days before it. The bank
 * counts the 90 days of history open without a fresh SCA (RTS art. 10a) from its own date, up to
 * a day ahead of UTC's (Europe/Berlin's after 23:00 UTC): a step of 90 days back from UTC's date
 * was then a day too old, and a PSU exempted from SCA was refused PERIOD_INVALID.
 */
export function budgetDateFrom(now: Date): string {
  return addDays(now.toISOString().slice(0, 10), -89);
}

interface Amount { amount: string; currency: string }
interface Balance { balanceType: string; balanceAmount: Amount }
/** A link as a plain string (the spec's dialect) or as Berlin Group's {"href"}. */
export type Link = string | { href?: string } | null | undefined;

export interface Account {
  resourceId: string; iban: string; currency: string; name?: string | null;
  product?: string | null; balances?: Balance[] | null;
}
export interface CardAccount {
  resourceId: string; maskedPan: string; currency: string; name?: string | null;
  product?: string | null; balances?: Balance[] | null;
}
interface Entry { date: string; who: string; amount: Amount }
interface Report<T> { booked?: T[] | null; _links?: { next?: Link } | null }
interface Transaction {
  bookingDate?: string; transactionAmount: Amount;
  remittanceInformationUnstructured?: string | null;
  creditorName?: string | null; debtorName?: string | null;
}
interface CardTransaction {
  bookingDate?: string | null; transactionDate?: string | null; transactionAmount: Amount;
  transactionDetails?: string | null;
}

/** Berlin Group's balance types in the words of a bank statement. */
const BALANCE_NAMES: Record<string, string> = {
  closingBooked: "Booked balance",
  expected: "Balance incl. pending",
  interimAvailable: "Available now",
  interimBooked: "Booked today",
  openingBooked: "Opening balance",
  forwardAvailable: "Available later",
  nonInvoiced: "Not yet invoiced",
};

/** A bank that keeps answering `next` is not followed for ever. */
const PAGES_MAX = 50;

export const hrefOf = (link: Link) => (typeof link === "string" ? link : link?.href) ?? undefined;

/** Every booked entry of the report, following `next` from page to page. */
async function allBooked<T>(bank: Xs2aClient, first: string, headers: Record<string, string>,
  reportOf: (body: unknown) => Report<T> | undefined): Promise<T[] | string> {
  const entries: T[] = [];
  let path: string | undefined = first;
  for (let page = 0; path && page < PAGES_MAX; page += 1) {
    const found = await bank.get(path, headers);
    const report = found.status === 200 ? reportOf(found.body) : undefined;
    if (!report) return `Transactions not available (the bank answered ${found.status}).`;
    entries.push(...(report.booked ?? []));
    path = hrefOf(report._links?.next);
  }
  return entries;
}

/** Newest first; the bank lists in booking order, so a day's later entries come first too. */
const newestFirst = (entries: Entry[]) =>
  entries.map((e, i) => ({ e, i })).sort((a, b) => b.e.date.localeCompare(a.e.date) || b.i - a.i)
    .map(({ e }) => e);

function card(title: string, reference: string, balances: Balance[] | null | undefined,
  entries: Entry[] | string): Html {
  const items = (balances ?? []).map((b) => html`<li>${
    BALANCE_NAMES[b.balanceType] ?? b.balanceType}:
 <strong>${b.balanceAmount.amount} ${b.balanceAmount.currency}</strong></li>`);
  const rows = typeof entries === "string" ? html`<p>${entries}</p>`
    : html`<p>${entries.length} booked transactions, newest first.</p>
<table><tr><th>Date</th><th>Who / what</th><th class="amount">Amount</th></tr>${newestFirst(entries)
    .map((e) => html`<tr><td>${e.date}</td><td>${e.who}</td>
<td class="amount">${e.amount.amount} ${e.amount.currency}</td></tr>`)}</table>`;
  return html`<section class="card"><h2>${title}</h2><p><code>${reference}</code></p>
<ul>${items}</ul>${rows}</section>`;
}

const fromAccount = (t: Transaction): Entry => ({
  date: t.bookingDate ?? "",
  who: [t.creditorName ?? t.debtorName, t.remittanceInformationUnstructured]
    .filter(Boolean).join(" · "),
  amount: t.transactionAmount,
});

const fromCard = (t: CardTransaction): Entry => ({
  date: t.bookingDate ?? t.transactionDate ?? "", who: t.transactionDetails ?? "",
  amount: t.transactionAmount,
});

export async function accountCard(bank: Xs2aClient, api: string, account: Account,
  query: string, headers: Record<string, string>): Promise<Html> {
  const booked = await allBooked<Transaction>(bank,
    `${api}/accounts/${account.resourceId}/transactions?${query}`, headers,
    (body) => (body as { transactions?: Report<Transaction> }).transactions);
  return card(account.name ?? account.product ?? "Account", account.iban, account.balances,
    typeof booked === "string" ? booked : booked.map(fromAccount));
}

export async function cardAccountCard(bank: Xs2aClient, api: string, account: CardAccount,
  query: string, headers: Record<string, string>): Promise<Html> {
  const booked = await allBooked<CardTransaction>(bank,
    `${api}/card-accounts/${account.resourceId}/transactions?${query}`, headers,
    (body) => (body as { cardTransactions?: Report<CardTransaction> }).cardTransactions);
  return card(`${account.name ?? account.product ?? "Card"} (card)`, account.maskedPan,
    account.balances, typeof booked === "string" ? booked : booked.map(fromCard));
}
