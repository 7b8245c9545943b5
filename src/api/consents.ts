/**
 * Consent routes: register a consent and read its status, at Berlin Group's path and at the
 * singular path the spec's scaStatus link names.
 */
import type { FastifyInstance } from "fastify";
import type { ConsentInput, Consents } from "../domain/consent/registration.js";
import type { createIdempotency } from "../domain/kernel/idempotency.js";
import type { DeclaredPurposes } from "../domain/dashboard/purposes.js";
import type { NotificationSubscriptions } from "../domain/notification/subscriptions.js";
import {
  readCorporateId, readExplicitAuthorisation, type UriRules,
} from "./headers.js";
import { answerCreation } from "./creation.js";
import { readLaterSca, readScaTargets, type ScaApproachRules } from "./sca-approach.js";
import { consentStatusPath, presentConsentStatus } from "./present.js";
import { sendStarted, type Presenters } from "./profile.js";
import {
  authorisationUpdateRoutes, passwordAtStart, type AuthorisationConfirmation, type UpdateRequest,
} from "./authorisation-updates.js";
import type { Decoupled } from "../domain/sca/decoupled.js";
import type { EmbeddedAuthorisations } from "../domain/sca/embedded.js";
import {
  authorisationListResponse, authorisationStartedResponse, consentBody, consentCreatedResponse,
  consentDetailsResponse, consentStatusResponse, errorResponse, scaStatusResponse,
} from "./schemas.js";

export interface ConsentRoutesOptions {
  base: string;
  consents: Consents;
  idempotency: ReturnType<typeof createIdempotency>;
  redirects: UriRules;
  presenters: Presenters;
  approaches: ScaApproachRules;
  embedded: EmbeddedAuthorisations;
  decoupled: Decoupled;
  confirmation?: AuthorisationConfirmation;
  notifications: NotificationSubscriptions;
  purposes: DeclaredPurposes;
}

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const config = { role: "PSP_AI" } as const;

type ById = { Params: { consentId: string } };

/** A read's options: its answer in the profile's dialect besides the refusals. */
const readingIn = (presenters: Presenters) => (body: object) =>
  ({ config, schema: { response: { 200: presenters.schema(body), ...refusals } } });

export function consentRoutes(app: FastifyInstance, options: ConsentRoutesOptions): void {
  const { base, consents, presenters } = options;
  const created = { [presenters.createdStatus]: presenters.schema(consentCreatedResponse) };
  const selfOf = (id: string) => `${base}/consents/${id}`;

  app.post<{ Body: ConsentInput }>(`${base}/consents`, {
    config,
    schema: {
      headers: presenters.creationHeaders, body: consentBody, response: { ...created, ...refusals },
    },
  }, async (request, reply) => {
    const { chosen, redirect } = readScaTargets(request.headers, options, request.tpp.domains);
    const tpp = { id: request.tpp.id, name: request.tpp.name };
    const explicit = readExplicitAuthorisation(request.headers);
    const corporateId = readCorporateId(request.headers);
    return answerCreation(request, reply, options, {
      resourceType: "consent", idField: "consentId", selfOf, chosen,
      fingerprint: { ...redirect, explicit, chosen, corporateId },
      create: async (tx) => {
        const registered = await consents.registerConsent(tx, tpp, request.body, redirect,
          { explicit, corporateId });
        return { resourceId: registered.consent.id, authorisationId: registered.authorisationId,
          present: (paths) => presenters.consentCreated(registered, paths, chosen) };
      },
    });
  });

  const status = { config, schema: { response: { 200: consentStatusResponse, ...refusals } } };
  const statusPaths = [
    `${base}/consents/:consentId/status`,
    // The spec's scaStatus link is "/consent/<id>/status"; it is served relative to the
    // service root and below the version prefix alike.
    `${base}${consentStatusPath(":consentId")}`,
    consentStatusPath(":consentId"),
  ];
  for (const path of statusPaths) {
    app.get<ById>(path, status, async (request) => presentConsentStatus(
      await consents.getConsent(request.tpp.id, request.params.consentId, "path")));
  }

  const reading = readingIn(presenters);
  app.get<ById>(`${base}/consents/:consentId`, reading(consentDetailsResponse), async (request) =>
    presenters.consent(await consents.consentDetails(request.tpp.id, request.params.consentId)));
  consentAuthorisationRoutes(app, options);

  app.delete<ById>(`${base}/consents/:consentId`, { config, schema: { response: refusals } },
    async (request, reply) => {
      await consents.terminate(request.tpp.id, request.params.consentId);
      return reply.code(204).send();
    });
}

/** A consent's authorisations: list, start (explicit), read one's scaStatus. */
function consentAuthorisationRoutes(app: FastifyInstance, options: ConsentRoutesOptions): void {
  const { base, consents, presenters } = options;
  const reading = readingIn(presenters);
  app.get<ById>(`${base}/consents/:consentId/authorisations`, reading(authorisationListResponse),
    async (request) => {
      const all = await consents.listAuthorisations(request.tpp.id, request.params.consentId);
      return { authorisationIds: all.map((a) => a.id) };
    });
  app.post<ById>(`${base}/consents/:consentId/authorisations`, {
    // STATUS_INVALID (409) once the consent no longer awaits its authorisation.
    config, schema: {
      response: {
        201: presenters.schema(authorisationStartedResponse), ...refusals, 409: errorResponse,
      },
    },
  }, async (request, reply) => {
    const { chosen, sca } = readLaterSca(request.headers, options.approaches);
    const started = await consents.authoriseConsent(request.tpp.id, request.params.consentId, sca);
    const self = `${request.url.split("?")[0]}/${started.authorisationId}`;
    const outcome = await passwordAtStart(request, options.embedded,
      started.authorisationId, self);
    return sendStarted(reply, presenters, started, self, chosen, outcome);
  });
  const find = (request: UpdateRequest) => consents.getAuthorisation(request.tpp.id,
    request.params.consentId ?? "", request.params.authorisationId ?? "");
  authorisationUpdateRoutes(app, [{ path: `${base}/consents/:consentId/authorisations`, find }],
    { role: config.role, ...options });
  type ByAuthorisation = { Params: { consentId: string; authorisationId: string } };
  app.get<ByAuthorisation>(`${base}/consents/:consentId/authorisations/:authorisationId`,
    reading(scaStatusResponse), async (request) => {
      const { scaStatus, chosenScaMethod } = await consents.getAuthorisation(request.tpp.id,
        request.params.consentId, request.params.authorisationId);
      return { scaStatus, ...(chosenScaMethod && { chosenScaMethod }) };
    });
}
