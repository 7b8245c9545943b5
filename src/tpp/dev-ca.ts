/**
 * The development CA: issues the bank's TLS server certificate and demo TPP certificates with
 * the ETSI TS 119 495 PSD2 QCStatement, so the mTLS path can be exercised without a QTSP.
 * Never a production trust anchor. Keys are ECDSA P-256 in PKCS#8 PEM (what Node tls and curl
 * take); files are only ever written under the directory the caller names.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import {
  createPrivateKey,
  createPublicKey,
  webcrypto,
  X509Certificate as NodeX509,
} from "node:crypto";
import { open, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import { encodeQcStatements, OID_QC_STATEMENTS, type PspRole } from "./qc-statement.js";

x509.cryptoProvider.set(globalThis.crypto);

export interface KeyAndCertificate {
  certPem: string;
  keyPem: string;
}

export interface TppCertificateRequest {
  /** O and CN */
  name: string;
  /** e.g. "PSDDE-BAFIN-123456" */
  organizationIdentifier: string;
  roles: PspRole[];
  /** default "Federal Financial Supervisory Authority" for BAFIN, otherwise the NCA code */
  ncaName?: string;
  /**
   * nCAId to write instead of the one derived from organizationIdentifier: only for
   * certificates that must be refused (mismatch, malformed organizationIdentifier)
   */
  ncaId?: string;
  /** SAN dNSNames (IP literals become iPAddress); default ["localhost"] */
  domains?: string[];
  /** default now - 1 h */
  notBefore?: Date;
  /** default now + 1 year */
  notAfter?: Date;
  /** for tests of refusals */
  withoutQcStatement?: boolean;
  /** the CA; overrides the `ca` argument when given */
  issuer?: KeyAndCertificate;
  /** the certificate's key: ECDSA P-256 (default) or RSA 2048, as QTSPs issue both */
  keyType?: KeyType;
  /** an OCSP responder named in Authority Information Access */
  ocspUrl?: string;
}

export type KeyType = "ECDSA" | "RSA";

export interface DevCertificatePaths {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  tppCert: string;
  tppKey: string;
}

const HOUR_MS = 60 * 60 * 1000;
const YEAR_MS = 365 * 24 * HOUR_MS;
const EC_P256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const DEFAULT_CA_NAME = "psd2-bank Development CA";
const DEFAULT_HOSTNAMES = ["localhost", "127.0.0.1", "::1"];
/** ETSI EN 319 411-2 QCP-w and TS 119 495 QCP-w-psd2: what a real QWAC asserts. */
const QWAC_POLICIES = ["0.4.0.194112.1.4", "0.4.0.19495.3.1"];
const NCA_NAMES: Readonly<Record<string, string>> = {
  BAFIN: "Federal Financial Supervisory Authority",
};
const ORG_ID = /^PSD([A-Z]{2})-([A-Z]{2,8})-(.+)$/;

interface Signer {
  key: webcrypto.CryptoKey;
  algorithm: { name: string; hash: string };
}

const RSA_2048 = {
  name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
} as const;

async function generateKeys(type: KeyType = "ECDSA"): Promise<webcrypto.CryptoKeyPair> {
  return crypto.subtle.generateKey(type === "RSA" ? RSA_2048 : EC_P256, true, ["sign", "verify"]) as
    Promise<webcrypto.CryptoKeyPair>;
}

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
}

const CURVES: Readonly<Record<string, [string, string]>> = {
  prime256v1: ["P-256", "SHA-256"],
  secp384r1: ["P-384", "SHA-384"],
  secp521r1: ["P-521", "SHA-512"],
};

