/**
 * Berlin Group HTTP signatures over real mTLS: a bank that requires them and one that only
 * verifies them when present; signers with ECDSA and RSA keys from the development CA, and each
 * way a signature can be wrong.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { after, before, test } from "node:test";
import {
  createDevCa, issueTppCertificate, loadKeyAndCertificate, type KeyAndCertificate, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { createdStatus, CREATION_HEADERS, paymentBody } from "../support/flows.js";
import { httpSigner, keyIdOf, type SignerOptions } from "../support/http-signer.js";
import { startSigningBanks, type SigningBanks } from "../support/signing-banks.js";
import type { TestBank } from "../support/start-app.js";
import type { TppClient, TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";

let banks: SigningBanks;
let strict: TestBank;
let lenient: TestBank;
let demo: KeyAndCertificate;
let lenientDemo: KeyAndCertificate;

before(async () => {
  banks = await startSigningBanks({ REQUIRE_HTTP_SIGNATURE: "true" }, ["PSP_PI", "PSP_AI"]);
  ({ strict, lenient, demo, lenientDemo } = banks);
});
after(() => banks.close());

function assertCode(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
  if (path) assert.equal(res.body.tppMessages[0].path, path, res.text);
}

const certificate = (over: Partial<TppCertificateRequest> = {}, issuer?: KeyAndCertificate) =>
  banks.certificate(over, issuer);

/** A client of `bank` with TLS certificate `tls` whose calls are signed by `signing`. */
const client = (bank: TestBank, tls: KeyAndCertificate, signing?: KeyAndCertificate,
  options?: SignerOptions) => banks.client(bank, tls, signing && httpSigner(signing, options));

const pay = (tpp: TppClient) => tpp.post(SCT, paymentBody(), CREATION_HEADERS);
/** Both banks run in the profile the test run chose (TEST_API_PROFILE). */
const accepted = () => createdStatus(strict.tpp);

test("ECDSA: a signed payment and a signed GET (digest of the empty body) are accepted", async () => {
  const tpp = client(strict, demo, demo);
  const created = await pay(tpp);
  assert.equal(created.status, accepted(), created.text);
  const read = await tpp.get(`${SCT}/${created.body.paymentId}/status`, { "PSU-ID": "alice", Date: new Date().toUTCString() });
  assert.equal(read.status, 200, read.text);
});

test("RSA: a QSealC apart from the QWAC, same organisation, with the names clients send", async () => {
  const seal = await certificate({ keyType: "RSA" });
  for (const algorithm of ["rsa-sha256", "hs2019", "sha-256", "SHA256withRSA"]) {
    assert.equal((await pay(client(strict, demo, seal, { algorithm }))).status, accepted(), algorithm);
  }
  const rsaTls = await certificate({ keyType: "RSA" });
  assert.equal((await pay(client(strict, rsaTls, rsaTls, { digestAlgorithm: "SHA-512" }))).status, accepted());
});

test("a signature is required when the bank says so: 401 SIGNATURE_MISSING; otherwise optional", async () => {
  assertCode(await pay(client(strict, demo)), 401, "SIGNATURE_MISSING", "Signature");
  assert.equal((await pay(client(lenient, lenientDemo))).status, accepted());
});

test("a body changed after signing: 400 SIGNATURE_INVALID on the Digest, 401 when the Digest is redone", async () => {
  const signer = httpSigner(demo);
  const tpp = client(strict, demo);
  const sent = JSON.stringify(paymentBody({ instructedAmount: { currency: "EUR", amount: "9999.00" } }));
  const signedBody = JSON.stringify(paymentBody());
  const tampered = await tpp.call("POST", SCT, {
    rawBody: sent, headers: CREATION_HEADERS, sign: (request) => signer({ ...request, body: signedBody }),
  });
  assertCode(tampered, 400, "SIGNATURE_INVALID", "Digest");
  const redone = await tpp.call("POST", SCT, {
    rawBody: sent, headers: CREATION_HEADERS,
    sign: (request) => ({ ...signer({ ...request, body: signedBody }), Digest: signer(request).Digest ?? "" }),
  });
  assertCode(redone, 401, "SIGNATURE_INVALID", "Signature");
});

