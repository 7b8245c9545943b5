/**
 * The listeners' TLS material: the development CA's certificates under DATA_DIR in sandbox, or
 * the bank's own files, which production refuses when the development CA made them.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, type Config } from "../config.js";
import {
  ensureDevCertificates, mentionsDevelopmentCa, type DevCertificatePaths,
} from "../tpp/dev-ca.js";
import { checkDataDir } from "./store.js";

export interface TlsMaterial { key: Buffer; cert: Buffer; ca: Buffer[] }

function hostnames(config: Config): string[] {
  const names = ["localhost", "127.0.0.1", "::1"];
  for (const url of [config.publicApiUrl, config.publicAuthUrl]) {
    names.push(new URL(url).hostname.replace(/^\[|\]$/g, ""));
  }
  return [...new Set(names)];
}

async function devTlsMaterial(certificates: DevCertificatePaths): Promise<TlsMaterial> {
  const [key, cert, ca] = await Promise.all([
    readFile(certificates.serverKey), readFile(certificates.serverCert),
    readFile(certificates.caCert),
  ]);
  return { key, cert, ca: [ca] };
}

/** The bank's configured TLS files; production refuses anything made by the development CA. */
async function ownTlsMaterial(config: Config): Promise<TlsMaterial> {
  const read = (name: string, file: string) => readFile(file).catch((error: Error) => {
    throw new ConfigError(`Invalid configuration:\n  - ${name} cannot be read: ${error.message}`);
  });
  const [key, cert, ca] = await Promise.all([
    read("TLS_KEY_FILE", config.tlsKeyFile), read("TLS_CERT_FILE", config.tlsCertFile),
    read("TPP_TRUST_STORE_FILE", config.tppTrustStoreFile),
  ]);
  if (config.mode === "production") {
    const dev = [["TLS_CERT_FILE", cert], ["TPP_TRUST_STORE_FILE", ca]] as const;
    const refused = dev.filter(([, pem]) => mentionsDevelopmentCa(pem.toString()))
      .map(([name]) => name);
    if (refused.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  - ${refused.join(", ")}: `
        + "production mode refuses certificates of the psd2-bank development CA");
    }
  }
  return { key, cert, ca: [ca] };
}

/**
 * The development CA's certificates under DATA_DIR unless the bank has its own TLS files
 * (certificates null then), and the material the listeners use.
 */
export async function tlsFor(
  config: Config,
): Promise<{ certificates: DevCertificatePaths | null; tls: TlsMaterial }> {
  if (config.tlsCertFile) return { certificates: null, tls: await ownTlsMaterial(config) };
  checkDataDir(config);
  const certificates = await ensureDevCertificates(
    join(config.dataDir, "certs"), hostnames(config));
  return { certificates, tls: await devTlsMaterial(certificates) };
}
