/**
 * Payment initiation routes: the spec's product-less paths and Berlin Group's per-service,
 * per-product paths, for single payments and periodic payments (standing orders).
 */
import type { FastifyInstance } from "fastify";
import type { createIdempotency } from "../domain/kernel/idempotency.js";
import { PAYMENT_SERVICES, type PaymentService } from "../domain/payment/model.js";
import type {
  AuthorisationKind, InitiationInput, PaymentRef,
} from "../domain/payment/initiation.js";
import type { DeclaredPurposes } from "../domain/dashboard/purposes.js";
import type { NotificationSubscriptions } from "../domain/notification/subscriptions.js";
import {
  readCorporateId, readExplicitAuthorisation, readVopRequested,
} from "./headers.js";
import type { Payments } from "../domain/payment/initiation.js";
import { answerCreation } from "./creation.js";
import type { UriRules } from "./headers.js";
import {
  approachLinks, readLaterSca, readScaTargets, type ScaApproachRules,
} from "./sca-approach.js";
import { presentPaymentStatus } from "./present.js";
import { sendStarted, type Presenters } from "./profile.js";
import {
  authorisationUpdateRoutes, passwordAtStart, type AuthorisationConfirmation, type UpdateRequest,
} from "./authorisation-updates.js";
import type { Decoupled } from "../domain/sca/decoupled.js";
import type { EmbeddedAuthorisations } from "../domain/sca/embedded.js";
import { negotiate } from "./accept.js";
import { PAIN_002, PAIN_002_V03, pain002 } from "./xml/pain002.js";
import type { Clock } from "../lib/clock.js";
import { newPaymentId } from "../lib/ids.js";
import {
  initiationMessageOf, naming, pathProduct, readXmlInitiation,
} from "./xml/initiation.js";
import {
  authorisationListResponse, authorisationStartedResponse, bulkPaymentDetailsResponse,
  bulkPaymentInitiationBody, scaStatusResponse,
  cancellationStartedResponse, errorResponse,
  paymentCreatedResponse, paymentDetailsResponse, paymentInitiationBody,
  periodicPaymentInitiationBody, transactionStatusResponse,
} from "./schemas.js";

export interface PaymentRoutesOptions {
  base: string;
  payments: Payments;
  idempotency: ReturnType<typeof createIdempotency>;
  redirects: UriRules;
  presenters: Presenters;
  approaches: ScaApproachRules;
  embedded: EmbeddedAuthorisations;
  decoupled: Decoupled;
  confirmation?: AuthorisationConfirmation;
  notifications: NotificationSubscriptions;
  purposes: DeclaredPurposes;
  clock: Clock;
}

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const config = { role: "PSP_PI" } as const;
const BODIES = {
  "payments": paymentInitiationBody, "periodic-payments": periodicPaymentInitiationBody,
  "bulk-payments": bulkPaymentInitiationBody,
};

/** The status answers JSON by default and a pain.002 report to `Accept: application/xml`. */
const STATUS_FORMATS = ["application/json", "application/xml"] as const;

type ById = { Params: { paymentId: string; product?: string } };
type ByAuthorisation = { Params: { product: string; paymentId: string; authorisationId: string } };

export function paymentRoutes(app: FastifyInstance, options: PaymentRoutesOptions): void {
  for (const service of PAYMENT_SERVICES) {
    initiationRoute(app, options, service);
    readRoutes(app, options, service);
    paymentSubResourceRoutes(app, options, service);
  }
}

function initiationRoute(
  app: FastifyInstance, options: PaymentRoutesOptions, service: PaymentService,
) {
  const { base, payments, presenters } = options;
  const created = { [presenters.createdStatus]: presenters.schema(paymentCreatedResponse) };
  type Initiation = { Params: { product: string }; Body: InitiationInput["body"] };
  app.post<Initiation>(`${base}/${service}/:product`, {
    config: { ...config, xml: true },
    schema: {
      headers: presenters.creationHeaders, body: BODIES[service],
      response: { ...created, ...refusals },
    },
    // The product is checked before the body, so an unknown product is PRODUCT_UNKNOWN whatever
    // it carries.
    preValidation: async (request) => {
      pathProduct(request.params.product);
      readXmlInitiation(request, service);
    },
  }, async (request, reply) => {
    const product = pathProduct(request.params.product);
    const { chosen, redirect } = readScaTargets(request.headers, options, request.tpp.domains);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const input = {
      service, body: request.body, message: initiationMessageOf(request),
      corporateId: readCorporateId(request.headers),
    } as InitiationInput;
    const selfOf = (id: string) => `${base}/${service}/${request.params.product}/${id}`;
    const explicit = readExplicitAuthorisation(request.headers);
    const checks = await naming(request.params.product, () =>
      payments.checkInitiation(product, input, readVopRequested(request.headers)));
    return answerCreation(request, reply, options, {
      resourceType: "payment", idField: "paymentId", selfOf, chosen,
      fingerprint: { ...redirect, explicit, chosen, vop: checks.requested,
        corporateId: input.corporateId },
      create: async (tx) => {
        const initiated = await naming(request.params.product,
          () => payments.initiatePayment(tx, tpp, product, input, redirect, checks, explicit));
        return { resourceId: initiated.payment.id, authorisationId: initiated.authorisationId,
          present: (paths) => presenters.paymentCreated(initiated, paths, chosen) };
      },
    });
  });
}

/**
 * The payment a path names: under a product, only a payment of that product (as JSON or
 * pain.001); the spec's product-less paths name single payments of any product.
 */
