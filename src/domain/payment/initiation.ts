/**
 * Payment initiation use cases on the TPP side: initiate, read, read status. The PSU's side
 * (confirm, cancel) lives in authorisation.ts.
 */
import { dateInZone } from "../../lib/clock.js";
import { newPaymentId } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { BankAccount } from "../account-information/core-banking.js";
import { createdThrough, requireInterface, type ApiInterface } from "../kernel/interface.js";
import type { Deps, LaterSca, RedirectTargets, TppRef } from "../deps.js";
import {
  authorisationOver, cancellationNotNeeded, creditorUnconfirmed, formatError, noWayBack,
  nothingToConfirm, productUnknown, resourceUnknown,
} from "../kernel/errors.js";
import { validateBulk, type BulkPaymentInput, type ValidBulk } from "./rules.js";
import type { PaymentService, StandingOrder } from "./model.js";
import {
  executionDate, validateStandingOrder, type StandingOrderInput,
} from "./standing-orders.js";
import { cancelUnauthorised, rejectIfScaExpired, scaExpired } from "./expiry.js";
import { validatePayment, type PaymentInitiationInput } from "./rules.js";
import { chosenScaMethod } from "../sca/factors.js";
import { namedCorporate } from "../signatures/signatures.js";
import {
  awaitsPsu, PAYMENT_PRODUCTS, type InitiationMessage, type Payment, type PaymentProduct,
} from "./model.js";
import { checkPayees, createdStatus, outcomeOf, type PayeeChecks } from "./payee-check.js";
import { refuseIfHeld } from "../sca/holding.js";
import { movePayment, PAYMENT_TRANSITIONS } from "./transitions.js";
import { startAuthorisation, type StartedAuthorisation } from "../sca/start.js";

export type PeriodicPaymentInput = PaymentInitiationInput & StandingOrderInput;
/** What to initiate; `message` names the pain.001 document it came in, if it did. */
export type InitiationInput = (
  | { service: "payments"; body: PaymentInitiationInput }
  | { service: "periodic-payments"; body: PeriodicPaymentInput }
  | { service: "bulk-payments"; body: BulkPaymentInput }
) & {
  message?: InitiationMessage | null;
  /** The company the TPP named (PSU-Corporate-ID): it must hold the debtor account. */
  corporateId?: string | null;
  /** A /v2 bulk's own identification, shown back in its details. */
  paymentInformationId?: string;
};

/**
 * What an initiation checked before its transaction: its payees, its debtor account, and the
 * payment as validated (validated once per request: the transaction stores it as it was checked).
 */
export interface InitiationChecks extends PayeeChecks {
  debtor: BankAccount;
  valid: ReturnType<typeof readInitiation>;
}

/**
 * Without an authorisation when the TPP starts it itself
 * (TPP-Explicit-Authorisation-Preferred).
 */
export interface InitiatedPayment {
  payment: Payment; authorisationId: string | null; scaRedirect: string | null;
}
export type AuthorisationKind = "payment" | "payment-cancellation";

export function readProduct(product: string): PaymentProduct {
  const known = PAYMENT_PRODUCTS.find((p) => p === product);
  if (!known) throw productUnknown(product);
  return known;
}

/** The id of a bulk's i-th payment (from 0): ordered as given, never shown to the TPP. */
function bulkEntryId(bulkId: string, i: number): string {
  return `${bulkId}-${String(i).padStart(6, "0")}`;
}

/**
 * A bulk's own row: the debtor, the total and the booking mode; the creditor fields stay empty,
 * they are its payments'.
 */
function bulkPayment(bulk: ValidBulk) {
  return {
    debtorAccount: bulk.debtorAccount, creditorAccount: { iban: "", currency: null },
    creditorName: "",
    creditorAgent: null, creditorAddress: null, currency: "EUR", remittance: null, endToEndId: null,
    amountMinor: bulk.entries.reduce((sum, e) => sum + e.amountMinor, 0n),
    requestedExecutionDate: bulk.requestedExecutionDate, standingOrder: null,
    batchBooking: bulk.batchBooking,
  };
}

/**
 * A payment as a TPP names it; without a service or product (the spec's product-less paths),
 * any service or product.
 */
