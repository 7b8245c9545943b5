/**
 * The operator's view of payments and consents across all TPPs: find by TPP, PSU or account,
 * and show one with its authorisations and its history from the audit log; and revoke a consent
 * on the PSU's request (the PSU's own way to withdraw it, RTS: revokedByPsu).
 */
import { systemClock, type Clock } from "../../lib/clock.js";
import { formatAmount } from "../../lib/money.js";
import type { AuditEntry } from "../kernel/ports.js";
import type { StorePort as Store } from "../deps.js";
import type { CoreBanking } from "../account-information/core-banking.js";
import { moveConsent } from "../consent/transitions.js";
import { fraudRatePpm, traLimitMinor } from "../exemptions/payments.js";
import { exemptionReason } from "../exemptions/audit.js";
import { OperatorError } from "../kernel/errors.js";
import { isFlagged, reportFraud } from "../fraud/signals.js";
import type { Payment } from "../payment/model.js";

export interface ResourceFilter { tpp?: string; psu?: string; account?: string; limit?: number }

export interface PaymentRow { id: string; tpp: string; psu: string | null; status: string;
  amount: string; currency: string; debtorIban: string; creditorIban: string;
  creditorName: string; createdAt: string;
  /** Verification of Payee: outcome, the held name of a close match, a confirmation anyway. */
  vopResult: string | null; vopMatchedName: string | null; vopOverriddenAt: string | null;
  /** How the PSU authorised it: SCA, or the exemption that spared the second factor. */
  secondFactor: string }

export interface ConsentRow { id: string; tpp: string; psu: string | null; status: string;
  validUntil: string; frequencyPerDay: number; recurring: boolean; accounts: string[];
  createdAt: string }

export interface AuthorisationRow { id: string; scaStatus: string; psu: string | null;
  createdAt: string; updatedAt: string; exemption: string | null }

/**
 * A PSU's report of fraud on a payment, what it makes of the bank's fraud rate, and whether its
 * payee is flagged now.
 */
export interface FraudReport { paymentId: string; fraudRatePpm: string; traLimit: string;
  payeeIban: string; payeeFlagged: boolean }

export interface Shown<T> { resource: T; authorisations: AuthorisationRow[]; history: AuditEntry[] }

const LIMIT_MAX = 1000;

interface ResourceDeps { store: Store; core: CoreBanking; clock?: Clock }

/** Why the PSU gave no second factor (the exemption's article), or that it gave one. */
async function secondFactorOf(store: Store, paymentId: string, recurring: boolean) {
  const all = await store.sca.authorisationsOf(store.db, paymentId);
  const done = all.find((a) => a.resourceType === "payment"
    && (a.scaStatus === "finalised" || a.scaStatus === "exempted"));
  const later = recurring
    ? `; each execution after the first: none, exempted under ${exemptionReason("14")}` : "";
  if (!done) return `not given yet${later}`;
  if (!done.exemption) return `given (SCA: password and code)${later}`;
  return `none: exempted under ${exemptionReason(done.exemption)}, password only`;
}

/** The PSU who authorised a payment (a bulk's payment: the bulk's), null before anyone did. */
async function authorisingPsu(store: Store, payment: Payment): Promise<string | null> {
  if (payment.psuId !== null || payment.bulkId === null) return payment.psuId;
  return (await store.payments.find(store.db, payment.bulkId))?.psuId ?? null;
}

/**
 * The PSU reports an executed payment as fraud. RTS art. 18: the bank's fraud rate (last 90
 * days) and the amount up to which transaction risk analysis may exempt follow from it; PSR
 * art. 83 (proposal): its payee's IBAN is flagged once two PSUs reported it.
 */
async function reportFraudOf(
  { store, clock }: { store: Store; clock: Clock }, id: string,
): Promise<FraudReport> {
  const payment = await store.payments.find(store.db, id);
  if (!payment) throw new OperatorError(`No payment with the id ${id}.`, "id");
  const psuId = await authorisingPsu(store, payment);
  const outcome = psuId === null ? "not_executed"
    : await reportFraud({ store, clock }, store.db, payment, psuId);
  if (outcome === "not_executed") {
    throw new OperatorError(
      `Only an executed payment can be reported as fraud; this one is ${payment.status}.`, "id");
  }
  if (outcome === "already_reported") {
    throw new OperatorError(`The payment ${id} was reported as fraud already.`, "id");
  }
  const rate = await fraudRatePpm({ store, clock }, store.db);
  const limit = await traLimitMinor({ store, clock }, store.db);
  const payeeIban = payment.creditorAccount.iban;
  return { paymentId: id, fraudRatePpm: rate.toString(),
    traLimit: `${formatAmount(limit, "EUR")} EUR`, payeeIban,
    payeeFlagged: await isFlagged({ store }, store.db, payeeIban) };
}

