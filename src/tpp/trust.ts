/**
 * Chain and validity checks for certificates that did not arrive in our own TLS handshake: a
 * QWAC forwarded by a TLS-terminating proxy and the QSealC in TPP-Signature-Certificate. The TLS
 * layer checks its own peer; these get the same two verdicts, in the same order.
 */
import { X509Certificate } from "node:crypto";

export type ChainVerdict = "ok" | "CERTIFICATE_INVALID" | "CERTIFICATE_EXPIRED";

export interface TrustStore {
  /** Chain first (issued by and signed by a trusted CA), then the validity window at `now`. */
  check(der: Uint8Array, now: Date): ChainVerdict;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Each certificate of PEM bundles, as its own PEM. */
export function pemCertificates(bundles: readonly string[]): string[] {
  return bundles.flatMap((pem) => pem.match(PEM_CERTIFICATE) ?? []);
}

function parse(der: Uint8Array): X509Certificate | null {
  try {
    return new X509Certificate(der);
  } catch {
    return null;
  }
}

function issuedBy(cert: X509Certificate, anchor: X509Certificate): boolean {
  try {
    return cert.checkIssued(anchor) && cert.verify(anchor.publicKey);
  } catch {
    return false; // a key the verifier cannot use signs nothing we accept
  }
}

function validAt(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
}

/**
 * Every certificate of the bundles is an anchor, as in the TLS layer's `ca` option: an
 * intermediate the bank lists is trusted without its root. A CA outside its own validity issues
 * nothing we accept.
 */
export function createTrustStore(bundles: readonly string[]): TrustStore {
  const anchors = pemCertificates(bundles).map((pem) => new X509Certificate(pem));
  return {
    check(der, now) {
      const cert = parse(der);
      if (!cert) return "CERTIFICATE_INVALID";
      const issuer = anchors.find((anchor) => issuedBy(cert, anchor));
      if (!issuer || !validAt(issuer, now)) return "CERTIFICATE_INVALID";
      return validAt(cert, now) ? "ok" : "CERTIFICATE_EXPIRED";
    },
  };
}
