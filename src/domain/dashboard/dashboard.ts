/**
 * The PSU's own dashboard: after the same login as an authorisation (sca/dashboard-login.ts), the
 * PSU sees every consent it gave and every payment initiated through a TPP, and can revoke a
 * consent. A PSU only ever sees and revokes its own: every query is by the session's PSU.
 */
import { dateInZone } from "../../lib/clock.js";
import type { Tx } from "../kernel/ports.js";
import { moveConsent } from "../consent/transitions.js";
import type { Deps } from "../deps.js";
import { awaitsPsu } from "../payment/model.js";
import { signedBy } from "../signatures/signatures.js";
import { createDashboardLogin } from "../sca/dashboard-login.js";
import { createDecoupled } from "../sca/decoupled.js";
import type { TrustedPayee } from "../sca/ports.js";
import { createTrustedPayees } from "../exemptions/trusted-payees.js";
import type { AccountRight } from "../account-information/core-banking.js";
import {
  consentsOf, holdingsOf, ordersOf, withdrawOrder, type HeldAccount, type HeldCard,
  type ListedConsent, type ListedOrder, type ListedPayment, type Listing,
} from "./permissions.js";
import { reportFraud as reportFraudAs, type ReportOutcome } from "../fraud/signals.js";

/** How many of each the dashboard lists, newest first. */
const LISTED = 200;

export interface Overview {
  /** The PSU's own accounts with their balances, then its cards (PSR dashboard, issue 36). */
  accounts: HeldAccount[];
  cards: HeldCard[];
  /**
   * Consents within the history (PERMISSION_HISTORY_DAYS); givenOn: the day the PSU authorised
   * it, in the bank's time zone.
   */
  consents: ListedConsent[];
  /** date: the day the TPP initiated it, in the bank's time zone. */
  payments: ListedPayment[];
  /** Of `payments`, the standing orders within the history, each a permission to pay again. */
  orders: ListedOrder[];
  /** PERMISSION_HISTORY_DAYS: how long an ended permission stays listed. */
  historyDays: number;
  /** The PSU's bank apps (decoupled approach), each with the day it was activated. */
  apps: { id: string; activatedOn: string }[];
  /** The PSU's trusted payees (RTS art. 13); null when the bank does not apply art. 13. */
  trustedPayees: TrustedPayee[] | null;
  /** The IBANs the PSU holds or acts on: a payment to one of them has no payee to check. */
  ownIbans: string[];
  /** Payments from a company's account that still need this user's signature (multi-level). */
  awaitingSignature: Overview["payments"];
}

/** Of `payments`, those from an account the PSU signs for that it has not signed yet. */
async function awaitingSignatureOf(
  deps: Deps, tx: Tx, psuId: string, payments: Overview["payments"],
  mandated: readonly { iban: string; right: AccountRight }[],
): Promise<Overview["payments"]> {
  const signs = new Set(mandated.filter((a) => a.right === "signer").map((a) => a.iban));
  const open = payments.filter((p) => awaitsPsu(p.status) && (p.signaturesRequired ?? 1) > 1
    && signs.has(p.debtorAccount.iban));
  const signed = await Promise.all(open.map((p) => signedBy(deps, tx, p.id, psuId)));
  return open.filter((_, i) => !signed[i]);
}

/** Everything the PSU holds, gave or started through TPPs; never another PSU's. */
async function overviewOf(deps: Deps, listing: Listing, psuId: string): Promise<Overview> {
  const { store, settings } = deps;
  const { day, tppName } = listing;
  return store.transaction(async (tx) => {
    const mandated = await deps.core.listMandatedAccounts(tx, psuId);
    const own = [...await deps.core.listAccountsOfPsu(tx, psuId), ...mandated]
      .map((a) => a.iban);
    const payments = await Promise.all((await store.payments.ofPsu(tx, psuId, own, LISTED))
      .map(async (p) => ({ ...p, tppName: await tppName(tx, p.tppId), date: day(p.createdAt) })));
    return {
      ...(await holdingsOf(deps, tx, psuId)),
      consents: await consentsOf(deps, tx, psuId, listing, LISTED),
      orders: await ordersOf(deps, tx, payments, listing),
      payments, ownIbans: own, historyDays: listing.historyDays,
      awaitingSignature: await awaitingSignatureOf(deps, tx, psuId, payments, mandated),
      apps: (await store.psuApps.listOf(tx, psuId))
        .map((a) => ({ id: a.id, activatedOn: day(a.createdAt) })),
      trustedPayees: settings.exemptions?.trustedPayees
        ? await store.exemptions.trustedPayees(tx, psuId) : null,
    };
  });
}

