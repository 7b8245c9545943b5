/**
 * A payment, and the cancellation of an authorised one, as subjects of the PSU's SCA
 * (sca/subject.ts): a bulk is reviewed payment by payment and its code binds its total; a
 * payment past its SCA timeout is refused as it is loaded.
 */
import { dateInZone } from "../../lib/clock.js";
import { totalsOf } from "../../lib/money.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps, SubjectType } from "../deps.js";
import { sha256 } from "../sca/factors.js";
import { holderOf } from "../sca/holding.js";
import type { Authorisation } from "../sca/model.js";
import type { SmsAccount, SmsSubject } from "../sca/ports.js";
import type { DebtorOverview, ReceiptAccount, Review, ScaSubject } from "../sca/subject.js";
import { decideCancellation, decidePayment, paymentProblem, signingProblem } from "./decision.js";
import { paymentExemption } from "../exemptions/payments.js";
import { rejectIfScaExpired, SCA_EXPIRED } from "./expiry.js";
import { awaitsPsu, type Payment } from "./model.js";
import { ownAccountTransfers } from "./payee-check.js";
import { flaggedPayments } from "../fraud/signals.js";
import { movePayment } from "./transitions.js";

/** A payment (or its cancellation) as the pages show it; a bulk with its entries. */
export interface PaymentView {
  type: "payment"; payment: Payment; cancellation: boolean; entries: Payment[];
  /** The signing basket that holds it, if one does: then only the basket is authorised. */
  heldBy?: string;
}

declare module "../sca/subject.js" {
  interface SubjectViews { payment: PaymentView }
}

/** The amounts of some payments, one per currency, as an SMS names them. */
export const amountsOf = (payments: readonly Payment[]) => totalsOf(payments)
  .map(([currency, amountMinor]) => ({ currency, amountMinor }));

/** The dynamic link of RTS art. 5: a code is bound to exactly this amount and payee. */
const payeeLink = (p: Payment) =>
  `${p.id}|${p.amountMinor}|${p.currency}|${p.creditorAccount.iban}|${p.creditorName}`;

/** The account a payment leaves, as an SMS names it: the PSU's name for it, else the product. */
async function smsAccount({ core }: Deps, tx: Tx, p: Payment): Promise<SmsAccount> {
  const account = await core.findAccountByIban(tx, p.debtorAccount.iban);
  return { name: account?.name ?? account?.product ?? null, iban: p.debtorAccount.iban };
}

/** The SMS of a payment's code (a bulk's: its total), or of its cancellation's. */
async function smsOf(
  deps: Deps, tx: Tx, kind: "payment" | "cancellation", view: PaymentView,
): Promise<SmsSubject> {
  const { payment: p, entries } = view;
  const from = await smsAccount(deps, tx, p);
  if (kind === "payment" && entries.length > 0) {
    return { kind: "bulk", totals: amountsOf(entries), payees: entries.length, from };
  }
  return { kind, amount: { amountMinor: p.amountMinor, currency: p.currency },
    payee: p.creditorName, iban: p.creditorAccount.iban, from };
}

/**
 * The account a decided payment left, for its receipt; the balance after the booking once the
 * core booked it under the payment's id (a bulk books each entry: none).
 */
async function receiptAccount(
  { core }: Deps, tx: Tx, view: PaymentView,
): Promise<ReceiptAccount | null> {
  const p = view.payment;
  const account = await core.findAccountByIban(tx, p.debtorAccount.iban);
  if (!account) return null;
  const booked = view.entries.length === 0 ? await core.bookingOf(tx, account.id, p.id) : undefined;
  return { name: account.name, product: account.product, currency: account.currency,
    balanceAfterMinor: booked?.balanceAfterMinor ?? null };
}

/** The payment as the PSU's online banking shows its debtor account. */
async function debtorOverview(
  { core }: Deps, tx: Tx, p: Payment, cancellation: boolean,
): Promise<DebtorOverview | null> {
  const account = await core.findAccountByIban(tx, p.debtorAccount.iban);
  const available = account && (await core.availableBalance(tx, account.id));
  const spendable = account && (await core.spendableBalance(tx, account.id));
  if (!account || available === undefined || spendable === undefined) return null;
  return {
    name: account.name, product: account.product, availableMinor: available,
    currency: account.currency, short: !cancellation && p.amountMinor > spendable,
  };
}

