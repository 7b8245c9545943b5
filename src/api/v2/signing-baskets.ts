/**
 * The Signing Basket API 2.4 at /v2 (base /psd2/v2): a basket of the TPP's /v2 payments and
 * consents, its content, status and deletion, and the generic authorisation sub-resources for
 * every approach /v2 offers, over the same basket aggregate and SCA sessions as /v1's
 * (createBaskets(deps, "v2")): one SCA for every item, multi-level SCA alike. A basket holds the
 * items of its own interface and is unknown through the other one. Client-Notification-URI is
 * taken as on a /v2 payment; refusals are apiClientMessages.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { BasketInput, Baskets } from "../../domain/basket/baskets.js";
import type { Basket } from "../../domain/basket/model.js";
import { isOpenBasket } from "../../domain/basket/transitions.js";
import { basketApproaches, V2_APPROACH } from "../sca-approach.js";
import { basketBody } from "../schemas.js";
import { createBasket, requireEither, type BasketCreation } from "../signing-baskets.js";
import type { ReadWire } from "../statement-files.js";
import { authorisationRoutes, type V2Sca } from "./authorisations.js";
import { PSU_NAMED, PSU_PRESENT, referenceHeaders, V2_REFUSAL } from "./reference.js";

export interface V2BasketRoutesOptions extends Omit<BasketCreation, "approaches"> {
  /** The baskets of /v2 (createBaskets(deps, "v2")). */
  baskets: Baskets;
  sca: V2Sca;
}

const REFUSALS = Object.fromEntries([400, 401, 403, 404, 405, 409].map((s) => [s, V2_REFUSAL]));

const reference = referenceHeaders("Signing Basket API", "2.4");
const WIRE: Required<ReadWire> = { refusal: V2_REFUSAL, onSend: reference };

/**
 * A /v2 basket route's options: 2.x refusals and the reference headers. The role is checked by
 * the handler: a basket of payments needs PSP_PI, of consents PSP_AI, reading one either.
 */
const route = (schema: object = {}) => ({
  schema: { response: REFUSALS, headers: PSU_NAMED, ...schema }, onSend: reference });

type ById = { Params: { basketId: string } };

/** The basket a path names, once the TPP is seen to have a role a basket needs. */
function refOf(request: FastifyRequest): { tppId: string; basketId: string } {
  requireEither(request.tpp);
  return { tppId: request.tpp.id, basketId: (request.params as ById["Params"]).basketId };
}

/** getSigningBasket: the file names the items paymentIds and consentIds (1.3: payments, …). */
function presentV2Basket(basket: Basket, self: string) {
  const start = { startAuthorisation: { href: `${self}/authorisations` } };
  return {
    ...(basket.paymentIds.length > 0 && { paymentIds: basket.paymentIds }),
    ...(basket.consentIds.length > 0 && { consentIds: basket.consentIds }),
    transactionStatus: basket.status,
    _links: { self: { href: self }, status: { href: `${self}/status` },
      ...(isOpenBasket(basket.status) && start) },
  };
}

/** GET content and status, DELETE before the basket's authorisation. */
function basketReadRoutes(app: FastifyInstance, { base, baskets }: V2BasketRoutesOptions): void {
  const path = `${base}/signing-baskets/:basketId`;
  app.get<ById>(path, route(), async (request) => {
    const { tppId, basketId } = refOf(request);
    const basket = await baskets.getBasket(tppId, basketId);
    return presentV2Basket(basket, `${base}/signing-baskets/${basket.id}`);
  });
  app.get<ById>(`${path}/status`, route(), async (request) => {
    const { tppId, basketId } = refOf(request);
    return { transactionStatus: (await baskets.getBasket(tppId, basketId)).status };
  });
  // STATUS_INVALID (409) once the PSU decided it, or one of several users signed it.
  app.delete<ById>(path, route(), async (request, reply) => {
    const { tppId, basketId } = refOf(request);
    await baskets.deleteBasket(tppId, basketId);
    return reply.code(204).send();
  });
}

export function v2BasketRoutes(app: FastifyInstance, options: V2BasketRoutesOptions): void {
  const { base, baskets } = options;
  const sca = { ...options.sca, approaches: basketApproaches(options.sca.approaches) };
  const creation = { ...options, approaches: sca.approaches };
  app.post<{ Body: BasketInput }>(`${base}/signing-baskets`,
    route({ body: basketBody, headers: PSU_PRESENT }),
    (request, reply) => createBasket(request, reply, creation, V2_APPROACH));
  basketReadRoutes(app, options);
  authorisationRoutes(app, {
    path: `${base}/signing-baskets/:basketId`, wire: WIRE, sca, refOf,
    categories: [{
      segment: "authorisations",
      start: (ref, later) => baskets.authoriseBasket(ref.tppId, ref.basketId, later),
      list: (ref) => baskets.listAuthorisations(ref.tppId, ref.basketId),
      find: (ref, id) => baskets.getAuthorisation(ref.tppId, ref.basketId, id),
    }],
  });
}