test("a Digest other than SHA-256 or SHA-512 is 400 SIGNATURE_INVALID", async () => {
  for (const digestAlgorithm of ["SHA-1", "MD5"]) {
    assertCode(await pay(client(strict, demo, demo, { digestAlgorithm })), 400, "SIGNATURE_INVALID", "Digest");
  }
});

test("the keyId must name the signing certificate's serial and issuer", async () => {
  const other = await certificate();
  const wrongSerial = client(strict, demo, demo, { keyId: keyIdOf(other.certPem).replace(/^SN=\w+/, "SN=01") });
  assertCode(await pay(wrongSerial), 401, "SIGNATURE_INVALID", "Signature");
  const foreignCa = await createDevCa("Another QTSP");
  const serial = new X509Certificate(demo.certPem).serialNumber;
  const foreignIssuer = new X509Certificate(foreignCa.certPem).subject.split("\n").reverse().join(",");
  const wrongIssuer = client(strict, demo, demo, { keyId: `SN=${serial},CA=${foreignIssuer}` });
  assertCode(await pay(wrongIssuer), 401, "SIGNATURE_INVALID", "Signature");
  // The same name in X.500 order, with spaces after the commas and a lowercase serial.
  const issuer = new X509Certificate(demo.certPem).issuer.split("\n").join(", ");
  const reordered = client(strict, demo, demo, { keyId: `SN=${serial.toLowerCase()},CA=${issuer}` });
  assert.equal((await pay(reordered)).status, accepted());
  const byOid = issuer.replace("CN=", "OID.2.5.4.3=").replace("O=", "2.5.4.10=");
  assert.equal((await pay(client(strict, demo, demo, { keyId: `SN=${serial},CA=${byOid}` }))).status, accepted());
});

test("a signing certificate of another organisation, another CA or without QCStatement is refused", async () => {
  const stranger = await certificate({ organizationIdentifier: "PSDDE-BAFIN-654321" });
  const res = await pay(client(strict, demo, stranger));
  assertCode(res, 401, "SIGNATURE_INVALID", "TPP-Signature-Certificate");
  assert.match(res.body.tppMessages[0].text, /PSDDE-BAFIN-654321/);
  const foreign = await issueTppCertificate(await createDevCa("Untrusted QTSP"), {
    name: "Signing TPP", organizationIdentifier: "PSDDE-BAFIN-123456", roles: ["PSP_PI"],
  });
  assertCode(await pay(client(strict, demo, foreign)), 401, "SIGNATURE_INVALID", "TPP-Signature-Certificate");
  const noQc = await certificate({ withoutQcStatement: true });
  assertCode(await pay(client(strict, demo, noQc)), 401, "SIGNATURE_INVALID", "TPP-Signature-Certificate");
  const expired = await certificate({ notBefore: new Date(Date.now() - 2e9), notAfter: new Date(Date.now() - 1e9) });
  assertCode(await pay(client(strict, demo, expired)), 401, "SIGNATURE_INVALID", "TPP-Signature-Certificate");
});

test("the signature must cover Digest, X-Request-ID and the PSU-ID sent; an HMAC name is refused", async () => {
  const noRequestId = client(strict, demo, demo, { headers: ["(request-target)", "digest"] });
  assertCode(await pay(noRequestId), 401, "SIGNATURE_INVALID", "Signature");
  const tpp = client(strict, demo, demo, { headers: ["digest", "x-request-id"] });
  assertCode(await tpp.post(SCT, paymentBody(), { ...CREATION_HEADERS, "PSU-ID": "alice" }), 401, "SIGNATURE_INVALID");
  assertCode(await pay(client(strict, demo, demo, { algorithm: "hmac-sha256" })), 401, "SIGNATURE_INVALID");
});

test("a signature that is present is verified even where it is not required", async () => {
  assert.equal((await pay(client(lenient, lenientDemo, lenientDemo))).status, accepted());
  const lenientCa = await loadKeyAndCertificate(lenient.certs.caCert, lenient.certs.caKey);
  const stranger = await certificate({ organizationIdentifier: "PSDDE-BAFIN-654322" }, lenientCa);
  assertCode(await pay(client(lenient, lenientDemo, stranger)), 401, "SIGNATURE_INVALID");
  const sha1 = client(lenient, lenientDemo, lenientDemo, { digestAlgorithm: "SHA-1" });
  assertCode(await pay(sha1), 400, "SIGNATURE_INVALID");
});
