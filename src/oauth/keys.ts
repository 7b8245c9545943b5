/**
 * The authorisation server's keys, made once and kept in the database (src/app/oauth.ts), so
 * that every instance signs and verifies alike: an ES256 signing key (FAPI 2.0 allows PS256,
 * ES256, EdDSA) and a key for its cookies.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JWK } from "oidc-provider";

export function freshSigningKey(): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = privateKey.export({ format: "jwk" });
  return JSON.stringify({ ...jwk, alg: "ES256", use: "sig", kid: randomBytes(8).toString("hex") });
}

export const freshCookieKey = () => randomBytes(32).toString("base64url");

export const parseSigningKey = (stored: string) => JSON.parse(stored) as JWK;
