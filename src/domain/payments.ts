/**
 * Payment initiation use cases on the TPP side: initiate, read, read status. The PSU's side
 * (confirm, cancel) lives in authorisation.ts.
 */
import { dateInZone } from "../lib/clock.js";
import { newPaymentId, newUuid } from "../lib/ids.js";
import type { Tx } from "../store/db.js";
import type { Deps, RedirectTargets, TppRef } from "./deps.js";
import { formatError, productUnknown, resourceUnknown } from "./errors.js";
import { cancelUnauthorised, rejectIfScaExpired } from "./payment-lifecycle.js";
import { validatePayment, type PaymentInitiationInput } from "./payment-rules.js";
import { PAYMENT_PRODUCTS, type Payment, type PaymentProduct } from "./payments-model.js";

export interface InitiatedPayment { payment: Payment; scaRedirect: string; authorisationId: string }

export function readProduct(product: string): PaymentProduct {
  const known = PAYMENT_PRODUCTS.find((p) => p === product);
  if (!known) throw productUnknown(product);
  return known;
}

export function createPayments(deps: Deps) {
  const { store, core, clock, settings, scaLinks } = deps;

  /**
   * Validates and stores a payment in RCVD with its implicit authorisation, inside the caller's
   * transaction (which also holds the idempotency claim).
   * Throws FORMAT_ERROR (with path) and PRODUCT_UNKNOWN.
   */
  async function initiatePayment(
    tx: Tx, tpp: TppRef, product: PaymentProduct, input: PaymentInitiationInput,
    redirect: RedirectTargets,
  ): Promise<InitiatedPayment> {
    const now = clock.now();
    const valid = validatePayment(input, product, dateInZone(now, settings.timeZone));
    const debtor = await core.findAccountByIban(tx, valid.debtorAccount.iban);
    if (!debtor) throw formatError("body", "debtorAccount", "The debtor account is not held at this bank.");
    const at = now.toISOString();
    const payment: Payment = {
      id: newPaymentId(), tppId: tpp.id, service: "payments", product, status: "RCVD",
      statusReason: null, psuId: null, ...valid,
      redirectUri: redirect.redirectUri, nokRedirectUri: redirect.nokRedirectUri,
      createdAt: at, updatedAt: at,
    };
    await store.payments.insert(tx, payment);
    const authorisationId = newUuid();
    await store.sca.insertAuthorisation(tx, {
      id: authorisationId, resourceType: "payment", resourceId: payment.id, tppId: tpp.id,
      scaStatus: "received", psuId: null, lang: redirect.lang,
    }, at);
    const scaRedirect = await scaLinks.scaRedirect({
      authorisationId, resourceType: "payment", ...redirect,
    });
    return { payment, scaRedirect, authorisationId };
  }

  async function findOwn(tx: Tx, tppId: string, paymentId: string): Promise<Payment> {
    const payment = await store.payments.findForTpp(tx, paymentId, tppId);
    if (!payment) throw resourceUnknown("payment");
    return payment;
  }

  /** Throws RESOURCE_UNKNOWN for an unknown id or another TPP's payment. */
  async function getPayment(tppId: string, paymentId: string): Promise<Payment> {
    return store.transaction(async (tx) =>
      rejectIfScaExpired(deps, tx, await findOwn(tx, tppId, paymentId)));
  }

  /** The payment's authorisations, oldest first. Throws RESOURCE_UNKNOWN like getPayment. */
  async function listAuthorisations(tppId: string, paymentId: string) {
    const payment = await getPayment(tppId, paymentId);
    return store.sca.authorisationsOf(store.db, payment.id);
  }

  /** Throws RESOURCE_UNKNOWN for an id that is not an authorisation of this TPP's payment. */
  async function getAuthorisation(tppId: string, paymentId: string, authorisationId: string) {
    const all = await listAuthorisations(tppId, paymentId);
    const found = all.find((a) => a.id === authorisationId);
    if (!found) throw resourceUnknown("authorisation");
    return found;
  }

  /** DELETE: throws RESOURCE_UNKNOWN, or CANCELLATION_INVALID once it cannot be cancelled. */
  async function cancelPayment(tppId: string, paymentId: string): Promise<void> {
    await store.transaction(async (tx) =>
      cancelUnauthorised(deps, tx, await findOwn(tx, tppId, paymentId)));
  }

  return { initiatePayment, getPayment, listAuthorisations, getAuthorisation, cancelPayment };
}

export type Payments = ReturnType<typeof createPayments>;
