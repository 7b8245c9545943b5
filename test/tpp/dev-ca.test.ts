/**
 * Tests of the development CA (src/tpp/dev-ca.ts): what it issues, checked with node:crypto and
 * openssl, and the certificate directory it maintains.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseTppCertificate } from "../../src/tpp/certificate.js";
import {
  createDevCa,
  ensureDevCertificates,
  issueServerCertificate,
  issueTppCertificate,
  loadKeyAndCertificate,
  type DevCertificatePaths,
  type KeyAndCertificate,
  type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";

x509.cryptoProvider.set(globalThis.crypto);

const DAY_MS = 24 * 60 * 60 * 1000;
const DEMO = {
  name: "Demo TPP",
  organizationIdentifier: "PSDDE-BAFIN-123456",
  roles: ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"],
} as const;

function lifetimeDays(cert: X509Certificate): number {
  return (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / DAY_MS;
}

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function opensslText(pem: string): string {
  return execFileSync("openssl", ["x509", "-noout", "-text"], { input: pem, encoding: "utf8" });
}

let ca: KeyAndCertificate;
let scratch: string;
before(async () => {
  ca = await createDevCa();
  scratch = await mkdtemp(join(tmpdir(), "psd2-dev-ca-"));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the development CA", () => {
  test("createDevCa makes a self-signed ten-year CA with a PKCS#8 P-256 key", () => {
    const cert = new X509Certificate(ca.certPem);
    assert.equal(cert.ca, true);
    assert.equal(cert.checkIssued(cert), true);
    assert.equal(cert.verify(cert.publicKey), true);
    assert.match(cert.subject, /CN=psd2-bank Development CA/);
    assert.ok(Math.abs(lifetimeDays(cert) - 3650) < 1, `lifetime ${lifetimeDays(cert)} days`);
    assert.match(ca.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    const key = createPrivateKey(ca.keyPem);
    assert.equal(key.asymmetricKeyType, "ec");
    assert.equal(key.asymmetricKeyDetails?.namedCurve, "prime256v1");
  });

  test("the CA may sign certificates and CRLs but not act as a TLS peer", async (t) => {
    if (!hasOpenssl()) return t.skip("openssl is not installed");
    const text = opensslText(ca.certPem);
    assert.match(text, /CA:TRUE/);
    assert.match(text, /Certificate Sign, CRL Sign/);
    assert.doesNotMatch(text, /TLS Web/);
  });

  test("a server certificate covers DNS names and IP addresses for two years", async () => {
    const server = await issueServerCertificate(ca, ["localhost", "127.0.0.1", "::1"]);
    const cert = new X509Certificate(server.certPem);
    const caCert = new X509Certificate(ca.certPem);
    assert.equal(cert.checkIssued(caCert), true);
    assert.equal(cert.verify(caCert.publicKey), true);
    assert.equal(cert.checkHost("localhost"), "localhost");
    assert.equal(cert.checkIP("127.0.0.1"), "127.0.0.1");
    assert.equal(cert.checkIP("::1"), "::1");
    assert.equal(cert.checkHost("example.com"), undefined);
    // serverAuth, and clientAuth: it is also the bank's client certificate for pushed statuses.
    assert.deepEqual(cert.keyUsage, ["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    assert.ok(Math.abs(lifetimeDays(cert) - 730) < 1);
    assert.match(server.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
  });

  test("a server certificate without any hostname is refused", async () => {
    await assert.rejects(issueServerCertificate(ca, []), /at least one hostname/);
  });

  test("TPP certificates get distinct positive 16-byte serial numbers", async () => {
    const serials = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const serial = new X509Certificate((await issueTppCertificate(ca, demoRequest())).certPem)
        .serialNumber;
      assert.match(serial, /^[4-7][0-9A-F]{31}$/);
      serials.add(serial);
    }
    assert.equal(serials.size, 5);
  });

  test("a TPP certificate is valid from an hour ago for one year by default", async () => {
    const before = Date.now();
    const cert = new X509Certificate((await issueTppCertificate(ca, demoRequest())).certPem);
    const from = Date.parse(cert.validFrom);
    assert.ok(from <= before - 59 * 60 * 1000 && from >= before - 61 * 60 * 1000);
    assert.ok(Math.abs(lifetimeDays(cert) - 365) < 1);
  });

  test("openssl shows the organizationIdentifier and the qcStatements of a TPP certificate",
    async (t) => {
      if (!hasOpenssl()) return t.skip("openssl is not installed");
      const text = opensslText((await issueTppCertificate(ca, demoRequest())).certPem);
      assert.match(text, /Subject: C ?= ?DE, O ?= ?Demo TPP, CN ?= ?Demo TPP, /);
      assert.match(text, /organizationIdentifier ?= ?PSDDE-BAFIN-123456/);
      assert.match(text, /qcStatements/);
      assert.match(text, /TLS Web Client Authentication/);
    });

  test("an organizationIdentifier without an NCA is refused unless nCAId is forced", async () => {
    const req = { ...demoRequest(), organizationIdentifier: "123456" };
    await assert.rejects(issueTppCertificate(ca, req), /does not match PSD<CC>-<NCA>-<number>/);
  });

  test("the issuer in the request is used as the CA", async () => {
    const other = await createDevCa("Other CA");
    const tpp = await issueTppCertificate(ca, { ...demoRequest(), issuer: other });
    const cert = new X509Certificate(tpp.certPem);
    assert.equal(cert.checkIssued(new X509Certificate(other.certPem)), true);
    assert.equal(cert.checkIssued(new X509Certificate(ca.certPem)), false);
  });

  test("a CA with an RSA key can issue as well", async () => {
    const rsaCa = await rsaSelfSignedCa();
    const tpp = await issueTppCertificate(rsaCa, demoRequest());
    const cert = new X509Certificate(tpp.certPem);
    assert.equal(cert.verify(new X509Certificate(rsaCa.certPem).publicKey), true);
    assert.equal(createPrivateKey(tpp.keyPem).asymmetricKeyType, "ec");
  });

  test("a CA whose key does not match its certificate is refused", async () => {
    const other = await createDevCa();
    const mixed = { certPem: ca.certPem, keyPem: other.keyPem };
    await assert.rejects(issueTppCertificate(mixed, demoRequest()), /does not match/);
  });
});

function demoRequest(): TppCertificateRequest {
  return { ...DEMO, roles: [...DEMO.roles] };
}

async function rsaSelfSignedCa(): Promise<KeyAndCertificate> {
  const algorithm = {
    name: "RSASSA-PKCS1-v1_5", hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048,
  };
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: "CN=RSA CA", keys, signingAlgorithm: algorithm,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { certPem: cert.toString("pem"), keyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY") };
}

async function snapshot(paths: DevCertificatePaths): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of ["caCert", "serverCert", "tppCert"] as const) {
    out[name] = await readFile(paths[name], "utf8");
  }
  return out;
}

describe("ensureDevCertificates", () => {
  test("it creates the files once, with private keys readable only by the owner", async () => {
    const dir = join(scratch, "once", "nested");
    const first = await ensureDevCertificates(dir, ["localhost", "127.0.0.1"]);
    assert.equal(first.created, true);
    assert.equal(first.caKey, join(dir, "ca.key"));
    for (const key of [first.caKey, first.serverKey, first.tppKey]) {
      assert.equal((await stat(key)).mode & 0o777, 0o600, key);
    }
    const files = await snapshot(first);
    const second = await ensureDevCertificates(dir, ["localhost", "127.0.0.1"]);
    assert.equal(second.created, false);
    assert.deepEqual(await snapshot(second), files);
  });

  test("the files form a chain and the demo TPP has all four roles", async () => {
    const paths = await ensureDevCertificates(join(scratch, "chain"), []);
    const caCert = new X509Certificate(await readFile(paths.caCert));
    const server = await loadKeyAndCertificate(paths.serverCert, paths.serverKey);
    const tpp = await loadKeyAndCertificate(paths.tppCert, paths.tppKey);
    const serverCert = new X509Certificate(server.certPem);
    assert.equal(serverCert.checkIssued(caCert), true);
    assert.equal(serverCert.checkIP("::1"), "::1", "empty hostnames mean the loopback defaults");
    const parsed = parseTppCertificate(new X509Certificate(tpp.certPem).raw);
    assert.ok(parsed.ok);
    assert.equal(parsed.identity.name, "Demo TPP");
    assert.equal(parsed.identity.id, "PSDDE-BAFIN-123456");
    assert.deepEqual(parsed.identity.roles, ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"]);
  });

  test("it replaces only what is missing or no longer fits", async () => {
    const dir = join(scratch, "repair");
    const paths = await ensureDevCertificates(dir, ["localhost"]);
    const original = await snapshot(paths);

    await unlink(paths.tppKey);
    assert.equal((await ensureDevCertificates(dir, ["localhost"])).created, true);
    const afterTpp = await snapshot(paths);
    assert.equal(afterTpp.caCert, original.caCert);
    assert.equal(afterTpp.serverCert, original.serverCert);
    assert.notEqual(afterTpp.tppCert, original.tppCert);

    await ensureDevCertificates(dir, ["localhost", "bank.test"]);
    const afterHost = await snapshot(paths);
    assert.notEqual(afterHost.serverCert, afterTpp.serverCert);
    assert.equal(afterHost.tppCert, afterTpp.tppCert);
    const serverCert = new X509Certificate(afterHost.serverCert ?? "");
    assert.equal(serverCert.checkHost("bank.test"), "bank.test");

    await unlink(paths.caCert);
    await ensureDevCertificates(dir, ["localhost"]);
    const afterCa = await snapshot(paths);
    for (const name of ["caCert", "serverCert", "tppCert"]) {
      assert.notEqual(afterCa[name], afterHost[name], name);
    }
  });

  test("concurrent calls on one directory agree on a single CA", async () => {
    const dir = join(scratch, "race");
    const results = await Promise.all([1, 2, 3, 4].map(() => ensureDevCertificates(dir, [])));
    assert.equal(results.filter((r) => r.created).length, 1);
    const paths = results[0];
    assert.ok(paths);
    const caCert = new X509Certificate(await readFile(paths.caCert));
    for (const leaf of [paths.serverCert, paths.tppCert]) {
      assert.equal(new X509Certificate(await readFile(leaf)).checkIssued(caCert), true, leaf);
    }
  });

  test("loadKeyAndCertificate refuses a key that belongs to another certificate", async () => {
    const paths = await ensureDevCertificates(join(scratch, "mismatch"), []);
    await assert.rejects(loadKeyAndCertificate(paths.tppCert, paths.serverKey), /does not match/);
    const garbage = join(scratch, "garbage.key");
    await writeFile(garbage, "not a key");
    await assert.rejects(loadKeyAndCertificate(paths.tppCert, garbage));
  });
});