export interface PaymentRef {
  tppId: string; paymentId: string; service?: PaymentService; product?: PaymentProduct;
}

function firstExecution(order: StandingOrder): string {
  const date = executionDate(order, 0);
  if (date === null) {
    throw formatError("body", "endDate", "No execution falls between startDate and endDate.");
  }
  return date;
}

/**
 * The debtor account, read outside the initiation's transaction: concurrent initiations from one
 * account share the read (Store.cached), and no transaction waits for it. It takes no lock, as
 * inside one.
 */
async function heldDebtor({ core, store }: Deps, iban: string): Promise<BankAccount> {
  const debtor = await core.findAccountByIban(store.db, iban);
  if (!debtor) {
    throw formatError("body", "debtorAccount", "The debtor account is not held at this bank.");
  }
  return debtor;
}

/** The payment's own fields by service, and a bulk's payments. */
function readInitiation(
  settings: Deps["settings"], input: InitiationInput, product: PaymentProduct, today: string,
) {
  if (input.service === "bulk-payments") {
    const bulk = validateBulk(input.body, product, today, settings.bulkPaymentEntriesMax);
    return { main: bulkPayment(bulk), entries: bulk.entries };
  }
  const valid = validatePayment(input.body, product, today);
  if (input.service === "payments") {
    return { main: { ...valid, standingOrder: null, batchBooking: null }, entries: [] };
  }
  const standingOrder = validateStandingOrder(input.body, today);
  const requestedExecutionDate = firstExecution(standingOrder);
  return {
    main: { ...valid, requestedExecutionDate, standingOrder, batchBooking: null }, entries: [],
  };
}

/**
 * Another TPP's payment, or one of another service or product than the path's, is unknown; one
 * created through the other interface is unknown too, saying where it lives.
 */
async function findOwn(
  { store }: Deps, tx: Tx, ref: PaymentRef, version: ApiInterface,
): Promise<Payment> {
  const payment = await store.payments.findForTpp(tx, ref.paymentId, ref.tppId);
  const named = payment && payment.bulkId === null;
  const elsewhere = (key: "service" | "product") =>
    ref[key] !== undefined && payment?.[key] !== ref[key];
  const unknown = () => resourceUnknown("payment");
  if (!named || elsewhere("service") || elsewhere("product")) throw unknown();
  requireInterface(payment, version, unknown, "payment");
  return payment;
}

/**
 * An authorisation of the payment (or of its cancellation) that the PSU completes on the
 * redirect pages; both open at the payment's page.
 */
const startFor = (
  deps: Deps, tx: Tx, payment: Payment, kind: AuthorisationKind, redirect: RedirectTargets,
) => startAuthorisation(deps, tx,
  { resourceType: kind, page: "payment", resourceId: payment.id, tppId: payment.tppId }, redirect);

/** A later authorisation goes back to where the initiation said. */
function startLater(
  deps: Deps, tx: Tx, payment: Payment, kind: AuthorisationKind, sca: LaterSca,
): Promise<StartedAuthorisation> {
  const { redirectUri, nokRedirectUri } = payment;
  if ((sca.approach ?? "redirect") === "redirect" && redirectUri === "") throw noWayBack();
  return startFor(deps, tx, payment, kind, { ...sca, redirectUri, nokRedirectUri });
}

function startCancellation(
  deps: Deps, tx: Tx, payment: Payment, sca: LaterSca,
): Promise<StartedAuthorisation> {
  return startLater(deps, tx, payment, "payment-cancellation", sca);
}

