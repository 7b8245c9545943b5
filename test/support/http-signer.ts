/**
 * A TPP's HTTP signer for tests (Berlin Group, draft-cavage-http-signatures-10): Digest of the
 * body, Signature over the Berlin Group header set, TPP-Signature-Certificate. Every part can be
 * overridden, so tests can send each kind of wrong signature. Plug it into TppClient.signer (or
 * a call's `sign`; signing another body than the one sent is how a test tampers with a body).
 */
import { createHash, createPrivateKey, sign } from "node:crypto";
import type { KeyAndCertificate } from "../../src/tpp/dev-ca.js";
import { certificateHeader, keyIdOf } from "../../src/tpp/http-signer.js";
import type { RequestSigner } from "./tpp-client.js";

export { certificateHeader, keyIdOf };

export interface SignerOptions {
  /** SHA-256 (default) or SHA-512; any other name is sent as is with a SHA-256 value. */
  digestAlgorithm?: string;
  /** The algorithm parameter; default rsa-sha256 for RSA keys, hs2019 otherwise. */
  algorithm?: string;
  /**
   * Signed headers (lowercase) in order; default (request-target), digest, x-request-id and
   * those present of date, psu-id, psu-corporate-id, tpp-redirect-uri.
   */
  headers?: string[];
  /** Replaces the keyId derived from the certificate. */
  keyId?: string;
  /** The certificate sent in TPP-Signature-Certificate instead of the signing one. */
  sentCertificate?: string;
}

function digestOf(algorithm: string, body: string): string {
  const hash = algorithm.toUpperCase() === "SHA-512" ? "sha512" : "sha256";
  return `${algorithm}=${createHash(hash).update(body, "utf8").digest("base64")}`;
}

const OPTIONAL_SIGNED = ["date", "psu-id", "psu-corporate-id", "tpp-redirect-uri"];

export function httpSigner(signing: KeyAndCertificate, options: SignerOptions = {}): RequestSigner {
  const key = createPrivateKey(signing.keyPem);
  const rsa = key.asymmetricKeyType === "rsa";
  const keyId = options.keyId ?? keyIdOf(signing.certPem);
  const certificate = certificateHeader(options.sentCertificate ?? signing.certPem);
  return ({ method, target, headers, body }) => {
    // A repeated header is signed as its values joined by ", " (draft-cavage 2.3).
    const lower = new Map(Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), [value].flat().join(", ")]));
    const added = { Digest: digestOf(options.digestAlgorithm ?? "SHA-256", body) };
    lower.set("digest", added.Digest);
    const names = options.headers
      ?? ["(request-target)", "digest", "x-request-id", ...OPTIONAL_SIGNED.filter((name) => lower.has(name))];
    const text = names.map((name) => name === "(request-target)"
      ? `${name}: ${method.toLowerCase()} ${target}` : `${name}: ${lower.get(name) ?? ""}`).join("\n");
    const signature = sign("sha256", Buffer.from(text), key).toString("base64");
    const algorithm = options.algorithm ?? (rsa ? "rsa-sha256" : "hs2019");
    return {
      ...added,
      Signature: `keyId="${keyId}",algorithm="${algorithm}",headers="${names.join(" ")}",signature="${signature}"`,
      "TPP-Signature-Certificate": certificate,
    };
  };
}
