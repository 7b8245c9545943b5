/**
 * The demo TPP as the bank's OAuth2 client, written as a TPP writes it against the wire: the
 * authorisation server's metadata (RFC 8414), a pushed request (PAR) with a PKCE S256 pair over
 * mutual TLS at the mtls_endpoint_aliases, and the code exchanged there for a token bound to the
 * certificate. The browser's part happens in between, at the bank.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Xs2aClient } from "./xs2a-client.js";

interface Metadata {
  issuer: string; authorization_endpoint: string;
  mtls_endpoint_aliases: { pushed_authorization_request_endpoint: string; token_endpoint: string };
}

/** A pushed request waiting for the PSU: what the callback needs to redeem its code. */
export interface Pending { verifier: string; redirectUri: string }

const FORM = { "Content-Type": "application/x-www-form-urlencoded", "X-Request-ID": null };

export function createOAuthClient(bank: Xs2aClient, issuer: string, clientId: string) {
  let metadata: Promise<Metadata> | undefined;
  const discover = () => metadata ??= bank
    .get<Metadata>(`${issuer}/.well-known/oauth-authorization-server`, { "X-Request-ID": null })
    .then((res) => res.body);
  const post = async <T>(url: string, fields: Record<string, string>) => {
    const body = new URLSearchParams({ client_id: clientId, ...fields }).toString();
    return bank.call<T>("POST", url, { body, headers: FORM });
  };

  return {
    /** Pushes the request for `scope`; the browser goes to the returned address. */
    async push(scope: string, state: string, redirectUri: string) {
      const found = await discover();
      const verifier = randomBytes(32).toString("base64url");
      const pushed = await post<{ request_uri?: string }>(
        found.mtls_endpoint_aliases.pushed_authorization_request_endpoint, {
          response_type: "code", scope, state, redirect_uri: redirectUri,
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
        });
      const requestUri = pushed.body?.request_uri;
      if (!requestUri) return { ok: false as const, answer: pushed };
      const url = new URL(found.authorization_endpoint);
      url.search = new URLSearchParams({ client_id: clientId, request_uri: requestUri }).toString();
      return { ok: true as const, url: url.toString(), pending: { verifier, redirectUri } };
    },
    /** The code of the callback for a token, if the answer came from this issuer (RFC 9207). */
    async redeem(pending: Pending, query: { code?: string; iss?: string }) {
      const found = await discover();
      if (query.iss !== found.issuer || !query.code) return undefined;
      const tokens = await post<{ access_token?: string }>(
        found.mtls_endpoint_aliases.token_endpoint, {
          grant_type: "authorization_code", code: query.code, redirect_uri: pending.redirectUri,
          code_verifier: pending.verifier,
        });
      return tokens.body?.access_token;
    },
  };
}