/** Accepts any PEM private key Node reads, so a CA brought from elsewhere (RSA, SEC1) works. */
async function importSigner(keyPem: string): Promise<Signer> {
  const key = createPrivateKey(keyPem);
  const pkcs8 = key.export({ type: "pkcs8", format: "der" });
  if (key.asymmetricKeyType === "ec") {
    const curve = CURVES[key.asymmetricKeyDetails?.namedCurve ?? ""];
    if (!curve) throw new Error("CA key uses an unsupported elliptic curve");
    const [namedCurve, hash] = curve;
    const imported = await crypto.subtle.importKey(
      "pkcs8", pkcs8, { name: "ECDSA", namedCurve }, false, ["sign"]);
    return { key: imported, algorithm: { name: "ECDSA", hash } };
  }
  if (key.asymmetricKeyType === "rsa") {
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const imported = await crypto.subtle.importKey("pkcs8", pkcs8, algorithm, false, ["sign"]);
    return { key: imported, algorithm };
  }
  throw new Error(`CA key type ${key.asymmetricKeyType ?? "unknown"} is not supported`);
}

function assertKeyMatches(pair: KeyAndCertificate, what: string): void {
  const spki = { type: "spki", format: "der" } as const;
  const fromKey = createPublicKey(createPrivateKey(pair.keyPem)).export(spki);
  const fromCert = new NodeX509(pair.certPem).publicKey.export(spki);
  if (!fromKey.equals(fromCert)) throw new Error(`${what}: private key does not match certificate`);
}

/** 16 random bytes with the top bit clear and the next set: positive and exactly 16 bytes. */
function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x3f) | 0x40;
  return Buffer.from(bytes).toString("hex");
}

function subjectAltNames(names: string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    names.map((value): x509.JsonGeneralName => ({ type: isIP(value) ? "ip" : "dns", value })));
}

/** Self-signed CA: basicConstraints CA (pathLen 0), keyCertSign + cRLSign, 10 years. */
export async function createDevCa(commonName = DEFAULT_CA_NAME): Promise<KeyAndCertificate> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [commonName] }, { O: [DEVELOPMENT_ORGANIZATION] }],
    notBefore: new Date(now - HOUR_MS),
    notAfter: new Date(now + 10 * YEAR_MS),
    keys,
    signingAlgorithm: { name: "ECDSA", hash: "SHA-256" },
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await exportKeyPem(keys.privateKey) };
}

interface LeafSpec {
  subject: x509.JsonNameParams;
  notBefore: Date;
  notAfter: Date;
  extensions: x509.Extension[];
  keyType?: KeyType;
}

async function issueLeaf(ca: KeyAndCertificate, spec: LeafSpec): Promise<KeyAndCertificate> {
  assertKeyMatches(ca, "CA");
  const caCert = new x509.X509Certificate(ca.certPem);
  const signer = await importSigner(ca.keyPem);
  const keys = await generateKeys(spec.keyType);
  const caKeyId = caCert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const authorityKeyId = caKeyId
    ? new x509.AuthorityKeyIdentifierExtension(caKeyId)
    : await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: new x509.Name(spec.subject),
    issuer: caCert.subjectName,
    notBefore: spec.notBefore,
    notAfter: spec.notAfter,
    publicKey: keys.publicKey,
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      ...spec.extensions,
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      authorityKeyId,
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await exportKeyPem(keys.privateKey) };
}

/**
 * TLS server certificate: SAN dNSName / iPAddress per hostname, 2 years. EKU serverAuth, and
 * clientAuth too: in sandbox it is also the bank's client certificate when it pushes statuses to
 * TPPs (NOTIFICATION_CLIENT_CERT_FILE unset), and a TPP's endpoint checks the purpose.
 */
