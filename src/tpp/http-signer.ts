/**
 * The signing side of Berlin Group application-level signatures (draft-cavage-http-signatures-10,
 * verified by http-signature.ts): the bank signs the notifications it pushes to TPPs with it.
 */
import { createHash, createPrivateKey, sign, X509Certificate } from "node:crypto";

/**
 * keyId as Berlin Group shows it:
 * SN=<hex serial>,CA=<issuer DN, RFC 4514 order, %20 for spaces>.
 */
export function keyIdOf(certPem: string): string {
  const cert = new X509Certificate(certPem);
  const issuer = cert.issuer.split("\n").reverse().join(",").replace(/ /g, "%20");
  return `SN=${cert.serialNumber},CA=${issuer}`;
}

/** base64 DER, as TPP-Signature-Certificate carries it. */
export function certificateHeader(certPem: string): string {
  return new X509Certificate(certPem).raw.toString("base64");
}

export interface SigningRequest {
  method: string;
  target: string;
  /** The headers to sign besides Digest, by their lowercase names. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Digest and Signature over (request-target), digest and the given headers, in that order, and
 * the signing certificate in `certificateHeaderName`.
 */
export function signRequest(
  signing: { keyPem: string; certPem: string }, request: SigningRequest,
  certificateHeaderName: string,
): Record<string, string> {
  const key = createPrivateKey(signing.keyPem);
  const digest = `SHA-256=${createHash("sha256").update(request.body, "utf8").digest("base64")}`;
  const lines = new Map([
    ["(request-target)", `${request.method.toLowerCase()} ${request.target}`],
    ["digest", digest], ...Object.entries(request.headers),
  ]);
  const text = [...lines].map(([name, value]) => `${name}: ${value}`).join("\n");
  const signature = sign("sha256", Buffer.from(text), key).toString("base64");
  const algorithm = key.asymmetricKeyType === "rsa" ? "rsa-sha256" : "hs2019";
  return {
    Digest: digest,
    Signature: `keyId="${keyIdOf(signing.certPem)}",algorithm="${algorithm}",`
      + `headers="${[...lines.keys()].join(" ")}",signature="${signature}"`,
    [certificateHeaderName]: certificateHeader(signing.certPem),
  };
}