/** The TPP's reads, through one interface, of its payments and of their authorisations. */
function createPaymentReads(deps: Deps, version: ApiInterface) {
  const { store, clock } = deps;

  /** Throws RESOURCE_UNKNOWN for an unknown id or another TPP's payment. */
  async function getPayment(ref: PaymentRef): Promise<Payment> {
    // A read takes no write lock: only a payment whose SCA timed out changes, and that change is
    // a compare-and-set in a transaction of its own.
    const payment = await findOwn(deps, store.db, ref, version);
    if (!scaExpired(deps, payment, clock.now())) return payment;
    return store.transaction(
      async (tx) => rejectIfScaExpired(deps, tx, await findOwn(deps, tx, ref, version)));
  }

  /**
   * A bulk with its payments (none for another service). Throws RESOURCE_UNKNOWN like
   * getPayment.
   */
  async function getWithEntries(
    ref: PaymentRef,
  ): Promise<{ payment: Payment; entries: Payment[] }> {
    const payment = await getPayment(ref);
    const entries = payment.service === "bulk-payments"
      ? await store.payments.entriesOf(store.db, payment.id) : [];
    return { payment, entries };
  }

  /**
   * The payment's authorisations of one kind (of the payment, or of its cancellation), oldest
   * first. Throws RESOURCE_UNKNOWN like getPayment.
   */
  async function listAuthorisations(ref: PaymentRef, kind: AuthorisationKind = "payment") {
    const payment = await getPayment(ref);
    const all = await store.sca.authorisationsOf(store.db, payment.id);
    return all.filter((a) => a.resourceType === kind);
  }

  /** Throws RESOURCE_UNKNOWN for an id that is not an authorisation of this TPP's payment. */
  async function getAuthorisation(
    ref: PaymentRef, authorisationId: string, kind: AuthorisationKind = "payment",
  ) {
    const all = await listAuthorisations(ref, kind);
    const found = all.find((a) => a.id === authorisationId);
    if (!found) throw resourceUnknown("authorisation");
    return { ...found, chosenScaMethod: await chosenScaMethod(deps, found.id) };
  }

  return { getPayment, getWithEntries, listAuthorisations, getAuthorisation };
}

/** Authorisations the TPP starts after the initiation: of the payment, or of its cancellation. */
function createLaterAuthorisations(deps: Deps, version: ApiInterface) {
  const { store } = deps;

  /** POST authorisations: throws STATUS_INVALID once the payment is no longer awaiting the PSU. */
  async function authorisePayment(ref: PaymentRef, sca: LaterSca): Promise<StartedAuthorisation> {
    return store.transaction(async (tx) => {
      const payment = await rejectIfScaExpired(deps, tx, await findOwn(deps, tx, ref, version));
      if (!awaitsPsu(payment.status)) {
        throw authorisationOver("payment", payment.status);
      }
      // The file: a payment offered creditorNameConfirmation is not executed without it.
      if (version === "v2" && payment.status === "RVCM") throw creditorUnconfirmed();
      await refuseIfHeld(deps, tx, { type: "payment", id: payment.id });
      return startLater(deps, tx, payment, "payment", sca);
    });
  }

  /**
   * PUT creditor-confirmation (VOP 1.1): the TPP showed the PSU the close or no match and the
   * PSU goes on; RVCM becomes RCVD, ready for its authorisation. STATUS_INVALID otherwise.
   */
  async function confirmCreditor(ref: PaymentRef): Promise<Payment> {
    return store.transaction(async (tx) => {
      const payment = await findOwn(deps, tx, ref, version);
      const at = deps.clock.now().toISOString();
      const change = { at, creditorConfirmed: true };
      if (!(await movePayment(deps, tx, payment, "confirmCreditor", change))) {
        throw nothingToConfirm(payment.status);
      }
      return { ...payment, status: PAYMENT_TRANSITIONS.confirmCreditor.to,
        creditorConfirmedAt: at };
    });
  }

  /**
   * DELETE: a payment not yet authorised is CANC at once (null); an authorised one not yet
   * executed (future-dated, standing order) needs the PSU's cancellation authorisation, which
   * this starts. Throws RESOURCE_UNKNOWN, or CANCELLATION_INVALID once it cannot be cancelled.
   */
  async function cancelPayment(
    ref: PaymentRef, sca: LaterSca,
  ): Promise<StartedAuthorisation | null> {
    return store.transaction(async (tx) => {
      const payment = await findOwn(deps, tx, ref, version);
      if (payment.status === "ACTC") return startCancellation(deps, tx, payment, sca);
      await refuseIfHeld(deps, tx, { type: "payment", id: payment.id });
      await cancelUnauthorised(deps, tx, payment);
      return null;
    });
  }

  /** POST cancellation-authorisations: another cancellation authorisation of an ACTC payment. */
  async function authoriseCancellation(
    ref: PaymentRef, sca: LaterSca,
  ): Promise<StartedAuthorisation> {
    return store.transaction(async (tx) => {
      const payment = await findOwn(deps, tx, ref, version);
      if (payment.status !== "ACTC") {
        throw cancellationNotNeeded(payment.status);
      }
      return startCancellation(deps, tx, payment, sca);
    });
  }

  return { authorisePayment, cancelPayment, authoriseCancellation, confirmCreditor };
}

