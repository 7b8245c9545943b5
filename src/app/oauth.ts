/**
 * The OAuth 2.0 authorisation server where the bank offers the oauth approach, its keys made once
 * and shared by every instance through the store.
 */
import type { Config } from "../config.js";
import type { Deps } from "../domain/deps.js";
import { freshCookieKey, freshSigningKey, parseSigningKey } from "../oauth/keys.js";
import { createOAuthServer, type OAuthServer } from "../oauth/server.js";
import type { Store } from "../store/db.js";
import { API_BASE, redirectRules } from "./api-routes.js";

export async function oauthServer(
  config: Config, store: Store, deps: Deps, urls: { auth: () => string; api: () => string },
): Promise<OAuthServer | null> {
  if (!config.scaApproaches.includes("oauth")) return null;
  const [signingKey, cookieKey] = await Promise.all([
    store.secrets.getOrCreate(store.db, "oauth-signing-key", freshSigningKey()),
    store.secrets.getOrCreate(store.db, "oauth-cookie-key", freshCookieKey()),
  ]);
  return createOAuthServer({
    deps, authUrl: urls.auth, apiUrl: urls.api, resource: `${config.publicApiUrl}${API_BASE}`,
    signingKey: parseSigningKey(signingKey),
    cookieKeys: [cookieKey], redirects: redirectRules(config),
    lifetimes: {
      codeSeconds: config.oauthCodeSeconds, accessTokenSeconds: config.oauthAccessTokenSeconds,
      refreshTokenSeconds: config.oauthRefreshTokenSeconds,
    },
  });
}
