/**
 * Revocation by CRL files (ETSI TS 119 495 leaves CRL or OCSP to the QTSP; files are what an
 * offline bank can mirror). A CRL counts only when its signature verifies against a trusted CA
 * with the same name as the certificate's issuer; a CRL that cannot be read or verified makes the
 * status unknown, and unknown fails closed: a forged or truncated file must not unrevoke anyone.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { readFile, stat } from "node:fs/promises";
import { pemCertificates } from "./trust.js";

export type RevocationStatus = "good" | "revoked" | "unknown";

interface CachedCrl { stamp: string; crl: x509.X509Crl | null }

export interface RevocationChecker { status(der: Uint8Array): Promise<RevocationStatus> }

async function loadCrl(path: string): Promise<x509.X509Crl | null> {
  try {
    return new x509.X509Crl(await readFile(path));
  } catch {
    return null;
  }
}

/** `trusted`: the trust store's CA certificates (PEM); `files`: CRL paths, PEM or DER. */
export function createCrlChecker(
  files: readonly string[], trusted: readonly string[],
): RevocationChecker {
  // A trust store is one bundle of several QTSP CAs: each of them may sign a CRL.
  const anchors = pemCertificates(trusted).map((pem) => new x509.X509Certificate(pem));
  // Re-read only when a file changes, so a CRL the operator replaces counts on the next connection.
  const cache = new Map<string, CachedCrl>();

  async function current(path: string): Promise<x509.X509Crl | null> {
    const info = await stat(path).catch(() => null);
    if (!info) return null;
    const stamp = `${info.mtimeMs}:${info.size}`;
    const cached = cache.get(path);
    if (cached?.stamp === stamp) return cached.crl;
    const crl = await loadCrl(path);
    const verified = crl && (await signedByAnchor(crl)) ? crl : null;
    cache.set(path, { stamp, crl: verified });
    return verified;
  }

  async function signedByAnchor(crl: x509.X509Crl): Promise<boolean> {
    for (const anchor of anchors.filter((a) => a.subject === crl.issuer)) {
      if (await crl.verify({ publicKey: anchor.publicKey }).catch(() => false)) return true;
    }
    return false;
  }

  return {
    async status(der) {
      if (files.length === 0) return "good";
      const cert = new x509.X509Certificate(der.slice());
      let unknown = false;
      for (const path of files) {
        const crl = await current(path);
        if (!crl) {
          unknown = true;
          continue;
        }
        if (crl.issuer !== cert.issuer) continue;
        if (crl.findRevoked(cert)) return "revoked";
      }
      return unknown ? "unknown" : "good";
    },
  };
}
