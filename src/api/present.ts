/**
 * Domain → wire JSON in the spec's dialect (shared/spec/psd2-interface.md sections 2 and 4):
 * decimal-string amounts, plain-string links, and every field the spec shows present, with a
 * JSON null where the spec's samples show null.
 */
import type { CreatedBasket } from "../domain/basket/baskets.js";
import type { Basket } from "../domain/basket/model.js";
import { isOpenBasket } from "../domain/basket/transitions.js";
import type { AccountView } from "../domain/consent/accounts.js";
import type { Balance } from "../domain/account-information/core-banking.js";
import type { RegisteredConsent } from "../domain/consent/registration.js";
import type { Consent } from "../domain/consent/model.js";
import type { InitiatedPayment } from "../domain/payment/initiation.js";
import type { Payment, PostalAddress, StandingOrder } from "../domain/payment/model.js";
import { formatAmount } from "../lib/money.js";

export function presentPaymentCreated({ payment, scaRedirect }: InitiatedPayment) {
  return {
    paymentId: payment.id,
    transactionStatus: null,
    transactionFees: null,
    transactionFeeIndicator: null,
    scaMethods: null,
    chosenScaMethod: null,
    challengeData: null,
    _links: { scaRedirect, psuMessage: null, tppMessages: null },
    psuMessage: null,
    tppMessages: null,
  };
}

/**
 * A signing basket's creation in the spec's dialect, which has no basket of its own: shaped as
 * its payment creation (nulls present, plain-string links), with the basket's links.
 */
export function presentBasketCreated(
  { basket, scaRedirect }: CreatedBasket, paths: { self: string; status: string },
  scaStatus: string | null,
) {
  return {
    basketId: basket.id,
    transactionStatus: basket.status,
    scaMethods: null,
    chosenScaMethod: null,
    challengeData: null,
    _links: { scaRedirect, self: paths.self, status: paths.status, scaStatus },
    psuMessage: null,
    tppMessages: null,
  };
}

/** A basket's items and status; an open one links where another authorisation is started. */
export function presentBasket(basket: Basket, self: string) {
  const start = isOpenBasket(basket.status) ? `${self}/authorisations` : null;
  return {
    payments: basket.paymentIds.length > 0 ? basket.paymentIds : null,
    consents: basket.consentIds.length > 0 ? basket.consentIds : null,
    transactionStatus: basket.status,
    _links: { self, status: `${self}/status`, startAuthorisation: start },
  };
}

export function presentPaymentStatus(payment: Payment) {
  return { transactionStatus: payment.status };
}

/** The spec's request names the address fields street/city/postalCode; the answer uses the same. */
function presentAddress(address: PostalAddress | null) {
  if (!address) return null;
  return {
    street: address.streetName,
    buildingNumber: address.buildingNumber,
    city: address.townName,
    postalCode: address.postCode,
    country: address.country,
  };
}

export function presentPayment(p: Payment) {
  return {
    endToEndIdentification: p.endToEndId,
    debtorAccount: { iban: p.debtorAccount.iban, currency: p.debtorAccount.currency },
    creditorAccount: { iban: p.creditorAccount.iban, currency: p.creditorAccount.currency },
    instructedAmount: { currency: p.currency, amount: formatAmount(p.amountMinor, p.currency) },
    creditorAgent: p.creditorAgent,
    creditorName: p.creditorName,
    creditorAddress: presentAddress(p.creditorAddress),
    remittanceInformationUnstructured: p.remittance,
    transactionStatus: p.status,
    vopResult: p.vop && { partyNameMatch: p.vop.result, matchedName: p.vop.matchedName },
    ...(p.standingOrder ? presentStandingOrder(p.standingOrder) : {}),
  };
}

/** Berlin Group's bulk: its own fields and its payments without the bulk's debtor. */
export function presentBulk({ payment, entries }: { payment: Payment; entries: Payment[] }) {
  return {
    batchBookingPreferred: payment.batchBooking ?? false,
    debtorAccount: { iban: payment.debtorAccount.iban, currency: payment.debtorAccount.currency },
    requestedExecutionDate: payment.requestedExecutionDate,
    payments: entries.map((entry) => {
      const { debtorAccount: _debtor, transactionStatus: _status, ...fields } =
        presentPayment(entry);
      return fields;
    }),
    transactionStatus: payment.status,
  };
}

/** Berlin Group's periodic payment fields; also the standingOrderDetails of an account report. */
export function presentStandingOrder(order: StandingOrder) {
  return {
    startDate: order.startDate,
    endDate: order.endDate,
    frequency: order.frequency,
    dayOfExecution: order.dayOfExecution === null ? null : String(order.dayOfExecution),
    executionRule: order.executionRule,
  };
}

export function consentStatusPath(consentId: string): string {
  return `/consent/${consentId}/status`;
}

export function presentConsentCreated({ consent, scaRedirect }: RegisteredConsent) {
  return {
    consentStatus: consent.status,
    consentId: consent.id,
    scaMethods: null,
    chosenScaMethod: null,
    challengeData: null,
    _links: { scaStatus: consentStatusPath(consent.id), scaRedirect },
    message: null,
  };
}

export function presentConsentStatus(consent: Consent) {
  return { consentStatus: consent.status };
}

export function presentBalance(b: Balance) {
  return {
    balanceAmount: { currency: b.currency, amount: formatAmount(b.amountMinor, b.currency) },
    balanceType: b.balanceType,
    ...(b.creditLimitIncluded === undefined ? {} : { creditLimitIncluded: b.creditLimitIncluded }),
    referenceDate: b.referenceDate,
    lastChangeDateTime: b.lastChangeDateTime,
  };
}

/** Fields the spec shows only as null (bban, msisdn, name, ...) stay null in this dialect. */
export function presentAccount({ account, balances, withOwnerName }: AccountView) {
  return {
    ...(withOwnerName ? { ownerName: account.ownerName } : {}),
    resourceId: account.id,
    iban: account.iban,
    bban: null,
    msisdn: null,
    currency: account.currency,
    name: null,
    product: account.product,
    cashAccountType: null,
    status: account.status,
    bic: account.bic,
    linkedAccounts: null,
    usage: account.usage,
    details: null,
    balances: balances ? balances.map(presentBalance) : null,
    _links: null,
  };
}
