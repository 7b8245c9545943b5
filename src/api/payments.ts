/**
 * Payment initiation routes: the spec's product-less paths and Berlin Group's product paths.
 */
import type { FastifyInstance } from "fastify";
import type { createIdempotency } from "../domain/idempotency.js";
import type { PaymentInitiationInput } from "../domain/payment-rules.js";
import { readProduct, type Payments } from "../domain/payments.js";
import { readRedirectTargets } from "./headers.js";
import { requestFingerprint } from "./plugin.js";
import { presentPayment, presentPaymentCreated, presentPaymentStatus } from "./present.js";
import {
  errorResponse, paymentCreatedResponse, paymentDetailsResponse, paymentInitiationBody,
  transactionStatusResponse,
} from "./schemas.js";

export interface PaymentRoutesOptions {
  base: string;
  payments: Payments;
  idempotency: ReturnType<typeof createIdempotency>;
  allowHttpLocalhost: boolean;
}

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export function paymentRoutes(app: FastifyInstance, options: PaymentRoutesOptions): void {
  const { base, payments, idempotency } = options;
  const config = { role: "PSP_PI" } as const;

  app.post<{ Params: { product: string }; Body: PaymentInitiationInput }>(`${base}/payments/:product`, {
    config,
    schema: { body: paymentInitiationBody, response: { 200: paymentCreatedResponse, ...refusals } },
    // The product is checked before the body, so an unknown product is PRODUCT_UNKNOWN whatever it carries.
    preValidation: async (request) => { readProduct(request.params.product); },
  }, async (request, reply) => {
    const product = readProduct(request.params.product);
    const redirect = readRedirectTargets(request.headers, options.allowHttpLocalhost);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const response = await idempotency.once({
      tppId: tpp.id,
      requestId: String(request.headers["x-request-id"]),
      bodyHash: requestFingerprint(request, redirect),
    }, async (tx) => {
      const initiated = await payments.initiatePayment(tx, tpp, product, request.body, redirect);
      return { statusCode: 200, body: presentPaymentCreated(initiated) };
    });
    return reply.code(response.statusCode).send(response.body);
  });

  type ById = { Params: { paymentId: string; product?: string } };
  const details = async (request: { params: ById["Params"]; tpp: { id: string } }) => {
    if (request.params.product !== undefined) readProduct(request.params.product);
    return payments.getPayment(request.tpp.id, request.params.paymentId);
  };
  const statusSchema = { schema: { response: { 200: transactionStatusResponse, ...refusals } }, config };
  const detailsSchema = { schema: { response: { 200: paymentDetailsResponse, ...refusals } }, config };
  for (const path of [`${base}/payments/:paymentId`, `${base}/payments/:product/:paymentId`]) {
    app.get<ById>(`${path}/status`, statusSchema, async (request) => presentPaymentStatus(await details(request)));
    app.get<ById>(path, detailsSchema, async (request) => presentPayment(await details(request)));
  }
  paymentSubResourceRoutes(app, options);
}

type ByProductAndId = { Params: { product: string; paymentId: string } };
type ByAuthorisation = { Params: ByProductAndId["Params"] & { authorisationId: string } };

/** Berlin Group's per-product paths: cancellation and the authorisation sub-resources. */
function paymentSubResourceRoutes(app: FastifyInstance, { base, payments }: PaymentRoutesOptions) {
  const config = { role: "PSP_PI" } as const;
  const path = `${base}/payments/:product/:paymentId`;
  const schema = { response: refusals };
  app.delete<ByProductAndId>(path, { config, schema }, async (request, reply) => {
    readProduct(request.params.product);
    await payments.cancelPayment(request.tpp.id, request.params.paymentId);
    return reply.code(204).send();
  });
  app.get<ByProductAndId>(`${path}/authorisations`, { config, schema }, async (request) => {
    readProduct(request.params.product);
    const all = await payments.listAuthorisations(request.tpp.id, request.params.paymentId);
    return { authorisationIds: all.map((a) => a.id) };
  });
  const oneAuthorisation = `${path}/authorisations/:authorisationId`;
  app.get<ByAuthorisation>(oneAuthorisation, { config, schema }, async (request) => {
    const { product, paymentId, authorisationId } = request.params;
    readProduct(product);
    const found = await payments.getAuthorisation(request.tpp.id, paymentId, authorisationId);
    return { scaStatus: found.scaStatus };
  });
}