async function review(deps: Deps, tx: Tx, psuId: string, view: PaymentView): Promise<Review> {
  const { payment, entries, cancellation } = view;
  const problem = await signingProblem(deps, tx, psuId, payment, { once: !cancellation });
  const debtor = problem ? null : await debtorOverview(deps, tx, payment, cancellation);
  const { requestedExecutionDate: date } = payment;
  const today = dateInZone(deps.clock.now(), deps.settings.timeZone);
  const executesOn = date !== null && date > today ? date : null;
  const paid = entries.length > 0 ? entries : [payment];
  const ownPayees = await ownAccountTransfers(deps, tx, paid);
  const flaggedPayees = cancellation ? [] : await flaggedPayments(deps, tx, paid);
  return { problem, accounts: [], foreign: [], debtor, executesOn, ownPayees, flaggedPayees };
}

/** What a payment and its cancellation share. */
function paymentBase(deps: Deps, view: PaymentView) {
  const { payment } = view;
  const once = !view.cancellation;
  return {
    view, owner: payment,
    closedProblem: view.heldBy === undefined ? "already_decided" as const : "in_basket" as const,
    refusedAtReview: false,
    refusal: (tx: Tx, psuId: string) => paymentProblem(deps, tx, psuId, payment),
    signingProblem: (tx: Tx, psuId: string) => signingProblem(deps, tx, psuId, payment, { once }),
    onAuthenticated: async () => {},
    review: (tx: Tx, psuId: string) => review(deps, tx, psuId, view),
  };
}

/** The payment's own authorisation: it waits until authorised, rejected or held. */
export function paymentSubject(deps: Deps, view: PaymentView): ScaSubject {
  const { payment: p } = view;
  const base = paymentBase(deps, view);
  return {
    ...base,
    sms: (tx) => smsOf(deps, tx, "payment", view),
    receipt: (tx) => receiptAccount(deps, tx, view),
    current: async () => paymentSubject(deps, view),
    awaiting: view.heldBy === undefined && awaitsPsu(p.status),
    binding: sha256(`payment|${payeeLink(p)}`),
    // A company's user who may only see the account, or signed already, decides nothing.
    exemption: async (tx, psuId, knownDevice) => (await base.signingProblem(tx, psuId)) ? null
      : paymentExemption(deps, tx, { psuId, payment: p, knownDevice: await knownDevice() }),
    decide: (tx, ctx, decision) => decidePayment(deps, tx, ctx, p, decision),
    decideWithoutReview: (tx, ctx, confirm) =>
      decidePayment(deps, tx, ctx, p, { confirm, acknowledgedNoMatch: true }),
    // The SCA failed: the payment is RJCT, for the customer's own reason or sca_expired.
    async refuseWithoutReview(tx, _ctx, timedOut) {
      await movePayment(deps, tx, p, timedOut ? "expireSca" : "refuseSca",
        { at: deps.clock.now().toISOString(), ...(timedOut && { reason: SCA_EXPIRED }) });
    },
  };
}

/** The cancellation of an authorised payment not executed yet: it waits while that is ACTC. */
export function cancellationSubject(deps: Deps, view: PaymentView): ScaSubject {
  const { payment: p } = view;
  return {
    ...paymentBase(deps, view),
    current: async () => cancellationSubject(deps, view),
    awaiting: view.heldBy === undefined && p.status === "ACTC",
    binding: sha256(`cancellation|${payeeLink(p)}`),
    sms: (tx) => smsOf(deps, tx, "cancellation", view),
    exemption: null,
    decide: (tx, ctx, { confirm }) => decideCancellation(deps, tx, ctx, p, confirm),
    decideWithoutReview: (tx, ctx, confirm) => decideCancellation(deps, tx, ctx, p, confirm),
    // A cancellation not made leaves the payment as it was.
    refuseWithoutReview: async () => {},
  };
}

/** The payment an authorisation is about, as it stands now (past its SCA timeout: RJCT). */
async function loadView(
  deps: Deps, tx: Tx, a: Authorisation, cancellation: boolean,
): Promise<PaymentView | undefined> {
  const { store } = deps;
  const found = await store.payments.find(tx, a.resourceId);
  if (!found) return undefined;
  const entries = found.service === "bulk-payments"
    ? await store.payments.entriesOf(tx, found.id) : [];
  const payment = await rejectIfScaExpired(deps, tx, found);
  const held = await holderOf(deps, tx, { type: "payment", id: payment.id });
  return { type: "payment", payment, cancellation, entries, ...held };
}

export const PAYMENT_SUBJECT: SubjectType = {
  smsNames: "the amount and the payee (or, for a bulk, the total)",
  load: async (deps, tx, a) => {
    const view = await loadView(deps, tx, a, false);
    return view && paymentSubject(deps, view);
  },
};

export const CANCELLATION_SUBJECT: SubjectType = {
  smsNames: "the payment it cancels",
  load: async (deps, tx, a) => {
    const view = await loadView(deps, tx, a, true);
    return view && cancellationSubject(deps, view);
  },
};
