/**
 * PIS 2.4.1 at /v2 (base /psd2/v2): single, periodic and bulk payments in JSON under their 2.x
 * paths, their details, status and cancellation, and the generic authorisation sub-resources
 * (authorisations, cancellation-authorisations) for every approach /v2 offers, over the same
 * payment aggregate and SCA sessions as /v1 (createPayments(deps, "v2")). The Client-* headers
 * follow the rules of their 1.3 counterparts (headers.ts); refusals are apiClientMessages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { cancellationConflict, resourceUnknown } from "../../domain/kernel/errors.js";
import {
  readProduct, type PaymentRef, type Payments,
} from "../../domain/payment/initiation.js";
import {
  PAYMENT_PRODUCTS, PAYMENT_SERVICES, type PaymentService,
} from "../../domain/payment/model.js";
import { answerCreation, type CreationRoute } from "../creation.js";
import {
  readCorporateId, readExplicitAuthorisation, readVopRequested, V2_HEADERS, type UriRules,
} from "../headers.js";
import { mismatched } from "../../domain/payment/payee-check.js";
import { presentPaymentStatus } from "../present.js";
import { startedLinks, type ResourcePaths } from "../profile.js";
import { readLaterSca, readScaTargets, V2_APPROACH } from "../sca-approach.js";
import type { ReadWire } from "../statement-files.js";
import { authorisationRoutes, type V2Sca } from "./authorisations.js";
import {
  asV2Field, inV2Terms, presentV2Bulk, presentV2Payment, readV2Initiation, V2_PAYMENT_BODIES,
  type V2PaymentBody,
} from "./payment-body.js";
import { PSU_NAMED, PSU_PRESENT, referenceHeaders, V2_REFUSAL } from "./reference.js";

export interface V2PaymentRoutesOptions extends CreationRoute {
  base: string;
  /** The payments of /v2 (createPayments(deps, "v2")). */
  payments: Payments;
  redirects: UriRules;
  sca: V2Sca;
}

const REFUSALS = Object.fromEntries([400, 401, 403, 404, 405, 409].map((s) => [s, V2_REFUSAL]));

const reference = referenceHeaders("XS2A API as PSD2 Interface, Payment Initiation Service",
  "2.4.1");
const WIRE: Required<ReadWire> = { refusal: V2_REFUSAL, onSend: reference };

/** A /v2 payment route's options: the PIS role, 2.x refusals, the reference headers. */
const route = (schema: object = {}) => ({ config: { role: "PSP_PI" as const },
  schema: { response: REFUSALS, headers: PSU_NAMED, ...schema }, onSend: reference });

type ByPayment = { Params: { product: string; paymentId: string } };

/** The payment a path names: of this service and product only. */
function refOf(request: FastifyRequest, service: PaymentService): PaymentRef {
  const { product, paymentId } = request.params as ByPayment["Params"];
  return { tppId: request.tpp.id, paymentId, service, product: readProduct(product) };
}

/**
 * The payment an authorisation's (or a creditor confirmation's) path names. Their files know no
 * PRODUCT_UNKNOWN (their 404 is RESOURCE_UNKNOWN only): there an unknown product names no payment.
 */
function authorisedRefOf(request: FastifyRequest, service: PaymentService): PaymentRef {
  const { product } = request.params as ByPayment["Params"];
  if (!PAYMENT_PRODUCTS.some((known) => known === product)) throw resourceUnknown("payment");
  return refOf(request, service);
}

type CreationRequest = FastifyRequest<{ Params: { product: string }; Body: V2PaymentBody }>;

/**
 * POST /v2/{service}/{product}: the payment and, unless the TPP starts it, its authorisation in
 * the approach Client-SCA-Approach-Preference asks for.
 */
async function initiate(request: CreationRequest, reply: FastifyReply,
  options: V2PaymentRoutesOptions, service: PaymentService): Promise<FastifyReply> {
  const { payments, base } = options;
  const product = readProduct(request.params.product);
  const { chosen, redirect } = readScaTargets(request.headers,
    { approaches: options.sca.approaches, redirects: options.redirects }, request.tpp.domains,
    V2_APPROACH);
  const input = inV2Terms(() =>
    readV2Initiation(service, request.body, readCorporateId(request.headers)));
  const tpp = { id: request.tpp.id, name: request.tpp.name };
  const checks = await payments.checkInitiation(product, input, readVopRequested(request.headers))
    .catch(asV2Field);
  // A close or no match the TPP reads (RVCM) waits for its creditor confirmation (VOP 1.1)
  // before any authorisation starts.
  const awaitsConfirmation = mismatched(checks, checks.outcomes.values());
  const explicit = readExplicitAuthorisation(request.headers, V2_HEADERS) || awaitsConfirmation;
  return answerCreation(request, reply, options, {
    resourceType: "payment", idField: "paymentId", chosen,
    selfOf: (id) => `${base}/${service}/${product}/${id}`,
    fingerprint: { ...redirect, explicit, chosen, corporateId: input.corporateId },
    create: async (tx) => {
      const initiated = await payments.initiatePayment(
        tx, tpp, product, input, redirect, checks, explicit).catch(asV2Field);
      const created = (paths: ResourcePaths) =>
        options.presenters.paymentCreated(initiated, paths, chosen);
      return { resourceId: initiated.payment.id, authorisationId: initiated.authorisationId,
        present: awaitsConfirmation ? (paths) => confirmationFirst(created(paths), paths)
          : created };
    },
  });
}

