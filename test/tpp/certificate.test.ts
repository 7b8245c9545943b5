/**
 * Tests of reading a TPP's identity from its certificate (src/tpp/certificate.ts) and of the
 * PSD2 QCStatement ASN.1 (src/tpp/qc-statement.ts), including over a real mTLS connection.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import * as asn1js from "asn1js";
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { before, describe, test } from "node:test";
import type { TLSSocket } from "node:tls";
import { parseTppCertificate, type TppIdentity } from "../../src/tpp/certificate.js";
import {
  createDevCa,
  issueServerCertificate,
  issueTppCertificate,
  type KeyAndCertificate,
  type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import {
  decodePsd2QcStatement,
  encodeQcStatements,
  listQcStatementIds,
  OID_QC_STATEMENTS,
} from "../../src/tpp/qc-statement.js";

x509.cryptoProvider.set(globalThis.crypto);

const ALL_ROLES = ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"] as const;
const DEMO: TppCertificateRequest = {
  name: "Demo TPP",
  organizationIdentifier: "PSDDE-BAFIN-123456",
  roles: [...ALL_ROLES],
};

function der(pair: KeyAndCertificate): Uint8Array {
  return new X509Certificate(pair.certPem).raw;
}

function reasonOf(bytes: Uint8Array): string {
  const result = parseTppCertificate(bytes);
  assert.equal(result.ok, false, "the certificate should have been refused");
  if (result.ok) return "";
  assert.equal(result.problem.code, "CERTIFICATE_INVALID");
  return result.problem.reason;
}

function identityOf(bytes: Uint8Array): TppIdentity {
  const result = parseTppCertificate(bytes);
  if (!result.ok) assert.fail(`refused: ${result.problem.reason}`);
  return result.identity;
}

/** Deterministic, so a fuzz failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function role(oid: string, name: string): asn1js.Sequence {
  return new asn1js.Sequence({
    value: [new asn1js.ObjectIdentifier({ value: oid }), new asn1js.Utf8String({ value: name })],
  });
}

/** A qcStatements value with a hand-made PSD2 statement, for shapes dev-ca refuses to make. */
function psd2Statements(roles: asn1js.Sequence[], ncaName: string, ncaId: string): ArrayBuffer {
  const psd2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: roles }),
      new asn1js.Utf8String({ value: ncaName }),
      new asn1js.Utf8String({ value: ncaId }),
    ],
  });
  return new asn1js.Sequence({
    value: [new asn1js.Sequence({
      value: [new asn1js.ObjectIdentifier({ value: "0.4.0.19495.2" }), psd2],
    })],
  }).toBER(false);
}

/** Self-signed is enough: parseTppCertificate deliberately does not look at the chain. */
async function craft(subject: x509.JsonName, qcStatements?: ArrayBuffer): Promise<Uint8Array> {
  const keys = await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const extensions = qcStatements
    ? [new x509.Extension(OID_QC_STATEMENTS, false, qcStatements)]
    : [];
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: subject, keys, extensions, signingAlgorithm: { name: "ECDSA", hash: "SHA-256" },
  });
  return new Uint8Array(cert.rawData);
}

const ORG_SUBJECT: x509.JsonName = [{ O: ["Crafted TPP"] }, { "2.5.4.97": ["PSDDE-BAFIN-77"] }];

let ca: KeyAndCertificate;
before(async () => {
  ca = await createDevCa("Test CA");
});