export async function issueServerCertificate(
  ca: KeyAndCertificate,
  hostnames: string[],
): Promise<KeyAndCertificate> {
  const first = hostnames[0];
  if (first === undefined) throw new Error("a server certificate needs at least one hostname");
  const now = Date.now();
  return issueLeaf(ca, {
    subject: [{ CN: [first] }],
    notBefore: new Date(now - HOUR_MS),
    notAfter: new Date(now + 2 * YEAR_MS),
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(
        [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      subjectAltNames(hostnames),
    ],
  });
}

function tppNca(req: TppCertificateRequest): { country: string | undefined; ncaId: string } {
  const m = ORG_ID.exec(req.organizationIdentifier);
  const derived = m ? `${m[1] ?? ""}-${m[2] ?? ""}` : undefined;
  const ncaId = req.ncaId ?? derived;
  if (ncaId === undefined) {
    throw new Error(`organizationIdentifier "${req.organizationIdentifier}" does not match ` +
      "PSD<CC>-<NCA>-<number>; pass ncaId to issue a deliberately invalid certificate");
  }
  const country = m?.[1] ?? /^([A-Z]{2})-/.exec(ncaId)?.[1];
  return { country, ncaId };
}

/**
 * QWAC-like TPP certificate: subject C/O/CN/organizationIdentifier, EKU clientAuth,
 * keyUsage digitalSignature, qcStatements with the PSD2 statement (nCAId derived from the
 * organizationIdentifier unless `req.ncaId` says otherwise).
 */
export async function issueTppCertificate(
  ca: KeyAndCertificate,
  req: TppCertificateRequest,
): Promise<KeyAndCertificate> {
  const { country, ncaId } = tppNca(req);
  const nca = ncaId.slice(3);
  const ncaName = req.ncaName ?? NCA_NAMES[nca] ?? nca;
  const now = Date.now();
  const extensions: x509.Extension[] = [
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    subjectAltNames(req.domains ?? ["localhost"]),
    new x509.CertificatePolicyExtension(QWAC_POLICIES),
    ...(req.ocspUrl ? [new x509.AuthorityInfoAccessExtension({ ocsp: [req.ocspUrl] })] : []),
  ];
  if (!req.withoutQcStatement) {
    const qc = encodeQcStatements({ roles: req.roles, ncaName, ncaId });
    extensions.push(new x509.Extension(OID_QC_STATEMENTS, false, qc));
  }
  // Explicit UTF8String: a plain string value would be unquoted/unescaped by @peculiar/x509
  // (a name like 'A "B" C' became "B").
  const subject: x509.JsonNameParams = [
    ...(country ? [{ C: [country] }] : []),
    { O: [{ utf8String: req.name }] },
    { CN: [{ utf8String: req.name }] },
    { "2.5.4.97": [req.organizationIdentifier] },
  ];
  return issueLeaf(req.issuer ?? ca, {
    subject,
    notBefore: req.notBefore ?? new Date(now - HOUR_MS),
    notAfter: req.notAfter ?? new Date(now + YEAR_MS),
    extensions,
    keyType: req.keyType,
  });
}

/** A CRL signed by the CA revoking the given certificates (PEM), valid for a day: for tests. */
export async function issueCrl(ca: KeyAndCertificate, revokedPems: string[]): Promise<string> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const signer = await importSigner(ca.keyPem);
  const now = Date.now();
  const crl = await x509.X509CrlGenerator.create({
    issuer: caCert.subjectName,
    thisUpdate: new Date(now - HOUR_MS),
    nextUpdate: new Date(now + 24 * HOUR_MS),
    entries: revokedPems.map((pem) => ({
      serialNumber: new x509.X509Certificate(pem).serialNumber,
      revocationDate: new Date(now - HOUR_MS),
    })),
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
  });
  return crl.toString("pem");
}

