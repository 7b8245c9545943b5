/**
 * The generic authorisation sub-resources of openFinance 2.x
 * (`/v2/{resource-path}/{resourceId}/{authorisation-category}`) for the redirect approach, over
 * any resource's use cases: start an authorisation, list them, read one's SCA status; and the
 * links of a 2.x creation answer. Consents and payments name their categories.
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { LaterSca } from "../../domain/deps.js";
import { psuLanguage, readPsuId } from "../headers.js";
import type { ResourcePaths } from "../profile.js";
import { readApproachPreference } from "../sca-approach.js";

export const href = (path: string) => ({ href: path });

/** A 2.x creation's _links: the redirect the creation started, or where the TPP starts one. */
export function creationLinks(scaRedirect: string | null, paths: ResourcePaths) {
  return {
    ...(scaRedirect === null ? { startAuthorisation: href(paths.authorisations) }
      : { scaRedirect: href(scaRedirect),
        scaStatus: href(paths.authorisation ?? paths.authorisations) }),
    self: href(paths.self), status: href(paths.status),
  };
}

/** One authorisation category of a resource (`R`: the resource as its path names it). */
export interface AuthorisationCategory<R> {
  segment: "authorisations" | "cancellation-authorisations";
  start(ref: R, sca: LaterSca): Promise<{ authorisationId: string; scaRedirect: string }>;
  list(ref: R): Promise<readonly { id: string }[]>;
  /** Throws RESOURCE_UNKNOWN for an id that is not one of the resource's authorisations. */
  scaStatus(ref: R, authorisationId: string): Promise<string>;
}

export interface AuthorisationRoutes<R> {
  /** The resource's path, with its parameters (e.g. `/psd2/v2/consents/account-access/:id`). */
  path: string;
  /** The resource's route options (role, refusal schemas, reference headers). */
  route: RouteShorthandOptions;
  refOf(request: FastifyRequest): R;
  categories: readonly AuthorisationCategory<R>[];
}

type ByAuthorisation = { Params: { authorisationId: string } };

/** The redirect approach alone: a preference is read (and refused if malformed), not followed. */
function redirectSca(request: FastifyRequest): LaterSca {
  readApproachPreference(request.headers);
  return { lang: psuLanguage(request.headers), namedPsu: readPsuId(request.headers),
    approach: "redirect" };
}

export function authorisationRoutes<R>(app: FastifyInstance, routes: AuthorisationRoutes<R>) {
  const { path, route, refOf } = routes;
  for (const category of routes.categories) {
    const at = `${path}/${category.segment}`;
    app.post(at, route, async (request, reply) => {
      const started = await category.start(refOf(request), redirectSca(request));
      const self = `${request.url.split("?")[0]}/${started.authorisationId}`;
      return reply.code(201).headers({ Location: self, "ASPSP-SCA-Approach": "REDIRECT" }).send({
        scaStatus: "received", authorisationId: started.authorisationId,
        _links: { scaRedirect: href(started.scaRedirect), scaStatus: href(self) },
      });
    });
    app.get(at, route, async (request) => {
      const all = await category.list(refOf(request));
      return { authorisationIds: all.map((a) => a.id) };
    });
    app.get<ByAuthorisation>(`${at}/:authorisationId`, route, async (request) => ({
      scaStatus: await category.scaStatus(refOf(request), request.params.authorisationId),
    }));
  }
}