describe("parseTppCertificate", () => {
  test("a TPP certificate issued by the dev CA parses back to every identity field", async () => {
    const notBefore = new Date("2025-01-01T00:00:00Z");
    const notAfter = new Date("2027-06-30T12:00:00Z");
    const tpp = await issueTppCertificate(ca, {
      ...DEMO, domains: ["tpp.example", "API.tpp.example", "localhost"], notBefore, notAfter,
    });
    const node = new X509Certificate(tpp.certPem);
    const identity = identityOf(node.raw);
    assert.deepEqual(identity, {
      id: "PSDDE-BAFIN-123456",
      name: "Demo TPP",
      roles: ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"],
      ncaId: "DE-BAFIN",
      ncaName: "Federal Financial Supervisory Authority",
      authorisationNumber: "123456",
      domains: ["tpp.example", "api.tpp.example", "localhost"],
      serialNumber: node.serialNumber.toLowerCase(),
      issuer: "CN=Test CA, O=psd2-bank development",
      notBefore,
      notAfter,
    });
    assert.match(identity.serialNumber, /^[0-9a-f]{32}$/);
  });

  test("the identity reports the validity window without judging it", async () => {
    const notAfter = new Date("2020-01-01T00:00:00Z");
    const notBefore = new Date("2019-01-01T00:00:00Z");
    const expired = await issueTppCertificate(ca, { ...DEMO, notBefore, notAfter });
    assert.deepEqual(identityOf(der(expired)).notAfter, notAfter);
  });

  test("a common name that looks like a host name counts as a domain", async () => {
    const tpp = await issueTppCertificate(ca, {
      ...DEMO, name: "Pay.Example.com", domains: ["pay.example.com", "www.example.com"],
    });
    const identity = identityOf(der(tpp));
    assert.deepEqual(identity.domains, ["pay.example.com", "www.example.com"]);
    assert.equal(identity.name, "Pay.Example.com");
  });

  test("another NCA's certificate has its nCAId and, by default, its code as name", async () => {
    const tpp = await issueTppCertificate(ca, {
      name: "Fintech SAS", organizationIdentifier: "PSDFR-ACPR-12345", roles: ["PSP_AI"],
    });
    const identity = identityOf(der(tpp));
    assert.equal(identity.ncaId, "FR-ACPR");
    assert.equal(identity.ncaName, "ACPR");
    assert.equal(identity.authorisationNumber, "12345");
    assert.deepEqual(identity.roles, ["PSP_AI"]);
  });

  test("a certificate without a qcStatements extension is refused", async () => {
    const tpp = await issueTppCertificate(ca, { ...DEMO, withoutQcStatement: true });
    assert.match(reasonOf(der(tpp)), /no qcStatements extension/);
  });

  test("qcStatements without the PSD2 statement are refused", async () => {
    const onlyCompliance = new asn1js.Sequence({
      value: [new asn1js.Sequence({
        value: [new asn1js.ObjectIdentifier({ value: "0.4.0.1862.1.1" })],
      })],
    }).toBER(false);
    assert.match(reasonOf(await craft(ORG_SUBJECT, onlyCompliance)), /no PSD2 statement/);
  });

  test("a PSD2 statement without roles is refused", async () => {
    const tpp = await issueTppCertificate(ca, { ...DEMO, roles: [] });
    assert.match(reasonOf(der(tpp)), /no roles/);
  });

  test("a PSD2 statement with an unknown role OID is refused", async () => {
    const qc = psd2Statements([role("0.4.0.19495.1.9", "PSP_XX")], "BaFin", "DE-BAFIN");
    assert.match(reasonOf(await craft(ORG_SUBJECT, qc)), /unknown role OID 0\.4\.0\.19495\.1\.9/);
  });

  test("a role whose OID and name disagree is refused", async () => {
    const qc = psd2Statements([role("0.4.0.19495.1.3", "PSP_PI")], "BaFin", "DE-BAFIN");
    assert.match(reasonOf(await craft(ORG_SUBJECT, qc)), /disagrees with role name "PSP_PI"/);
  });

  test("a subject without organizationIdentifier is refused", async () => {
    const qc = psd2Statements([role("0.4.0.19495.1.3", "PSP_AI")], "BaFin", "DE-BAFIN");
    const bytes = await craft([{ CN: ["no org id"] }], qc);
    assert.match(reasonOf(bytes), /no organizationIdentifier/);
  });

  for (const orgId of ["DE-BAFIN-123456", "PSDDE-bafin-1", "PSDDE-BAFIN-", "PSDDEU-BAFIN-1"]) {
    test(`organizationIdentifier "${orgId}", not PSD<CC>-<NCA>-<id>, is refused`, async () => {
      const tpp = await issueTppCertificate(ca, {
        ...DEMO, organizationIdentifier: orgId, ncaId: "DE-BAFIN",
      });
      assert.match(reasonOf(der(tpp)), /organizationIdentifier .* does not match/);
    });
  }

  test("an nCAId that disagrees with the organizationIdentifier is refused", async () => {
    const tpp = await issueTppCertificate(ca, { ...DEMO, ncaId: "FR-ACPR" });
    assert.match(reasonOf(der(tpp)), /nCAId "FR-ACPR" disagrees with .*PSDDE-BAFIN-123456/);
  });

  test("a malformed nCAId is refused", async () => {
    const tpp = await issueTppCertificate(ca, { ...DEMO, ncaId: "DEBAFIN" });
    assert.match(reasonOf(der(tpp)), /nCAId "DEBAFIN" does not match/);
  });

  test("bytes that are not a certificate are refused with a reason", async () => {
    const real = der(await issueTppCertificate(ca, DEMO));
    const pem = new TextEncoder().encode(new X509Certificate(real).toString());
    const trailing = new Uint8Array([...real, 0]);
    for (const bytes of [new Uint8Array(0), new Uint8Array([0x30, 0x00]), pem, trailing]) {
      assert.ok(reasonOf(bytes).length > 0);
    }
    assert.match(reasonOf(trailing), /trailing bytes/);
  });
});