function refOf(
  request: { params: ById["Params"]; tpp: { id: string } }, service: PaymentService,
): PaymentRef {
  const { product, paymentId } = request.params;
  const ref = { tppId: request.tpp.id, paymentId, service };
  return product === undefined ? ref : { ...ref, product: pathProduct(product) };
}

function readRoutes(
  app: FastifyInstance, { base, payments, presenters, clock }: PaymentRoutesOptions,
  service: PaymentService,
) {
  const statusSchema = {
    schema: { response: { 200: transactionStatusResponse, ...refusals, 406: errorResponse } },
    config: {
      ...config, otherAnswers: { "application/xml": `${PAIN_002} CustomerPaymentStatusReport `
        + `(${PAIN_002_V03} for a payment initiated as pain.001.001.03)` },
    },
  };
  const details = service === "bulk-payments" ? bulkPaymentDetailsResponse : paymentDetailsResponse;
  const detailsSchema = {
    schema: { response: { 200: presenters.schema(details), ...refusals } }, config,
  };
  const paths = [`${base}/${service}/:product/:paymentId`];
  if (service === "payments") paths.push(`${base}/payments/:paymentId`);
  for (const path of paths) {
    app.get<ById>(`${path}/status`, statusSchema, async (request, reply) => {
      const ref = refOf(request, service);
      if (negotiate(request.headers.accept, STATUS_FORMATS) === "application/json") {
        return presentPaymentStatus(await payments.getPayment(ref));
      }
      const { payment, entries } = await payments.getWithEntries(ref);
      // A report's MsgId only has to be unique; a fresh random id of the payments' form is.
      const report = pain002(payment, entries, clock.now(), newPaymentId());
      return reply.type("application/xml").send(report);
    });
    app.get<ById>(path, detailsSchema, async (request) => {
      const found = await payments.getWithEntries(refOf(request, service));
      return service === "bulk-payments"
        ? presenters.bulkPayment(found) : presenters.payment(found.payment);
    });
  }
}

/** Berlin Group's per-product paths: cancellation and the authorisation sub-resources. */
function paymentSubResourceRoutes(
  app: FastifyInstance, options: PaymentRoutesOptions, service: PaymentService,
) {
  const { base, payments, presenters } = options;
  const path = `${base}/${service}/:product/:paymentId`;
  const reading = (body: object) => ({ config, schema: { response: { 200: body, ...refusals } } });
  app.delete<ById>(path, {
    config, schema: {
      response: {
        202: presenters.schema(cancellationStartedResponse), ...refusals, 405: errorResponse,
      },
    },
  }, async (request, reply) => {
    const { chosen, sca } = readLaterSca(request.headers, options.approaches);
    const started = await payments.cancelPayment(refOf(request, service), sca);
    if (started === null) return reply.code(204).send();
    const scaStatus =
      `${request.url.split("?")[0]}/cancellation-authorisations/${started.authorisationId}`;
    const _links = chosen.approach === "redirect"
      ? { startAuthorisation: scaStatus, scaRedirect: started.scaRedirect, scaStatus }
      : approachLinks(chosen, { authorisations: scaStatus, authorisation: scaStatus });
    return reply.code(202).send(presenters.answer({ transactionStatus: "ACTC", _links }));
  });
  for (const [segment, kind] of [
    ["authorisations", "payment"], ["cancellation-authorisations", "payment-cancellation"],
  ] as const satisfies readonly (readonly [string, AuthorisationKind])[]) {
    app.get<ById>(`${path}/${segment}`, reading(authorisationListResponse), async (request) => {
      const all = await payments.listAuthorisations(refOf(request, service), kind);
      return { authorisationIds: all.map((a) => a.id) };
    });
    const status = reading(scaStatusResponse);
    app.get<ByAuthorisation>(`${path}/${segment}/:authorisationId`, status, async (request) => {
      const found = await payments.getAuthorisation(
        refOf(request, service), request.params.authorisationId, kind);
      // chosenScaMethod appears once the PSU has chosen its device (the create answer keeps null).
      const { scaStatus, chosenScaMethod } = found;
      return { scaStatus, ...(chosenScaMethod && { chosenScaMethod }) };
    });
  }
  const startedAnswer = presenters.schema(authorisationStartedResponse);
  // Too late for an authorisation: STATUS_INVALID (409); no cancellation to authorise: 405.
  for (const [segment, start, tooLate] of [
    ["authorisations", payments.authorisePayment, 409],
    ["cancellation-authorisations", payments.authoriseCancellation, 405],
  ] as const) {
    const response = { 201: startedAnswer, ...refusals, [tooLate]: errorResponse };
    const started = { config, schema: { response } };
    app.post<ById>(`${path}/${segment}`, started, async (request, reply) => {
      const { chosen, sca } = readLaterSca(request.headers, options.approaches);
      const authorisation = await start(refOf(request, service), sca);
      const self = `${request.url.split("?")[0]}/${authorisation.authorisationId}`;
      const outcome = await passwordAtStart(request, options.embedded,
        authorisation.authorisationId, self);
      return sendStarted(reply, presenters, authorisation, self, chosen, outcome);
    });
  }
  const find = (kind: AuthorisationKind) => (request: UpdateRequest) => payments.getAuthorisation(
    refOf({ params: request.params as ById["Params"], tpp: request.tpp }, service),
    request.params.authorisationId ?? "", kind);
  authorisationUpdateRoutes(app, [
    { path: `${path}/authorisations`, find: find("payment") },
    { path: `${path}/cancellation-authorisations`, find: find("payment-cancellation") },
  ], { role: config.role, ...options });
}
