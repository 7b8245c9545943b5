/**
 * The bank's OAuth 2.0 authorisation server for Berlin Group's OAuth2 SCA approach, built on
 * oidc-provider (OpenID-certified, FAPI 2.0 Security Profile) rather than hand-written token or
 * PKCE code. Our part is what the library leaves to its host: persistence (records.ts), which
 * client a certificate is, and the PSU's login, which is the SCA of the consent or payment the
 * scope names (domain/sca/oauth.ts, on the SCA pages). FAPI 2.0 as configured: pushed requests
 * only, PKCE S256, response_type=code, `iss` in the response, mutual-TLS client authentication
 * and certificate-bound tokens (RFC 8705), refresh tokens not rotated.
 */
import { createHash, X509Certificate } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { Configuration, JWK, KoaContextWithOIDC } from "oidc-provider";
import type { Deps } from "../domain/deps.js";
import { redirectUriProblem, type RedirectRules } from "../domain/kernel/redirect-uri.js";
import { scopedResources } from "../domain/sca/oauth.js";
import { escapeHtml } from "../lib/html.js";
import { isLanguage, negotiateLanguage } from "../lib/languages.js";
import { createRecordAdapter, subjectOf } from "./records.js";

export interface OAuthLifetimes {
  codeSeconds: number; accessTokenSeconds: number; refreshTokenSeconds: number;
}

export interface OAuthServerOptions {
  deps: Deps;
  /** The auth listener's public URL: the issuer, where the PSU's browser meets the server. */
  authUrl: () => string;
  /** The API listener's public URL: the endpoints that need the TPP's certificate. */
  apiUrl: () => string;
  /**
   * The XS2A API's resource indicator (RFC 8707), the one resource server tokens are for: the
   * public URL, the same on every instance.
   */
  resource: string;
  /** The server's signing key (private JWK, ES256), the same on every instance. */
  signingKey: JWK;
  /** Keys its cookies are signed with, the same on every instance. */
  cookieKeys: string[];
  lifetimes: OAuthLifetimes;
  /** A pushed redirect_uri is judged as TPP-Redirect-URI is on the XS2A API. */
  redirects: RedirectRules;
}

/** A TPP's certificate as the API listener verified it (chain, revocation, PSD2 profile). */
export interface ClientCertificate { clientId: string; der: Uint8Array; domains: readonly string[] }

export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize", pushed_authorization_request: "/oauth/par",
  token: "/oauth/token", introspection: "/oauth/introspect", revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
} as const;

/** The endpoints a TPP calls with its certificate: on the API listener (mTLS aliases). */
export const MTLS_ROUTES = [
  OAUTH_ROUTES.pushed_authorization_request, OAUTH_ROUTES.token, OAUTH_ROUTES.introspection,
  OAUTH_ROUTES.revocation,
] as const;

export const INTERACTION_PATH = "/oauth/interaction";
export const METADATA_PATH = "/.well-known/oauth-authorization-server";

/** The certificates of the requests in flight, as the API listener verified them. */
type Certificates = WeakMap<IncomingMessage,
  { clientId: string; x509: X509Certificate; domains: readonly string[] }>;

function mtls(certificates: Certificates): NonNullable<Configuration["features"]>["mTLS"] {
  const of = (ctx: KoaContextWithOIDC) => certificates.get(ctx.req);
  return {
    enabled: true, certificateBoundAccessTokens: true, tlsClientAuth: true,
    selfSignedTlsClientAuth: false,
    getCertificate: (ctx) => of(ctx)?.x509,
    // Only a certificate our own checks accepted is ever handed over.
    certificateAuthorized: (ctx) => of(ctx) !== undefined,
    certificateSubjectMatches: (ctx, property, expected) => {
      const found = of(ctx);
      return property === "tls_client_auth_subject_dn" && found !== undefined
        && expected === subjectOf(found.clientId);
    },
  };
}

const ownToken = async (
  _ctx: unknown, client: { clientId: string }, token: { clientId?: string },
) => token.clientId === client.clientId;

/**
 * A refusal the server cannot send back to the TPP (an unknown client, a redirect_uri not pushed)
 * is shown to the PSU: as plain as our pages, nothing from elsewhere, no style or script.
 */
