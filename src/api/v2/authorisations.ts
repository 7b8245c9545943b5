/**
 * The generic authorisation sub-resources of openFinance 2.x
 * (`/v2/{resource-path}/{resourceId}/{authorisation-category}[/{authorisationId}]`) over any
 * resource's use cases, for every approach /v2 offers: start an authorisation (the approach as
 * Client-SCA-Approach-Preference asks, the PSU's password possibly in the body), list them, read
 * one's SCA status, and update one (updatePSUData: /v1's embedded and decoupled steps, on the
 * same SCA session machine). Consents and payments name their categories.
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { LaterSca } from "../../domain/deps.js";
import type { Authorisation } from "../../domain/sca/model.js";
import type { PspRole } from "../../tpp/certificate.js";
import {
  authorisationUpdateRoutes, passwordAtStart, type AuthorisationUpdates, type UpdateRequest,
} from "../authorisation-updates.js";
import { sendStarted } from "../profile.js";
import { readLaterSca, V2_APPROACH } from "../sca-approach.js";
import type { ReadWire } from "../statement-files.js";
import { PSU_NAMED } from "./reference.js";

/** One authorisation category of a resource (`R`: the resource as its path names it). */
export interface AuthorisationCategory<R> {
  segment: "authorisations" | "cancellation-authorisations";
  start(ref: R, sca: LaterSca): Promise<{ authorisationId: string; scaRedirect: string }>;
  list(ref: R): Promise<readonly { id: string }[]>;
  /** Throws RESOURCE_UNKNOWN for an id that is not one of the resource's authorisations. */
  find(ref: R, authorisationId: string): Promise<Authorisation>;
}

/** How /v2 authorises: the bank's approaches and /v1's use cases for the steps. */
export type V2Sca = Omit<AuthorisationUpdates, "role" | "wire">;

export interface AuthorisationRoutes<R> {
  /** The resource's path, with its parameters (e.g. `/psd2/v2/consents/account-access/:id`). */
  path: string;
  role: PspRole;
  /** The guideline's refusal body and reference headers. */
  wire: Required<ReadWire>;
  refOf(request: FastifyRequest): R;
  categories: readonly AuthorisationCategory<R>[];
  sca: V2Sca;
}

type ByAuthorisation = { Params: { authorisationId: string } };

export function authorisationRoutes<R>(app: FastifyInstance, routes: AuthorisationRoutes<R>) {
  const { path, refOf, sca, wire } = routes;
  const refusals = Object.fromEntries([400, 401, 403, 404, 405, 409]
    .map((status) => [status, wire.refusal]));
  const route: RouteShorthandOptions = { config: { role: routes.role },
    schema: { response: refusals, headers: PSU_NAMED }, onSend: wire.onSend };
  for (const category of routes.categories) {
    const at = `${path}/${category.segment}`;
    app.post(at, route, async (request, reply) => {
      const { chosen, sca: later } = readLaterSca(request.headers, sca.approaches, V2_APPROACH);
      const started = await category.start(refOf(request), later);
      const self = `${request.url.split("?")[0]}/${started.authorisationId}`;
      const outcome = await passwordAtStart(request, sca.embedded, started.authorisationId, self);
      return sendStarted(reply, sca.presenters, started, self, chosen, outcome);
    });
    app.get(at, route, async (request) => {
      const all = await category.list(refOf(request));
      return { authorisationIds: all.map((a) => a.id) };
    });
    app.get<ByAuthorisation>(`${at}/:authorisationId`, route, async (request) => ({
      scaStatus: (await category.find(refOf(request), request.params.authorisationId)).scaStatus,
    }));
  }
  authorisationUpdateRoutes(app, routes.categories.map((category) => ({
    path: `${path}/${category.segment}`,
    find: (request: UpdateRequest) =>
      category.find(refOf(request), request.params.authorisationId ?? ""),
  })), { ...sca, role: routes.role, wire });
}
