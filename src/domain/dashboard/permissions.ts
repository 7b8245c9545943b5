/**
 * The PSU's permissions as PSR art. 43 of the Commission's proposal COM(2023) 367 lists them:
 * every consent given through a provider and every standing order a provider initiated, with the
 * purpose the provider declared, and a history of those that ended (withdrawn, expired, replaced,
 * refused) for PERMISSION_HISTORY_DAYS; the retention job deletes ended consents after that.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps, StoreDeps } from "../deps.js";
import { ENDED_CONSENT } from "../consent/transitions.js";
import type { Consent } from "../consent/model.js";
import { detailsOf, type ConsentDetails } from "../consent/registration.js";
import type { Payment, TransactionStatus } from "../payment/model.js";
import { movePayment } from "../payment/transitions.js";

/** A standing order's reason when the PSU withdrew it on the dashboard. */
export const WITHDRAWN_BY_PSU = "withdrawn_by_psu";

/** A standing order's statuses after which it runs no more. */
const ENDED_ORDER: readonly TransactionStatus[] = ["CANC", "RJCT", "ACSC", "ACCC"];

export const isStandingOrder = (p: Pick<Payment, "service">) => p.service === "periodic-payments";

/** When a permission ended (its last change, no event leaves an ended status), else null. */
export function endedAt(p: Pick<Consent | Payment, "status" | "updatedAt">): string | null {
  const ended = (ENDED_CONSENT as readonly string[]).includes(p.status)
    || (ENDED_ORDER as readonly string[]).includes(p.status);
  return ended ? p.updatedAt : null;
}

/** Still listed: running, or ended within the history's days before `now`. */
function inHistory(
  p: Pick<Consent | Payment, "status" | "updatedAt">, now: Date, days: number,
): boolean {
  const ended = endedAt(p);
  return ended === null || Date.parse(ended) >= now.getTime() - days * 86_400_000;
}

export interface HeldAccount {
  iban: string; name: string | null; product: string | null; currency: string;
  /** The interim available balance; null where the core has none. */
  balance: bigint | null;
}

export interface HeldCard {
  maskedPan: string; name: string | null; product: string | null; currency: string;
  balance: bigint | null;
}

/** The PSU's own accounts, then its cards, each with its available balance. */
export async function holdingsOf(deps: Deps, tx: Tx, psuId: string) {
  const { core } = deps;
  const accounts: HeldAccount[] = await Promise.all(
    (await core.listAccountsOfPsu(tx, psuId)).filter((a) => a.status !== "deleted")
      .map(async (a) => ({ iban: a.iban, name: a.name, product: a.product, currency: a.currency,
        balance: (await core.availableBalance(tx, a.id)) ?? null })));
  const cards: HeldCard[] = await Promise.all(
    (await core.listCardAccountsOfPsu(tx, psuId)).filter((c) => c.status !== "deleted")
      .map(async (c) => {
        const balances = await core.cardBalances(tx, c.id);
        const shown = balances.find((b) => b.balanceType === "interimAvailable") ?? balances[0];
        return { maskedPan: c.maskedPan, name: c.name, product: c.product,
          currency: c.currency, balance: shown?.amountMinor ?? null };
      }));
  return { accounts, cards };
}

/** What every permission carries: the purpose its provider declared (null: none), when it ended. */
export interface PermissionFacts { purpose: string | null; endedOn: string | null }

/** A payment as the dashboard lists it: with its provider's name and the day it was initiated. */
export type ListedPayment = Payment & { tppName: string; date: string };
export type ListedConsent =
  ConsentDetails & PermissionFacts & { tppName: string; givenOn: string | null };
export type ListedOrder = ListedPayment & PermissionFacts;

/** How the dashboard lists: days in the bank's time zone, providers by name, the history's days. */
export interface Listing {
  day(iso: string): string;
  tppName(tx: Tx, tppId: string): Promise<string>;
  historyDays: number;
}

const endedDay = (listing: Listing, p: Pick<Consent | Payment, "status" | "updatedAt">) => {
  const at = endedAt(p);
  return at && listing.day(at);
};

/** The PSU's consents within the history (newest first, up to `limit`), with purpose and end. */
export async function consentsOf(
  deps: Deps, tx: Tx, psuId: string, listing: Listing, limit: number,
): Promise<ListedConsent[]> {
  const now = deps.clock.now();
  const consents = (await deps.store.consents.search(tx, { psuId, limit }))
    .filter((c) => inHistory(c, now, listing.historyDays));
  const purposes = await deps.store.permissions.purposes(tx, consents.map((c) => c.id));
  return Promise.all(consents.map(async (c) => ({
    ...(await detailsOf(deps, tx, c)), tppName: await listing.tppName(tx, c.tppId),
    givenOn: c.authorisedAt && listing.day(c.authorisedAt), purpose: purposes.get(c.id) ?? null,
    endedOn: endedDay(listing, c) })));
}

/** Of the PSU's payments, the standing orders within the history, with purpose and end. */
export async function ordersOf(
  deps: Deps, tx: Tx, payments: readonly ListedPayment[], listing: Listing,
): Promise<ListedOrder[]> {
  const now = deps.clock.now();
  const orders = payments.filter((p) => isStandingOrder(p)
    && inHistory(p, now, listing.historyDays));
  const purposes = await deps.store.permissions.purposes(tx, orders.map((p) => p.id));
  return orders.map((p) => ({ ...p, purpose: purposes.get(p.id) ?? null,
    endedOn: endedDay(listing, p) }));
}

/**
 * ACTC → CANC for a standing order a TPP initiated from one of the PSU's accounts: no further
 * executions, and the TPP is notified where it subscribed. Anything else is refused alike.
 */
export async function withdrawOrder(
  deps: Deps, tx: Tx, psuId: string, paymentId: string,
): Promise<boolean> {
  const payment = await deps.store.payments.find(tx, paymentId);
  if (payment === undefined || !isStandingOrder(payment)) return false;
  const own = (await deps.core.listAccountsOfPsu(tx, psuId)).map((a) => a.iban);
  if (payment.psuId !== psuId && !own.includes(payment.debtorAccount.iban)) return false;
  return movePayment(deps, tx, payment, "withdraw",
    { at: deps.clock.now().toISOString(), reason: WITHDRAWN_BY_PSU, psuId });
}

/**
 * The history's end: consents ended more than PERMISSION_HISTORY_DAYS ago are deleted, with
 * all that hangs on them, in one transaction. A standing order leaves the history by the same
 * date but stays a payment: the bank keeps its payments under its own bookkeeping rules.
 */
export function createPermissionHistory(
  { store, clock }: StoreDeps<"permissions" | "transaction", "clock">, historyDays: number,
) {
  return {
    purge(): Promise<number> {
      const before = new Date(clock.now().getTime() - historyDays * 86_400_000).toISOString();
      return store.transaction((tx) => store.permissions.purgeConsents(tx, ENDED_CONSENT, before));
    },
  };
}