/** Payments and consents as rows, PSUs by their login (looked up once per PSU). */
function createRows({ store, core }: ResourceDeps) {
  const logins = new Map<string, string>();
  async function login(psuId: string | null): Promise<string | null> {
    if (psuId === null) return null;
    if (!logins.has(psuId)) {
      logins.set(psuId, (await store.psus.find(store.db, psuId))?.login ?? psuId);
    }
    return logins.get(psuId) ?? null;
  }

  async function show<T>(id: string, resource: T | undefined, what: string): Promise<Shown<T>> {
    if (resource === undefined) throw new OperatorError(`No ${what} with the id ${id}.`, "id");
    const all = await store.sca.authorisationsOf(store.db, id);
    const authorisations = await Promise.all(all.map(async (a) => ({
      id: a.id, scaStatus: a.scaStatus, psu: await login(a.psuId), createdAt: a.createdAt,
      updatedAt: a.updatedAt, exemption: a.exemption ? exemptionReason(a.exemption) : null,
    })));
    const history = (await store.audit.query(store.db, { resourceId: id, limit: LIMIT_MAX }))
      .reverse();
    return { resource, authorisations, history };
  }

  async function paymentRow(id: string): Promise<PaymentRow | undefined> {
    const p = await store.payments.find(store.db, id);
    return p && {
      id: p.id, tpp: p.tppId, psu: await login(p.psuId), status: p.status,
      amount: formatAmount(p.amountMinor, p.currency),
      currency: p.currency, debtorIban: p.debtorAccount.iban, creditorIban: p.creditorAccount.iban,
      creditorName: p.creditorName, createdAt: p.createdAt, vopResult: p.vop?.result ?? null,
      vopMatchedName: p.vop?.matchedName ?? null, vopOverriddenAt: p.vopOverriddenAt,
      secondFactor: await secondFactorOf(store, p.id, p.standingOrder !== null),
    };
  }

  async function consentRow(id: string): Promise<ConsentRow | undefined> {
    const c = await store.consents.find(store.db, id);
    if (!c) return undefined;
    const granted = await store.consents.grantedAccounts(store.db, c.id);
    const accounts = await Promise.all(granted.map(async (g) => {
      const name = (await core.getAccount(store.db, g.accountId))?.iban
        ?? (await core.getCardAccount(store.db, g.accountId))?.maskedPan ?? g.accountId;
      return `${name}${g.balances ? " +balances" : ""}${g.transactions ? " +transactions" : ""}`;
    }));
    return {
      id: c.id, tpp: c.tppId, psu: await login(c.psuId), status: c.status, validUntil: c.validUntil,
      frequencyPerDay: c.frequencyPerDay, recurring: c.recurringIndicator, accounts,
      createdAt: c.createdAt,
    };
  }

  return { show, paymentRow, consentRow };
}

export function createResourceQueries(deps: ResourceDeps) {
  const { store, core, clock = systemClock } = deps;
  const { show, paymentRow, consentRow } = createRows(deps);

  async function criteria(filter: ResourceFilter) {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) {
      throw new OperatorError(`limit must be between 1 and ${LIMIT_MAX}.`, "limit");
    }
    let psuId: string | undefined;
    if (filter.psu !== undefined) {
      psuId = (await store.psus.findByLogin(store.db, filter.psu))?.id;
      if (!psuId) throw new OperatorError(`No PSU with the login "${filter.psu}".`, "psu");
    }
    return { tppId: filter.tpp, psuId, limit };
  }

  return {
    async findPayments(filter: ResourceFilter): Promise<PaymentRow[]> {
      const found = await store.payments.search(store.db, {
        ...await criteria(filter), iban: filter.account,
      });
      return (await Promise.all(found.map((p) => paymentRow(p.id)))).flatMap((r) => r ?? []);
    },

    async findConsents(filter: ResourceFilter): Promise<ConsentRow[]> {
      let accountId: string | undefined;
      if (filter.account !== undefined) {
        accountId = (await core.findAccountByIban(store.db, filter.account))?.id;
        if (!accountId) {
          throw new OperatorError(`No account with the IBAN ${filter.account}.`, "account");
        }
      }
      const found = await store.consents.search(store.db, { ...await criteria(filter), accountId });
      return (await Promise.all(found.map((c) => consentRow(c.id)))).flatMap((r) => r ?? []);
    },

    showPayment: async (id: string) => show(id, await paymentRow(id), "payment"),
    reportFraud: (id: string) => reportFraudOf({ store, clock }, id),
    showConsent: async (id: string) => show(id, await consentRow(id), "consent"),

    /** valid → revokedByPsu; the TPP's next read is refused. Throws for any other status. */
    async revokeConsent(id: string): Promise<ConsentRow> {
      const consent = await store.consents.find(store.db, id);
      if (!consent) throw new OperatorError(`No consent with the id ${id}.`, "id");
      const at = clock.now().toISOString();
      if (!(await moveConsent({ store }, store.db, id, "revoke", { at }))) {
        throw new OperatorError(
          `Only a valid consent can be revoked; this one is ${consent.status}.`, "id");
      }
      return (await show(id, await consentRow(id), "consent")).resource;
    },
  };
}

export type ResourceQueries = ReturnType<typeof createResourceQueries>;