describe("parseTppCertificate on hostile input", () => {
  test("random bytes never make it throw", () => {
    const random = prng(1);
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 300));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      if (i % 2 === 0 && bytes.length > 0) bytes[0] = 0x30;
      assert.equal(parseTppCertificate(bytes).ok, false);
    }
  });

  test("every truncation of a real certificate is refused without throwing", async () => {
    const real = der(await issueTppCertificate(ca, DEMO));
    for (let length = 0; length < real.length; length++) {
      assert.equal(parseTppCertificate(real.subarray(0, length)).ok, false, `length ${length}`);
    }
  });

  test("corrupted bytes of a real certificate never make it throw", async () => {
    const real = der(await issueTppCertificate(ca, DEMO));
    const random = prng(2);
    for (let i = 0; i < 3000; i++) {
      const bytes = real.slice();
      const flips = 1 + Math.floor(random() * 4);
      for (let f = 0; f < flips; f++) {
        const at = Math.floor(random() * bytes.length);
        bytes[at] = (bytes[at] ?? 0) ^ (1 << Math.floor(random() * 8));
      }
      const result = parseTppCertificate(bytes);
      if (result.ok) assert.ok(result.identity.roles.length > 0);
      else assert.equal(result.problem.code, "CERTIFICATE_INVALID");
    }
  });
});

describe("the PSD2 QCStatement", () => {
  test("encoding and decoding give back the roles, nCAName and nCAId", () => {
    const psd2 = { roles: ["PSP_PI", "PSP_AI"], ncaName: "BaFin", ncaId: "DE-BAFIN" } as const;
    const value = encodeQcStatements({ ...psd2, roles: [...psd2.roles] });
    assert.deepEqual(decodePsd2QcStatement(value), {
      roles: ["PSP_PI", "PSP_AI"], ncaName: "BaFin", ncaId: "DE-BAFIN",
    });
  });

  test("the encoding declares QC compliance and the web QcType next to the PSD2 statement", () => {
    const value = encodeQcStatements({ roles: ["PSP_AI"], ncaName: "BaFin", ncaId: "DE-BAFIN" });
    assert.deepEqual(listQcStatementIds(value), [
      "0.4.0.1862.1.1", "0.4.0.1862.1.6", "0.4.0.19495.2",
    ]);
    const parsed = asn1js.fromBER(value).result;
    const qcType = parsed instanceof asn1js.Sequence ? parsed.valueBlock.value[1] : undefined;
    const types = qcType instanceof asn1js.Sequence ? qcType.valueBlock.value[1] : undefined;
    const web = types instanceof asn1js.Sequence ? types.valueBlock.value[0] : undefined;
    assert.ok(web instanceof asn1js.ObjectIdentifier);
    assert.equal(web.getValue(), "0.4.0.1862.1.6.3");
  });

  test("decoding refuses garbage, truncation and a duplicated PSD2 statement", () => {
    const value = encodeQcStatements({ roles: ["PSP_AI"], ncaName: "BaFin", ncaId: "DE-BAFIN" });
    for (let length = 0; length < value.byteLength; length++) {
      assert.ok("error" in decodePsd2QcStatement(value.slice(0, length)));
    }
    const statement = psd2Statements([role("0.4.0.19495.1.3", "PSP_AI")], "BaFin", "DE-BAFIN");
    const inner = (asn1js.fromBER(statement).result as asn1js.Sequence).valueBlock.value;
    const twice = new asn1js.Sequence({ value: [...inner, ...inner] }).toBER(false);
    assert.deepEqual(decodePsd2QcStatement(twice), {
      error: "qcStatements has more than one PSD2 statement",
    });
  });
});

