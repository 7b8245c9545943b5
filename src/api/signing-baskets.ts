/**
 * Signing basket routes (Berlin Group SBS, /v1/signing-baskets): create a basket of the TPP's
 * payments and consents, read it and its status, start and read its authorisations (one SCA for
 * every item, on the same session machine as a payment's), delete it before its authorisation.
 * A basket of payments needs the role PSP_PI, of consents PSP_AI; reading one, either.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BasketInput, Baskets } from "../domain/basket/baskets.js";
import { roleInvalid } from "../domain/kernel/errors.js";
import type { Decoupled } from "../domain/sca/decoupled.js";
import type { EmbeddedAuthorisations } from "../domain/sca/embedded.js";
import type { PspRole } from "../tpp/certificate.js";
import {
  authorisationUpdateRoutes, passwordAtStart, type AuthorisationConfirmation, type UpdateRequest,
} from "./authorisation-updates.js";
import { answerCreation, type CreationRoute } from "./creation.js";
import { readExplicitAuthorisation, type UriRules } from "./headers.js";
import { sendStarted } from "./profile.js";
import {
  basketApproaches, readLaterSca, readScaTargets, V1_APPROACH, type ApproachHeaders,
  type ScaApproachRules,
} from "./sca-approach.js";
import {
  authorisationListResponse, authorisationStartedResponse, basketBody, basketCreatedResponse,
  basketResponse, errorResponse, scaStatusResponse, transactionStatusResponse,
} from "./schemas.js";

export interface BasketRoutesOptions extends BasketCreation {
  embedded: EmbeddedAuthorisations;
  decoupled: Decoupled;
  confirmation?: AuthorisationConfirmation;
}

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

type ById = { Params: { basketId: string } };
type Tpp = FastifyRequest["tpp"];

/** A basket holds payments (PSP_PI) and consents (PSP_AI): the TPP needs the role of each. */
function requireRoles(tpp: Tpp, input: BasketInput | undefined): void {
  const needed: PspRole[] = [];
  if (input?.paymentIds?.length) needed.push("PSP_PI");
  if (input?.consentIds?.length) needed.push("PSP_AI");
  const missing = needed.find((role) => !tpp.roles.includes(role));
  if (missing) throw roleInvalid(missing);
}

/** Reading or acting on a basket: a TPP with neither role has none. */
export function requireEither(tpp: Tpp): void {
  if (!tpp.roles.includes("PSP_PI") && !tpp.roles.includes("PSP_AI")) throw roleInvalid("PSP_PI");
}

export function basketRoutes(app: FastifyInstance, given: BasketRoutesOptions): void {
  const options = { ...given, approaches: basketApproaches(given.approaches) };
  creationRoute(app, options);
  readRoutes(app, options);
  authorisationRoutes(app, options);
}

function creationRoute(app: FastifyInstance, options: BasketRoutesOptions): void {
  const { base, presenters } = options;
  const created = { [presenters.createdStatus]: presenters.schema(basketCreatedResponse) };
  app.post<{ Body: BasketInput }>(`${base}/signing-baskets`, {
    schema: {
      headers: presenters.creationHeaders, body: basketBody,
      response: { ...created, ...refusals, 409: errorResponse },
    },
  }, (request, reply) => createBasket(request, reply, options, V1_APPROACH));
}

/** What a basket's creation needs: its interface's baskets, approaches and ways back. */
export type BasketCreation = CreationRoute & {
  base: string; baskets: Baskets; redirects: UriRules; approaches: ScaApproachRules;
};

/**
 * POST {base}/signing-baskets: the basket and, unless the TPP starts it (or several users must
 * sign it), its authorisation in the approach the interface's headers (`ask`) pick.
 */