/** A creation answer whose payment awaits its creditor confirmation: that link, no start. */
function confirmationFirst(answer: Record<string, unknown>, paths: ResourcePaths) {
  return { ...answer, _links: { self: { href: paths.self }, status: { href: paths.status },
    creditorNameConfirmation: { href: `${paths.self}/creditor-confirmation` } } };
}

/**
 * PUT creditor-confirmation (VOP 1.1): the payment leaves RVCM for RCVD; its authorisation is
 * then started by the TPP (startAuthorisation), in the approach it chooses.
 */
async function confirmCreditor(request: FastifyRequest, payments: Payments,
  service: PaymentService) {
  const payment = await payments.confirmCreditor(authorisedRefOf(request, service));
  const self = request.url.split("?")[0]!.replace(/\/creditor-confirmation$/, "");
  return { transactionStatus: payment.status, _links: { self: { href: self },
    status: { href: `${self}/status` }, startAuthorisation: { href: `${self}/authorisations` } } };
}

/** GET details and status, DELETE (cancellation) of one service's payments. */
function paymentReadRoutes(
  app: FastifyInstance, { base, payments, sca }: V2PaymentRoutesOptions, service: PaymentService,
) {
  const path = `${base}/${service}/:product/:paymentId`;
  app.put<ByPayment>(`${path}/creditor-confirmation`, route(), (request) =>
    confirmCreditor(request, payments, service));
  app.get<ByPayment>(`${path}/status`, route(), async (request) =>
    presentPaymentStatus(await payments.getPayment(refOf(request, service))));
  app.get<ByPayment>(path, route(), async (request) => {
    const found = await payments.getWithEntries(refOf(request, service));
    return service === "bulk-payments" ? presentV2Bulk(found) : presentV2Payment(found.payment);
  });
  app.delete<ByPayment>(path, route(), async (request, reply) => {
    const { chosen, sca: later } = readLaterSca(request.headers, sca.approaches, V2_APPROACH);
    const started = await payments.cancelPayment(refOf(request, service), later);
    if (started === null) return reply.code(204).send();
    const scaStatus =
      `${request.url.split("?")[0]}/cancellation-authorisations/${started.authorisationId}`;
    return reply.code(202).send(sca.presenters.answer({ transactionStatus: "ACTC",
      _links: startedLinks(chosen, started.scaRedirect, scaStatus) }));
  });
}

export function v2PaymentRoutes(app: FastifyInstance, options: V2PaymentRoutesOptions): void {
  const { base, payments } = options;
  for (const service of PAYMENT_SERVICES) {
    app.post<{ Params: { product: string }; Body: V2PaymentBody }>(`${base}/${service}/:product`,
      // The product is checked before the body, so an unknown product is PRODUCT_UNKNOWN whatever
      // it carries.
      { ...route({ body: V2_PAYMENT_BODIES[service], headers: PSU_PRESENT }),
        preValidation: async (request: FastifyRequest<{ Params: { product: string } }>) => {
          readProduct(request.params.product);
        } },
      (request, reply) => initiate(request, reply, options, service));
    paymentReadRoutes(app, options, service);
    authorisationRoutes(app, {
      path: `${base}/${service}/:product/:paymentId`, role: "PSP_PI", wire: WIRE,
      sca: options.sca, refOf: (request) => authorisedRefOf(request, service),
      categories: [
        { segment: "authorisations", start: payments.authorisePayment,
          list: (ref) => payments.listAuthorisations(ref, "payment"),
          find: (ref, id) => payments.getAuthorisation(ref, id, "payment") },
        { segment: "cancellation-authorisations",
          start: (ref, sca) => payments.authoriseCancellation(ref, sca).catch((error) => {
            throw cancellationConflict(error);
          }),
          list: (ref) => payments.listAuthorisations(ref, "payment-cancellation"),
          find: (ref, id) => payments.getAuthorisation(ref, id, "payment-cancellation") },
      ],
    });
  }
}
