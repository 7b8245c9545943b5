/**
 * The OAuth authorisation server's interaction on the PSU's side: the server hands the browser
 * here with the TPP's pushed request, whose scope names one consent or payment; the PSU then
 * passes the very SCA of that resource on the redirect pages (login, device, code, review,
 * decision), and the result page leads back here, where the server answers the TPP's redirect_uri
 * with a code only if the PSU authorised it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { OAuthAuthorisations, OAuthRefusal } from "../domain/sca/oauth.js";
import type { ScaProblem } from "../domain/sca/problems.js";
import { requestLanguage } from "./plugin.js";

/** What an interaction asks the PSU to authorise (the authorisation server's view of it). */
interface InteractionRequest { uid: string; clientId: string; scope: string; lang: string }

type Outcome =
  | { psuId: string; confirmationCode?: string } | { error: string; description: string };

/** The authorisation server as these pages use it (src/oauth/server.ts). */
export interface OAuthInteractions {
  /** The server's own endpoints (authorisation, metadata, keys) answer the request. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The interaction behind the browser's cookie; throws when it is unknown or expired. */
  interaction(req: IncomingMessage, res: ServerResponse): Promise<InteractionRequest>;
  /** Ends it: the server redirects the browser to the TPP with the code or the error. */
  finish(
    req: IncomingMessage, res: ServerResponse, asked: InteractionRequest, outcome: Outcome,
  ): Promise<void>;
}

export interface OAuthPagesOptions {
  oauth: OAuthAuthorisations;
  interactions: OAuthInteractions;
  /** The auth listener's public URL, where the result page leads back to. */
  authUrl: () => string;
}

/** What the SCA pages lend: their session cookie and their page for a problem. */
export interface ScaPageParts {
  setSession(reply: FastifyReply, secret: string): void;
  secretOf(request: FastifyRequest): string | undefined;
  problemPage(reply: FastifyReply, lang: string, problem: ScaProblem, status: number): unknown;
}

const REFUSALS: Record<OAuthRefusal | "denied", Extract<Outcome, { error: string }>> = {
  scope_invalid: { error: "invalid_scope", description: "The scope must name exactly one consent "
    + "or payment: AIS:<consentId>, PIS:<paymentId> or PIIS:<consentId>." },
  resource_unknown: { error: "access_denied",
    description: "The scope names no consent or payment of this client for that service." },
  no_authorisation: { error: "access_denied", description: "No authorisation of the resource "
    + "waits for the PSU: start one (POST .../authorisations) and push a new request." },
  already_decided: { error: "access_denied",
    description: "The resource is no longer waiting for the PSU's authorisation." },
  denied: { error: "access_denied", description: "The PSU did not authorise the resource." },
};

/** The interaction of this browser, or a page saying it is over. */
async function interactionOf(
  request: FastifyRequest, reply: FastifyReply, options: OAuthPagesOptions, parts: ScaPageParts,
): Promise<InteractionRequest | undefined> {
  try {
    return await options.interactions.interaction(request.raw, reply.raw);
  } catch {
    void parts.problemPage(reply, requestLanguage(request), "session_expired", 400);
    return undefined;
  }
}

/** The server's browser-facing endpoints, handed over before Fastify reads any body. */
function serverRoutes(app: FastifyInstance, interactions: OAuthInteractions): void {
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    interactions.handle(request.raw, reply.raw);
  };
  const handler = async () => undefined;
  for (const url of ["/oauth/*", "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration"]) {
    app.route({ method: ["GET", "POST"], url, onRequest, handler });
  }
}

export function oauthPages(
  app: FastifyInstance, options: OAuthPagesOptions, parts: ScaPageParts,
): void {
  serverRoutes(app, options.interactions);
  const path = "/oauth/interaction/:uid";
  app.get(path, async (request, reply) => {
    const asked = await interactionOf(request, reply, options, parts);
    if (!asked) return;
    const opened = await options.oauth.open({
      tppId: asked.clientId, scope: asked.scope, lang: asked.lang,
      returnTo: `${options.authUrl()}/oauth/interaction/${asked.uid}/finish`,
    });
    if (!opened.ok) {
      reply.hijack();
      return options.interactions.finish(request.raw, reply.raw, asked, REFUSALS[opened.refusal]);
    }
    parts.setSession(reply, opened.secret);
    return reply.redirect("/sca/login", 303);
  });

  app.get(`${path}/finish`, async (request, reply) => {
    const asked = await interactionOf(request, reply, options, parts);
    if (!asked) return;
    const outcome = await options.oauth.outcome(parts.secretOf(request),
      { tppId: asked.clientId, scope: asked.scope });
    reply.hijack();
    return options.interactions.finish(request.raw, reply.raw, asked,
      outcome.granted ? { psuId: outcome.psuId, confirmationCode: outcome.confirmationCode }
        : REFUSALS[outcome.refusal]);
  });
}
