/**
 * Payment initiation use cases on the TPP side: initiate, read, read status. The PSU's side
 * (confirm, cancel) lives in authorisation.ts.
 */
import { dateInZone } from "../lib/clock.js";
import { newPaymentId, newUuid } from "../lib/ids.js";
import type { Tx } from "../store/db.js";
import type { Deps, RedirectTargets, TppRef } from "./deps.js";
import { formatError, productUnknown, resourceUnknown } from "./errors.js";
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

  /** Throws RESOURCE_UNKNOWN for an unknown id or another TPP's payment. */
  async function getPayment(tppId: string, paymentId: string): Promise<Payment> {
    const payment = await store.payments.findForTpp(store.db, paymentId, tppId);
    if (!payment) throw resourceUnknown("payment");
    return payment;
  }

  return { initiatePayment, getPayment };
}

export type Payments = ReturnType<typeof createPayments>;