export async function createBasket(
  request: FastifyRequest<{ Body: BasketInput }>, reply: FastifyReply, options: BasketCreation,
  ask: ApproachHeaders,
): Promise<FastifyReply> {
  const { base, baskets, presenters } = options;
  requireRoles(request.tpp, request.body);
  const { chosen, redirect } = readScaTargets(request.headers, options, request.tpp.domains, ask);
  const tpp = { id: request.tpp.id, name: request.tpp.name };
  const explicit = readExplicitAuthorisation(request.headers, ask.redirect);
  return answerCreation(request, reply, options, {
    resourceType: "signing-basket", idField: "basketId",
    selfOf: (id) => `${base}/signing-baskets/${id}`, chosen,
    fingerprint: { ...redirect, explicit, chosen },
    create: async (tx) => {
      const created = await baskets.createBasket(tx, tpp, request.body, redirect, explicit);
      return { resourceId: created.basket.id, authorisationId: created.authorisationId,
        present: (paths) => presenters.basketCreated(created, paths, chosen) };
    },
  });
}

function readRoutes(app: FastifyInstance, options: BasketRoutesOptions): void {
  const { base, baskets, presenters } = options;
  const path = `${base}/signing-baskets/:basketId`;
  const reading = (body: object) => ({ schema: { response: { 200: body, ...refusals } } });
  app.get<ById>(path, reading(presenters.schema(basketResponse)), async (request) => {
    requireEither(request.tpp);
    const basket = await baskets.getBasket(request.tpp.id, request.params.basketId);
    return presenters.basket(basket, `${base}/signing-baskets/${basket.id}`);
  });
  app.get<ById>(`${path}/status`, reading(transactionStatusResponse), async (request) => {
    requireEither(request.tpp);
    const basket = await baskets.getBasket(request.tpp.id, request.params.basketId);
    return { transactionStatus: basket.status };
  });
  // STATUS_INVALID (409) once the PSU decided it.
  app.delete<ById>(path, { schema: { response: { ...refusals, 409: errorResponse } } },
    async (request, reply) => {
      requireEither(request.tpp);
      await baskets.deleteBasket(request.tpp.id, request.params.basketId);
      return reply.code(204).send();
    });
}

/** The basket's authorisations: list, start (STATUS_INVALID once decided), read, update. */
function authorisationRoutes(app: FastifyInstance, options: BasketRoutesOptions): void {
  const { base, baskets, presenters } = options;
  const path = `${base}/signing-baskets/:basketId/authorisations`;
  const reading = (body: object) => ({ schema: { response: { 200: body, ...refusals } } });
  app.get<ById>(path, reading(authorisationListResponse), async (request) => {
    requireEither(request.tpp);
    const all = await baskets.listAuthorisations(request.tpp.id, request.params.basketId);
    return { authorisationIds: all.map((a) => a.id) };
  });
  const response = {
    201: presenters.schema(authorisationStartedResponse), ...refusals, 409: errorResponse,
  };
  app.post<ById>(path, { schema: { response } }, async (request, reply) => {
    requireEither(request.tpp);
    const { chosen, sca } = readLaterSca(request.headers, options.approaches);
    const started = await baskets.authoriseBasket(request.tpp.id, request.params.basketId, sca);
    const self = `${request.url.split("?")[0]}/${started.authorisationId}`;
    const outcome = await passwordAtStart(request, options.embedded,
      started.authorisationId, self);
    return sendStarted(reply, presenters, started, self, chosen, outcome);
  });
  type ByAuthorisation = { Params: { basketId: string; authorisationId: string } };
  app.get<ByAuthorisation>(`${path}/:authorisationId`, reading(scaStatusResponse),
    async (request) => {
      requireEither(request.tpp);
      const { scaStatus, chosenScaMethod } = await baskets.getAuthorisation(request.tpp.id,
        request.params.basketId, request.params.authorisationId);
      return { scaStatus, ...(chosenScaMethod && { chosenScaMethod }) };
    });
  const find = (request: UpdateRequest) => {
    requireEither(request.tpp);
    return baskets.getAuthorisation(request.tpp.id, request.params.basketId ?? "",
      request.params.authorisationId ?? "");
  };
  authorisationUpdateRoutes(app, [{ path, find }], options);
}
