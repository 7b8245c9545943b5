/**
 * OCSP over real mTLS: certificates naming a test responder on 127.0.0.1 in their Authority
 * Information Access; good, revoked, unknown, forged, stale and unreachable answers; caching until
 * nextUpdate; OCSP_FAIL_CLOSED deciding what an outage means. Two instances of one bank (one
 * database, one CA): one failing closed, one failing open.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { after, before, test } from "node:test";
import { issueTppCertificate, loadKeyAndCertificate, type KeyAndCertificate } from "../../src/tpp/dev-ca.js";
import { paymentBody, REDIRECTS } from "../support/flows.js";
import { startOcspResponder, type OcspResponder } from "../support/ocsp-responder.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient, type TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";

let closed: TestBank;
let open: TestBank;
let ca: KeyAndCertificate;
let responder: OcspResponder;
let number = 830000;

before(async () => {
  closed = await startBank({ env: { OCSP_FAIL_CLOSED: "true" } });
  open = await startBank({ sharing: closed, env: { OCSP_FAIL_CLOSED: "false" } });
  ca = await loadKeyAndCertificate(closed.certs.caCert, closed.certs.caKey);
  responder = await startOcspResponder(ca);
});
after(async () => {
  await responder.close();
  await open.close();
  await closed.close();
});

/** A certificate naming `url` as its OCSP responder (a fresh organisation each time). */
async function certificate(url = responder.url): Promise<KeyAndCertificate> {
  number++;
  return issueTppCertificate(ca, {
    name: "OCSP TPP", organizationIdentifier: `PSDDE-BAFIN-${number}`, roles: ["PSP_PI"], ocspUrl: url,
  });
}

/** One payment on a new connection, so nothing is reused from an earlier handshake. */
async function pay(bank: TestBank, cert: KeyAndCertificate): Promise<TppResponse> {
  const client = new TppClient(bank.apiUrl, { ca: bank.ca, cert: cert.certPem, key: cert.keyPem });
  try {
    return await client.post(SCT, paymentBody(), REDIRECTS);
  } finally {
    client.close();
  }
}

function assertCode(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

const serial = (cert: KeyAndCertificate) => new X509Certificate(cert.certPem).serialNumber;

test("a good answer admits the TPP and is kept until its nextUpdate: one question for many connections", async () => {
  responder.misbehave = "none";
  const cert = await certificate();
  const before = responder.requests;
  for (let i = 0; i < 3; i++) assert.equal((await pay(closed, cert)).status, 200);
  assert.equal(responder.requests - before, 1);
});

test("a revoked answer is 401 CERTIFICATE_REVOKED, whatever the outage setting", async () => {
  const cert = await certificate();
  responder.statuses.set(serial(cert), "revoked");
  assertCode(await pay(closed, cert), 401, "CERTIFICATE_REVOKED");
  assertCode(await pay(open, cert), 401, "CERTIFICATE_REVOKED");
});

test("after nextUpdate the responder is asked again, and a revocation counts from then on", async () => {
  // Long enough that two requests on a loaded machine still fall within it.
  responder.freshMs = 3000;
  const cert = await certificate();
  assert.equal((await pay(closed, cert)).status, 200);
  responder.statuses.set(serial(cert), "revoked");
  assert.equal((await pay(closed, cert)).status, 200, "still within nextUpdate");
  await new Promise((resolve) => setTimeout(resolve, 3200));
  assertCode(await pay(closed, cert), 401, "CERTIFICATE_REVOKED");
  responder.freshMs = 3_600_000;
});

test("a responder that does not know the certificate refuses it, even failing open", async () => {
  const cert = await certificate();
  responder.statuses.set(serial(cert), "unknown");
  assertCode(await pay(open, cert), 401, "CERTIFICATE_INVALID");
});

test("unreachable, broken, forged or stale answers: refused failing closed, admitted failing open", async () => {
  const unreachable = await certificate("http://127.0.0.1:9/ocsp");
  assertCode(await pay(closed, unreachable), 401, "CERTIFICATE_INVALID");
  assert.equal((await pay(open, unreachable)).status, 200);
  for (const misbehave of ["error", "garbage", "forged", "stale"] as const) {
    responder.misbehave = misbehave;
    const cert = await certificate();
    assertCode(await pay(closed, cert), 401, "CERTIFICATE_INVALID");
    assert.equal((await pay(open, cert)).status, 200, misbehave);
  }
  responder.misbehave = "none";
});

test("a certificate naming no responder rests on the CRLs alone", async () => {
  const plain = await issueTppCertificate(ca, { name: "No AIA", organizationIdentifier: "PSDDE-BAFIN-839999", roles: ["PSP_PI"] });
  const before = responder.requests;
  assert.equal((await pay(closed, plain)).status, 200);
  assert.equal(responder.requests, before);
});
