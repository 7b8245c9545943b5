/**
 * The scaRedirect link and its token: a JWT signed with HS256 under a key kept in the database
 * (so every instance agrees), with type, audience, issuer and expiry checked against an algorithm
 * allow-list. The token names only the authorisation; everything shown is loaded server-side.
 * Single use is enforced when the token is exchanged for a session (domain/sca/authorisation.ts).
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { errors, jwtVerify } from "jose";
import type { ScaLinks } from "../domain/deps.js";
import type { RedirectClaims } from "../domain/sca/authorisation.js";
import type { Clock } from "../lib/clock.js";
import { newUuid } from "../lib/ids.js";

const ISSUER = "psd2-bank";
const AUDIENCE = "psd2-bank-sca";
const TYPE = "sca-redirect+jwt";

export interface ScaRedirectOptions {
  authUrl: () => string; key: Uint8Array; ttlSeconds: number; clock: Clock;
}

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString("base64url");
const HEADER = base64url({ alg: "HS256", typ: TYPE });

/**
 * Signed here with one synchronous HMAC: jose's sign imports the key and hops to the thread pool
 * on every call, which cost about a sixth of a payment initiation. Verification stays with jose.
 * The key is a KeyObject made once: from raw bytes, createHmac makes one on every call (13-29 µs
 * against 3-4 µs a token, measured on 2026-11-27).
 */
function signHs256(claims: Record<string, string | number>, key: KeyObject): string {
  const input = `${HEADER}.${base64url(claims)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

/** Addresses parsed, by their text: the auth URL and a resource type, so a handful. */
const parsed = new Map<string, URL>();

/**
 * `address` with `query`, as `URL` writes it, the address parsed once: setting each parameter
 * through `url.searchParams` writes the whole query again every time (12 µs a link against 2-5,
 * measured on 2026-11-28). An address with a query or fragment of its own keeps it, as before.
 */
function withQuery(address: string, query: URLSearchParams): string {
  let url = parsed.get(address);
  if (!url) {
    if (parsed.size >= 16) parsed.clear();
    url = new URL(address);
    parsed.set(address, url);
  }
  if (/[?#]/.test(url.href)) {
    const own = new URL(url);
    for (const [name, value] of query) own.searchParams.set(name, value);
    return own.toString();
  }
  return `${url.href}?${query}`;
}

export function createScaRedirects({ authUrl, key, ttlSeconds, clock }: ScaRedirectOptions) {
  const signingKey = createSecretKey(key);
  const links: ScaLinks = {
    async scaRedirect(link) {
      const now = Math.floor(clock.now().getTime() / 1000);
      const token = signHs256({
        iss: ISSUER, aud: AUDIENCE, sub: link.authorisationId, jti: newUuid(), iat: now,
        exp: now + ttlSeconds,
      }, signingKey);
      const query = new URLSearchParams({
        loc: link.lang === "de" ? "de_DE" : "en_US", lang: link.lang,
        successUrl: link.redirectUri, failureUrl: link.nokRedirectUri ?? link.redirectUri,
      });
      if (link.resourceType === "payment") query.set("sessionId", link.authorisationId);
      query.set("token", token);
      return withQuery(`${authUrl()}/sca/${link.resourceType}`, query);
    },
  };

  const check = (token: string) => jwtVerify(token, key, {
    algorithms: ["HS256"], issuer: ISSUER, audience: AUDIENCE, typ: TYPE,
    currentDate: clock.now(), requiredClaims: ["jti", "sub", "exp"],
  });

  /** The claims of a genuine, unexpired token, or null for anything else. */
  async function verify(token: string): Promise<RedirectClaims | null> {
    try {
      const { payload } = await check(token);
      return {
        jti: String(payload.jti), authorisationId: String(payload.sub),
        expiresAt: new Date(Number(payload.exp) * 1000).toISOString(),
      };
    } catch {
      return null;
    }
  }

  /**
   * The authorisation of a genuine token that has only expired, so that its page can lead back
   * to the TPP; jose checks the signature, issuer, audience and type before the expiry.
   */
  async function expiredFor(token: string): Promise<string | undefined> {
    try {
      await check(token);
      return undefined;
    } catch (error) {
      return error instanceof errors.JWTExpired && typeof error.payload.sub === "string"
        ? error.payload.sub : undefined;
    }
  }

  return { links, verify, expiredFor };
}

export type ScaRedirects = ReturnType<typeof createScaRedirects>;