const renderError: Configuration["renderError"] = async (ctx, out) => {
  const rows = Object.entries(out).map(([name, value]) =>
    `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(String(value))}</dd>`).join("");
  ctx.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  ctx.type = "html";
  ctx.body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Authorisation refused`
    + `</title><h1>Authorisation refused</h1><dl>${rows}</dl></html>`;
};

function features(options: OAuthServerOptions, certificates: Certificates, library: Library) {
  const mtlsAliases = Object.fromEntries(Object.entries(OAUTH_ROUTES)
    .filter(([, path]) => (MTLS_ROUTES as readonly string[]).includes(path))
    .map(([name, path]) => [`${name}_endpoint`, `${options.apiUrl()}${path}`]));
  const features: Configuration["features"] = {
    devInteractions: { enabled: false },
    fapi: { enabled: true, profile: "2.0" },
    pushedAuthorizationRequests: {
      enabled: true, requirePushedAuthorizationRequests: true, allowUnregisteredRedirectUris: true,
    },
    mTLS: mtls(certificates),
    // A TPP introspects and revokes its own tokens only.
    introspection: { enabled: true, allowedPolicy: ownToken },
    revocation: { enabled: true, allowedPolicy: ownToken },
    resourceIndicators: resourceIndicators(options, library.errors),
    userinfo: { enabled: false },
    rpInitiatedLogout: { enabled: false },
  };
  return { features, mtlsAliases };
}

/** The scopes a request, code or refresh token carries that a token of the XS2A API may have. */
function xs2aScopes(ctx: KoaContextWithOIDC): string {
  const { params, entities } = ctx.oidc;
  const carried = [params?.scope, entities.AuthorizationCode?.scope, entities.RefreshToken?.scope];
  const scopes = carried.flatMap((scope) => String(scope ?? "").split(" "))
    .filter((scope) => scope === "offline_access" || scopedResources(scope).length > 0);
  return [...new Set(scopes)].join(" ");
}

/**
 * The library keeps only its static scopes unless a resource server (RFC 8707) takes others: the
 * XS2A API is that server, taking the scopes that name a consent or payment; opaque tokens, so
 * that revoking one takes effect at once.
 */
/** The library itself, imported when first needed: commands that serve no OAuth never load it. */
type Library = typeof import("oidc-provider");

function resourceIndicators(options: OAuthServerOptions, errors: Library["errors"]) {
  const { resource } = options;
  return {
    enabled: true,
    defaultResource: async () => resource,
    useGrantedResource: async () => true,
    getResourceServerInfo: async (ctx: KoaContextWithOIDC, indicator: string) => {
      if (indicator !== resource) throw new errors.InvalidTarget();
      return {
        scope: xs2aScopes(ctx), accessTokenFormat: "opaque" as const,
        accessTokenTTL: options.lifetimes.accessTokenSeconds,
      };
    },
  };
}

/**
 * Refresh tokens for an account information consent only, and only when asked for: `offline_access`
 * with `prompt=consent`, as OpenID Connect Core (11) has it.
 */
function issueRefreshToken(lifetimes: OAuthLifetimes): Configuration["issueRefreshToken"] {
  return async (_ctx, client, code) => lifetimes.refreshTokenSeconds > 0
    && client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access")
    && [...code.scopes].some((scope) => scopedResources(scope)[0]?.service === "AIS");
}

function configuration(
  options: OAuthServerOptions, certificates: Certificates, library: Library,
): Configuration {
  const { lifetimes } = options;
  const { features: enabled, mtlsAliases } = features(options, certificates, library);
  const codeReused = () => new library.errors.InvalidGrant("the code was already used");
  return {
    adapter: createRecordAdapter(options.deps, codeReused),
    jwks: { keys: [options.signingKey] },
    cookies: { keys: options.cookieKeys },
    features: enabled,
    discovery: { mtls_endpoint_aliases: mtlsAliases },
    routes: OAUTH_ROUTES,
    responseTypes: ["code"],
    clientAuthMethods: ["tls_client_auth"],
    pkce: { required: () => true },
    scopes: ["offline_access"],
    issueRefreshToken: issueRefreshToken(lifetimes),
    rotateRefreshToken: false,
    renderError,
    // Every authorisation is the SCA of one resource: only the grant this interaction's SCA
    // made counts, never an earlier one of the browser's session.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    ttl: {
      AccessToken: lifetimes.accessTokenSeconds, AuthorizationCode: lifetimes.codeSeconds,
      RefreshToken: lifetimes.refreshTokenSeconds, Interaction: 1_800, Session: 600,
      Grant: Math.max(lifetimes.refreshTokenSeconds, lifetimes.accessTokenSeconds),
    },
  };
}

/** The PSU's language for the SCA pages: the request's ui_locales, else the browser's. */
function languageOf(uiLocales: unknown, acceptLanguage: string | undefined): string {
  const asked = String(uiLocales ?? "").split(" ").map((tag) => tag.split("-")[0]?.toLowerCase());
  return asked.find(isLanguage) ?? negotiateLanguage(acceptLanguage) ?? "en";
}

/** What an interaction asks the PSU to authorise. */
export interface InteractionRequest { uid: string; clientId: string; scope: string; lang: string }

/** How the PSU's SCA ended: a grant to this PSU, or the TPP learns the refusal. */
/** A grant, with the confirmation code the authorisation response carries where one is held. */
export type InteractionOutcome =
  | { psuId: string; confirmationCode?: string } | { error: string; description: string };

export const sha256Thumbprint = (der: Uint8Array) =>
  createHash("sha256").update(der).digest("base64url");

/** An access token presented to the XS2A API, as the server knows it. */
export type TokenVerdict =
  | { ok: true; clientId: string; scope: string }
  | { ok: false; reason: "unknown" | "expired" | "unbound" };

/**
 * The library checks a pushed redirect_uri only as its client metadata rules say, which let http
 * (FAPI 2.0 5.3.2.2 wants https), credentials, addresses and any host by: a pushed request is
 * taken back and refused unless its redirect_uri passes the rule TPP-Redirect-URI passes.
 */
function refuseForeignRedirects(
  provider: Provider, rules: RedirectRules, certificates: Certificates,
): void {
  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx;
    if (oidc?.route !== "pushed_authorization_request" || ctx.status !== 201) return;
    const domains = certificates.get(ctx.req)?.domains ?? [];
    const problem = redirectUriProblem(
      "redirect_uri", String(oidc.params?.redirect_uri ?? ""), rules, domains);
    if (problem === null) return;
    await oidc.entities.PushedAuthorizationRequest?.destroy();
    ctx.status = 400;
    ctx.body = { error: "invalid_request", error_description: problem };
  });
}

/**
 * AUTHORISATION_CONFIRMATION on the OAuth approach's way back: the authorisation response to the
 * TPP's redirect_uri carries the code the interaction's result holds, beside `code` and `state`
 * (the library lets a listener add to the response's parameters before it is sent).
 */
function carryConfirmationCode(provider: Provider): void {
  provider.on("authorization.success", (ctx, out) => {
    const held = (ctx.oidc.result as { confirmationCode?: unknown } | undefined)
      ?.confirmationCode;
    if (out && typeof held === "string") out.confirmationCode = held;
  });
}

export function createOAuthServer(options: OAuthServerOptions) {
  const certificates: Certificates = new WeakMap();
  // Built on first use: with port 0 (tests) the listeners' URLs are known only then.
  type Built = { provider: Provider; callback: ReturnType<Provider["callback"]> };
  let built: Promise<Built> | undefined;
  const server = () => built ??= import("oidc-provider").then((library) => {
    const provider = new library.default(
      options.authUrl(), configuration(options, certificates, library));
    refuseForeignRedirects(provider, options.redirects, certificates);
    carryConfirmationCode(provider);
    return { provider, callback: provider.callback() };
  });

  return {
    metadataUrl: () => `${options.authUrl()}${METADATA_PATH}`,
    /** Hands a request to the server; `client` is the certificate the API listener verified. */
    handle(req: IncomingMessage, res: ServerResponse, client?: ClientCertificate): void {
      if (client) {
        const { clientId, der, domains } = client;
        certificates.set(req, { clientId, x509: new X509Certificate(der), domains });
      }
      // RFC 8414's address of the metadata the library serves as OpenID discovery.
      if (req.url?.split("?")[0] === METADATA_PATH) req.url = "/.well-known/openid-configuration";
      void server().then(({ callback }) => callback(req, res));
    },
    async interaction(req: IncomingMessage, res: ServerResponse): Promise<InteractionRequest> {
      const { provider } = await server();
      const details = await provider.interactionDetails(req, res);
      return {
        uid: details.uid, clientId: String(details.params.client_id),
        scope: String(details.params.scope ?? ""),
        lang: languageOf(details.params.ui_locales, req.headers["accept-language"]),
      };
    },
    async finish(
      req: IncomingMessage, res: ServerResponse, asked: InteractionRequest,
      outcome: InteractionOutcome,
    ): Promise<void> {
      const { provider } = await server();
      if ("error" in outcome) {
        const result = { error: outcome.error, error_description: outcome.description };
        return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      }
      const grant = new provider.Grant({ accountId: outcome.psuId, clientId: asked.clientId });
      const scopes = asked.scope.split(" ");
      grant.addOIDCScope(scopes.filter((scope) => scope === "offline_access"));
      grant.addResourceScope(options.resource, asked.scope);
      const grantId = await grant.save();
      const result = { login: { accountId: outcome.psuId }, consent: { grantId },
        ...(outcome.confirmationCode && { confirmationCode: outcome.confirmationCode }) };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    },
    async verifyAccessToken(value: string, der: Uint8Array): Promise<TokenVerdict> {
      const { provider } = await server();
      const token = await provider.AccessToken.find(value, { ignoreExpiration: true });
      if (!token) return { ok: false, reason: "unknown" };
      if (token.isExpired) return { ok: false, reason: "expired" };
      if (token["x5t#S256"] !== sha256Thumbprint(der)) return { ok: false, reason: "unbound" };
      return { ok: true, clientId: token.clientId ?? "", scope: token.scope ?? "" };
    },
  };
}

export type OAuthServer = ReturnType<typeof createOAuthServer>;