/**
 * The TPP's payment use cases through one interface (`version`): what it initiates is recorded as
 * created there, and it reads and changes only the payments created there.
 */
export function createPayments(deps: Deps, version: ApiInterface = "v1") {
  const { store, clock, settings } = deps;

  /**
   * What an initiation reads before its transaction: the debtor account and Verification of
   * Payee for every payee. Throws the rules' FORMAT_ERROR first, then the unknown debtor's, so
   * nothing invalid is sent to a bank.
   */
  async function checkInitiation(product: PaymentProduct, input: InitiationInput,
    requested: boolean): Promise<InitiationChecks> {
    const valid = readInitiation(settings, input, product,
      dateInZone(clock.now(), settings.timeZone));
    const { main, entries } = valid;
    const debtor = await heldDebtor(deps, main.debtorAccount.iban);
    const payees = (entries.length > 0 ? entries : [main])
      .map((p) => ({ iban: p.creditorAccount.iban, name: p.creditorName, currency: p.currency }));
    return { ...await checkPayees(deps, payees, requested), debtor, valid };
  }

  /**
   * Stores the payment checkInitiation validated (`checks`), awaiting the PSU, and its implicit
   * authorisation, inside the caller's transaction (which also stores the idempotency key).
   */
  async function initiatePayment(
    tx: Tx, tpp: TppRef, product: PaymentProduct, input: InitiationInput, redirect: RedirectTargets,
    checks: InitiationChecks, explicitAuthorisation = false,
  ): Promise<InitiatedPayment> {
    const { debtor, valid: { main, entries } } = checks;
    await namedCorporate(deps, tx, input.corporateId, debtor.psuId);
    const vopOf = (
      p: { creditorAccount: { iban: string }; creditorName: string; currency: string },
    ) => outcomeOf(checks,
      { iban: p.creditorAccount.iban, name: p.creditorName, currency: p.currency });
    const outcomes = entries.length > 0 ? entries.map(vopOf) : [vopOf(main)];
    const at = clock.now().toISOString();
    const payment: Payment = {
      id: newPaymentId(), tppId: tpp.id, service: input.service, product,
      status: createdStatus(checks, outcomes), statusReason: null, psuId: null, executions: 0,
      bulkId: null, ...main, vop: entries.length > 0 ? null : outcomes[0] ?? null,
      vopOverriddenAt: null, redirectUri: redirect.redirectUri,
      nokRedirectUri: redirect.nokRedirectUri, createdAt: at, updatedAt: at,
      initiationMessage: input.message ?? null, signaturesRequired: debtor.signaturesRequired,
      signatures: 0, ...createdThrough(version),
      ...(input.paymentInformationId === undefined ? {}
        : { paymentInformationId: input.paymentInformationId }),
    };
    await store.payments.insert(tx, payment);
    for (const [i, entry] of entries.entries()) {
      await store.payments.insert(tx, {
        ...payment, ...entry, id: bulkEntryId(payment.id, i), bulkId: payment.id,
        batchBooking: null, vop: outcomes[i] ?? null, initiationMessage: null,
      });
    }
    // Multi-level SCA: every user's authorisation is started alike, by the TPP (Berlin Group).
    if (explicitAuthorisation || debtor.signaturesRequired > 1) {
      return { payment, authorisationId: null, scaRedirect: null };
    }
    return { payment, ...(await startFor(deps, tx, payment, "payment", redirect)) };
  }

  return {
    checkInitiation, initiatePayment, ...createPaymentReads(deps, version),
    ...createLaterAuthorisations(deps, version),
  };
}

export type Payments = ReturnType<typeof createPayments>;