describe("TPP certificates against node:crypto and TLS", () => {
  test("node:crypto confirms the TPP certificate was issued and signed by the dev CA", async () => {
    const caCert = new X509Certificate(ca.certPem);
    const tpp = new X509Certificate((await issueTppCertificate(ca, DEMO)).certPem);
    assert.equal(caCert.ca, true);
    assert.equal(tpp.ca, false);
    assert.equal(tpp.checkIssued(caCert), true);
    assert.equal(tpp.verify(caCert.publicKey), true);
    assert.deepEqual(tpp.keyUsage, ["1.3.6.1.5.5.7.3.2"]);
    const stranger = new X509Certificate((await createDevCa("Stranger CA")).certPem);
    assert.equal(tpp.checkIssued(stranger), false);
    assert.equal(tpp.verify(stranger.publicKey), false);
  });

  test("an mTLS server reads the TPP identity from the peer certificate", async (t) => {
    const server = await issueServerCertificate(ca, ["localhost", "127.0.0.1", "::1"]);
    const tpp = await issueTppCertificate(ca, DEMO);
    const foreign = await issueTppCertificate(await createDevCa("Foreign CA"), DEMO);
    const seen = await withMtlsServer(server, async (get) => [
      await get(tpp), await get(foreign), await get(undefined),
    ]);
    t.diagnostic(`seen: ${JSON.stringify(seen.map((s) => s.authorized))}`);
    const [trusted, untrusted, anonymous] = seen;
    assert.equal(trusted?.authorized, true);
    assert.deepEqual(trusted?.identity?.roles, ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"]);
    assert.equal(trusted?.identity?.id, "PSDDE-BAFIN-123456");
    assert.equal(untrusted?.authorized, false, "a certificate from another CA is not authorized");
    assert.ok(untrusted?.identity, "parsing alone does not judge the chain");
    assert.equal(anonymous?.authorized, false);
    assert.equal(anonymous?.identity, undefined);
  });
});

interface Seen { authorized: boolean; identity: TppIdentity | undefined }
type Get = (client: KeyAndCertificate | undefined) => Promise<Seen>;

async function withMtlsServer<T>(pair: KeyAndCertificate, fn: (get: Get) => Promise<T>) {
  const seen: Seen[] = [];
  const server = https.createServer({
    key: pair.keyPem, cert: pair.certPem, ca: ca.certPem,
    requestCert: true, rejectUnauthorized: false,
  }, (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerX509Certificate();
    const parsed = peer ? parseTppCertificate(peer.raw) : undefined;
    const identity = parsed?.ok ? parsed.identity : undefined;
    seen.push({ authorized: socket.authorized, identity });
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const get: Get = (client) => new Promise((resolve, reject) => {
    const req = https.request({
      host: "127.0.0.1", port, path: "/", agent: false, ca: ca.certPem,
      ...(client ? { cert: client.certPem, key: client.keyPem } : {}),
    }, (res) => {
      res.resume();
      res.on("end", () => {
        const last = seen.at(-1);
        if (last) resolve(last);
        else reject(new Error("the handler saw nothing"));
      });
    });
    req.on("error", reject);
    req.end();
  });
  try {
    return await fn(get);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