/** Reads a PEM certificate and PEM private key, and checks that they belong together. */
export async function loadKeyAndCertificate(
  certPath: string,
  keyPath: string,
): Promise<KeyAndCertificate> {
  const pair = {
    certPem: await readFile(certPath, "utf8"),
    keyPem: await readFile(keyPath, "utf8"),
  };
  try {
    assertKeyMatches(pair, certPath);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot use ${certPath} with ${keyPath}: ${reason}`, { cause: err });
  }
  return pair;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Temp file + rename, so a crash never leaves half a PEM and keys are never world-readable. */
async function writeAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomSerial().slice(0, 8)}.tmp`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

async function writePair(pair: KeyAndCertificate, certPath: string, keyPath: string) {
  await writeAtomic(keyPath, pair.keyPem, 0o600);
  await writeAtomic(certPath, pair.certPem, 0o644);
}

async function loadIfPresent(certPath: string, keyPath: string) {
  if (!(await exists(certPath)) || !(await exists(keyPath))) return null;
  return loadKeyAndCertificate(certPath, keyPath);
}

/** A leaf is kept only while it still chains to the current CA, is valid, and fits. */
const CLIENT_AUTH_OID = "1.3.6.1.5.5.7.3.2";

function leafStillFits(leaf: KeyAndCertificate, ca: KeyAndCertificate, hosts: string[]) {
  const cert = new NodeX509(leaf.certPem);
  const caCert = new NodeX509(ca.certPem);
  if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) return false;
  if (new Date(cert.validTo).getTime() <= Date.now()) return false;
  // Certificates of earlier versions lack clientAuth (see issueServerCertificate).
  if (!(cert.keyUsage ?? []).includes(CLIENT_AUTH_OID)) return false;
  return hosts.every((h) => (isIP(h) ? cert.checkIP(h) : cert.checkHost(h)) !== undefined);
}

/**
 * Several processes (parallel test files, a server and a CLI) may start at once; without the
 * lock two of them could each mint a CA and leave leaves that chain to neither.
 */
/** Issuing takes well under a second, so an older lock was left by a process that died. */
const STALE_LOCK_MS = 10_000;

async function withDirLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, ".dev-ca.lock");
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await (await open(lock, "wx")).close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

export const DEMO_TPP: Readonly<TppCertificateRequest> = {
  name: "Demo TPP",
  organizationIdentifier: "PSDDE-BAFIN-123456",
  roles: ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"],
};

/**
 * Creates in `dir`, only when missing: ca.crt/ca.key, server.crt/server.key (for `hostnames`,
 * default localhost/127.0.0.1/::1), tpp.crt/tpp.key (DEMO_TPP). A CA is also replaced when
 * expired; a leaf when it no longer chains to the CA, has expired, or (server) does not cover
 * all `hostnames`. Keys get mode 0600.
 */
export async function ensureDevCertificates(
  dir: string,
  hostnames: string[],
): Promise<DevCertificatePaths & { created: boolean }> {
  const paths: DevCertificatePaths = {
    dir,
    caCert: join(dir, "ca.crt"), caKey: join(dir, "ca.key"),
    serverCert: join(dir, "server.crt"), serverKey: join(dir, "server.key"),
    tppCert: join(dir, "tpp.crt"), tppKey: join(dir, "tpp.key"),
  };
  const hosts = hostnames.length > 0 ? hostnames : DEFAULT_HOSTNAMES;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const created = await withDirLock(dir, async () => {
    let changed = false;
    let ca = await loadIfPresent(paths.caCert, paths.caKey);
    if (!ca || new Date(new NodeX509(ca.certPem).validTo).getTime() <= Date.now()) {
      ca = await createDevCa();
      await writePair(ca, paths.caCert, paths.caKey);
      changed = true;
    }
    const server = await loadIfPresent(paths.serverCert, paths.serverKey);
    if (!server || !leafStillFits(server, ca, hosts)) {
      await writePair(await issueServerCertificate(ca, hosts), paths.serverCert, paths.serverKey);
      changed = true;
    }
    const tpp = await loadIfPresent(paths.tppCert, paths.tppKey);
    if (!tpp || !leafStillFits(tpp, ca, [])) {
      const issued = await issueTppCertificate(ca, { ...DEMO_TPP, roles: [...DEMO_TPP.roles] });
      await writePair(issued, paths.tppCert, paths.tppKey);
      changed = true;
    }
    return changed;
  });
  return { ...paths, created };
}

const DEVELOPMENT_ORGANIZATION = "psd2-bank development";

/** Whether any certificate in a PEM bundle is the development CA or issued by it. */
export function mentionsDevelopmentCa(pemBundle: string): boolean {
  const pems =
    pemBundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return pems.some((pem) => {
    const certificate = new NodeX509(pem);
    return [certificate.subject, certificate.issuer]
      .some((name) => name.includes(`O=${DEVELOPMENT_ORGANIZATION}`));
  });
}
