/**
 * A signing basket as a subject of the PSU's SCA (sca/subject.ts): one code binds every amount
 * and payee in it and every consent; once decided, its items are carried out each on its own
 * (carry-out.ts).
 */
import type { Tx } from "../kernel/ports.js";
import { consentChoices } from "../consent/grants.js";
import type { Consent } from "../consent/model.js";
import type { Deps, SubjectType } from "../deps.js";
import { rejectIfScaExpired } from "../payment/expiry.js";
import type { Payment } from "../payment/model.js";
import { ownAccountTransfers } from "../payment/payee-check.js";
import { flaggedPayments } from "../fraud/signals.js";
import { amountsOf } from "../payment/subject.js";
import { sha256 } from "../sca/factors.js";
import type { AccountName, Review, ScaSubject } from "../sca/subject.js";
import { carryOut, carryOutUnfinished } from "./carry-out.js";
import { awaitingItems, basketProblem, decideBasket } from "./decision.js";
import type { BasketView } from "./model.js";
import { isOpenBasket } from "./transitions.js";

declare module "../sca/subject.js" {
  interface SubjectViews { basket: BasketView }
}

/** A basket's code binds every amount and payee in it, and every consent. */
function basketLink(view: BasketView): string {
  const { payments, consents } = awaitingItems(view);
  const paid = payments.map((p) =>
    `${p.id}|${p.amountMinor}|${p.currency}|${p.creditorAccount.iban}|${p.creditorName}`);
  const granted = consents.map((c) => `consent|${c.id}`);
  return ["basket", view.basket.id, ...paid, ...granted].join("\n");
}

/**
 * A basket's review: why the PSU cannot confirm (a payment from an account not its own), and the
 * accounts its consents name that the PSU does not hold (those consents will be refused).
 */
async function review(deps: Deps, tx: Tx, psuId: string, view: BasketView): Promise<Review> {
  const foreign: string[] = [];
  for (const consent of awaitingItems(view).consents) {
    foreign.push(...(await consentChoices(deps, tx, psuId, consent)).foreign);
  }
  const problem = await basketProblem(deps, tx, psuId, view);
  const { payments } = awaitingItems(view);
  const ownPayees = await ownAccountTransfers(deps, tx, payments);
  const flaggedPayees = await flaggedPayments(deps, tx, payments);
  return {
    problem, accounts: [], foreign, debtor: null, executesOn: null, ownPayees, flaggedPayees,
    debtorNames: await debtorNamesOf(deps, tx, payments),
  };
}

/** The accounts the basket's payments leave, each named once, as the PSU's online banking does. */
async function debtorNamesOf(
  deps: Deps, tx: Tx, payments: readonly Payment[],
): Promise<Record<string, AccountName>> {
  const names: Record<string, AccountName> = {};
  for (const iban of new Set(payments.map((p) => p.debtorAccount.iban))) {
    const account = await deps.core.findAccountByIban(tx, iban);
    if (account) names[iban] = { name: account.name, product: account.product };
  }
  return names;
}

function basketSubject(deps: Deps, view: BasketView): ScaSubject {
  const problem = (tx: Tx, psuId: string) => basketProblem(deps, tx, psuId, view);
  return {
    view, owner: view.basket,
    awaiting: isOpenBasket(view.basket.status),
    closedProblem: "already_decided",
    binding: sha256(basketLink(view)),
    refusedAtReview: false,
    async sms() {
      const { payments, consents } = awaitingItems(view);
      return { kind: "basket", totals: amountsOf(payments), payments: payments.length,
        consents: consents.length };
    },
    current: async () => basketSubject(deps, view),
    refusal: problem,
    signingProblem: problem,
    // A basket's one SCA covers items an exemption was not reckoned for: none applies.
    exemption: null,
    onAuthenticated: async () => {},
    review: (tx, psuId) => review(deps, tx, psuId, view),
    decide: (tx, ctx, decision) => decideBasket(deps, tx, ctx, view, decision),
    decideWithoutReview: (tx, ctx, confirm) =>
      decideBasket(deps, tx, ctx, view, { confirm, acknowledgedNoMatch: true }),
    async refuseWithoutReview(tx, ctx) {
      await decideBasket(deps, tx, ctx, view, { confirm: false });
    },
  };
}

/** The basket with every payment and consent it names, as they stand now. */
async function loadBasket(deps: Deps, tx: Tx, basketId: string): Promise<BasketView | undefined> {
  const { store } = deps;
  const basket = await store.baskets.find(tx, basketId);
  if (!basket) return undefined;
  const payments: Payment[] = [];
  for (const id of basket.paymentIds) {
    const found = await store.payments.find(tx, id);
    if (found) payments.push(await rejectIfScaExpired(deps, tx, found));
  }
  const consents: Consent[] = [];
  for (const id of basket.consentIds) {
    const found = await store.consents.find(tx, id);
    if (found) consents.push(found);
  }
  return { type: "basket", basket, payments, consents };
}

export const BASKET_SUBJECT: SubjectType = {
  smsNames: "the basket's payments and consents",
  async load(deps, tx, a) {
    const view = await loadBasket(deps, tx, a.resourceId);
    return view && basketSubject(deps, view);
  },
  afterDecision: carryOut,
  // Baskets a crash left half carried out.
  sweep: carryOutUnfinished,
};
