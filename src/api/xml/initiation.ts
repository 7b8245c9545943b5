/**
 * Berlin Group's pain.001 products on the initiation paths: `pain.001-sepa-credit-transfers`
 * takes a pain.001 document (application/xml) and makes a payment of `sepa-credit-transfers`,
 * with the same lifecycle as one initiated in JSON.
 */
import type { FastifyRequest } from "fastify";
import { relocated, unsupportedMediaType, Xs2aError } from "../../domain/kernel/errors.js";
import { readProduct } from "../../domain/payment/initiation.js";
import {
  PAYMENT_PRODUCTS, type InitiationMessage, type PaymentProduct, type PaymentService,
} from "../../domain/payment/model.js";
import { XmlBody } from "./body.js";
import { elementOf, PAIN_001_SERVICES, readPain001 } from "./pain001.js";

const PAIN_001 = "pain.001-";

/** The payment product a path's product names, pain.001 variants included. */
export function pathProduct(product: string): PaymentProduct {
  return readProduct(product.startsWith(PAIN_001) ? product.slice(PAIN_001.length) : product);
}

/** The products a service's initiation takes, each with its body's only media type. */
export function initiationProducts(service: PaymentService): Readonly<Record<string, string>> {
  const json = PAYMENT_PRODUCTS.map((product) => [product, "application/json"]);
  const xml = !PAIN_001_SERVICES.includes(service) ? []
    : PAYMENT_PRODUCTS.map((product) => [PAIN_001 + product, "application/xml"]);
  return Object.fromEntries([...json, ...xml]);
}

/**
 * Turns a pain.001 body into its JSON initiation body before schema validation. A pain.001
 * product takes only XML and the other products only JSON: anything else is 415.
 */
export function readXmlInitiation(
  request: FastifyRequest<{ Params: { product: string } }>, service: PaymentService,
): void {
  const xml = request.params.product.startsWith(PAIN_001);
  if (xml !== request.body instanceof XmlBody) {
    throw unsupportedMediaType(xml ? "application/xml" : "application/json");
  }
  if (!(request.body instanceof XmlBody)) return;
  const { body, message } = readPain001(request.body, service);
  request.body = body;
  messages.set(request, message);
}

/** The pain.001 messages of requests in flight, until their initiation stores them. */
const messages = new WeakMap<FastifyRequest, InitiationMessage>();

/** The pain.001 message a request's body came in; null for a JSON initiation. */
export function initiationMessageOf(request: FastifyRequest): InitiationMessage | null {
  return messages.get(request) ?? null;
}

/** Runs an initiation; for a pain.001 its refusals name the XML element, not the JSON field. */
export async function naming<T>(product: string, initiate: () => Promise<T>): Promise<T> {
  try {
    return await initiate();
  } catch (error) {
    if (!product.startsWith(PAIN_001) || !(error instanceof Xs2aError)) throw error;
    if (error.path === undefined || error.origin !== "body") throw error;
    throw relocated(error, elementOf(error.path));
  }
}