export type { DashboardView } from "../sca/dashboard-login.js";

/**
 * The PSU reports one of the payments its overview lists as fraud (PSR art. 83, proposal);
 * another PSU's payment is refused as an unknown one, as is any without a logged-in PSU.
 */
async function reportListedPayment(
  deps: Deps, dashboard: Pick<ReturnType<typeof createDashboardLogin>, "view">
    & { overview(psuId: string): Promise<Overview> },
  secret: string | undefined, paymentId: string,
): Promise<ReportOutcome | "unknown"> {
  const view = await dashboard.view(secret);
  const psuId = view?.session.step === "dashboard" ? view.session.psuId : null;
  const payment = psuId
    ? (await dashboard.overview(psuId)).payments.find((p) => p.id === paymentId) : undefined;
  if (!psuId || !payment) return "unknown";
  return deps.store.transaction((tx) => reportFraudAs(deps, tx, payment, psuId));
}

/** historyDays: PERMISSION_HISTORY_DAYS, how long an ended permission stays listed. */
export function createPsuDashboard(deps: Deps, historyDays: number) {
  const { store, clock, settings } = deps;
  const login = createDashboardLogin(deps);
  const decoupled = createDecoupled(deps);
  const nowIso = () => clock.now().toISOString();
  const listing: Listing = {
    day: (iso) => dateInZone(new Date(iso), settings.timeZone),
    tppName: async (tx, tppId) => (await store.tpps.name(tx, tppId)) ?? tppId,
    historyDays,
  };
  const overview = (psuId: string) => overviewOf(deps, listing, psuId);

  /**
   * valid → revokedByPsu for one of the PSU's own consents; the TPP's next call with it fails.
   * Another PSU's consent, an unknown id and an ended consent are refused alike.
   */
  async function revoke(secret: string | undefined, consentId: string): Promise<boolean> {
    const result = await login.asPsu(secret, async (tx, psuId) => {
      const consent = await store.consents.find(tx, consentId);
      const revoked = consent !== undefined && consent.psuId === psuId
        && (await moveConsent(deps, tx, consent.id, "revoke", { at: nowIso() }));
      return revoked ? { ok: true, secret: secret ?? "" } : { ok: false, problem: "wrong_step" };
    });
    return result.ok;
  }

  /** Stops one of the PSU's standing orders a TPP initiated (permissions.ts). */
  async function withdraw(secret: string | undefined, paymentId: string): Promise<boolean> {
    const result = await login.asPsu(secret, async (tx, psuId) =>
      (await withdrawOrder(deps, tx, psuId, paymentId))
        ? { ok: true, secret: secret ?? "" } : { ok: false, problem: "wrong_step" });
    return result.ok;
  }

  /** Binds the bank app on the PSU's device; the app's secret, or undefined if not logged in. */
  async function activateApp(secret: string | undefined, pin: string) {
    const view = await login.view(secret);
    const psuId = view?.session.step === "dashboard" ? view.session.psuId : null;
    return psuId ? decoupled.activate(psuId, pin) : undefined;
  }

  /** Unbinds one of the PSU's own apps; another PSU's or an unknown one is refused alike. */
  async function revokeApp(secret: string | undefined, appId: string): Promise<boolean> {
    const result = await login.asPsu(secret, async (tx, psuId) =>
      (await store.psuApps.revoke(tx, appId, psuId, nowIso()))
        ? { ok: true, secret: secret ?? "" } : { ok: false, problem: "wrong_step" });
    return result.ok;
  }

  const trustedPayees = createTrustedPayees(deps, login.asPsu);
  const reportFraud = (secret: string | undefined, paymentId: string) =>
    reportListedPayment(deps, { ...login, overview }, secret, paymentId);
  return {
    ...login, overview, revoke, withdrawOrder: withdraw, activateApp, revokeApp, trustedPayees,
    reportFraud,
  };
}

export type PsuDashboard = ReturnType<typeof createPsuDashboard>;
