/**
 * The certificate checks in their contract order (chain, validity, revocation, QCStatement,
 * organizationIdentifier, role) and the stop-list, against a real bank over real mTLS with a CRL
 * file the test writes.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import {
  createDevCa, issueCrl, issueTppCertificate, loadKeyAndCertificate,
  type KeyAndCertificate, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { createPayment, paymentBody, REDIRECTS } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient, type TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const HOUR_MS = 3_600_000;

let bank: TestBank;
let dir: string;
let crlPath: string;
let ca: KeyAndCertificate;
const clients: TppClient[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "psd2-crl-"));
  crlPath = join(dir, "dev.crl");
  bank = await startBank({ env: { TPP_CRL_FILES: crlPath } });
  ca = await loadKeyAndCertificate(bank.certs.caCert, bank.certs.caKey);
  await writeFile(crlPath, await issueCrl(ca, []));
});
after(async () => {
  for (const client of clients) client.close();
  await bank.close();
  await rm(dir, { recursive: true, force: true });
});

function assertCode(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

type Request = Partial<TppCertificateRequest>;

/** A client with a fresh certificate from the bank's CA, closed with the bank. */
function issued(orgNumber: string, over: Request = {}): Promise<TppClient> {
  return bank.tppWith({ organizationIdentifier: `PSDDE-BAFIN-${orgNumber}`, ...over });
}

/** A client whose fresh certificate is the only entry of the CRL. */
async function revokedClient(orgNumber: string, over: Request = {}): Promise<TppClient> {
  const cert = await issueTppCertificate(ca, {
    name: "Revoked TPP", organizationIdentifier: `PSDDE-BAFIN-${orgNumber}`, roles: ["PSP_PI", "PSP_AI"], ...over,
  });
  await writeFile(crlPath, await issueCrl(ca, [cert.certPem]));
  clients.push(new TppClient(bank.apiUrl, { ca: bank.ca, cert: cert.certPem, key: cert.keyPem }));
  return clients[clients.length - 1] as TppClient;
}

test("a certificate on the CA's CRL is 401 CERTIFICATE_REVOKED; others stay accepted", async () => {
  const revoked = await revokedClient("700001");
  assertCode(await revoked.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_REVOKED");
  assertCode(await revoked.get("/psd2/v1/accounts", { "Consent-ID": randomUUID() }), 401, "CERTIFICATE_REVOKED");
  const client = await issued("700002");
  assert.equal((await client.post(SCT, paymentBody(), REDIRECTS)).status, 200);
});

test("validity is checked before revocation: expired and revoked is CERTIFICATE_EXPIRED", async () => {
  const now = Date.now();
  const client = await revokedClient("700003", {
    notBefore: new Date(now - 48 * HOUR_MS), notAfter: new Date(now - 24 * HOUR_MS),
  });
  assertCode(await client.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_EXPIRED");
});

test("revocation is checked before the QCStatement and the role", async () => {
  const noQc = await revokedClient("700004", { withoutQcStatement: true });
  assertCode(await noQc.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_REVOKED");
  const wrongRole = await revokedClient("700005", { roles: ["PSP_AI"] });
  assertCode(await wrongRole.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_REVOKED");
});

test("a QCStatement missing is refused before the role: CERTIFICATE_INVALID, not ROLE_INVALID", async () => {
  await writeFile(crlPath, await issueCrl(ca, []));
  const client = await issued("700006", { withoutQcStatement: true, roles: ["PSP_AI"] });
  assertCode(await client.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_INVALID");
});

test("a CRL that is corrupt or not signed by a trusted CA fails closed", async () => {
  await writeFile(crlPath, "-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n");
  const client = await issued("700007");
  assertCode(await client.get("/psd2/v1/accounts", { "Consent-ID": randomUUID() }), 401, "CERTIFICATE_INVALID");
  const forged = await createDevCa("Forged CRL CA");
  await writeFile(crlPath, await issueCrl(forged, []));
  const other = await issued("700008");
  assertCode(await other.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_INVALID");
  await writeFile(crlPath, await issueCrl(ca, []));
});

test("a renewed certificate (same organizationIdentifier, new serial) keeps its payments", async () => {
  await writeFile(crlPath, await issueCrl(ca, []));
  const first = await issued("700009");
  const created = await createPayment(first);
  const renewed = await issued("700009");
  const res = await renewed.get(`${SCT}/${created.paymentId}/status`);
  assert.equal(res.status, 200, res.text);
  const stranger = await issued("700010");
  assertCode(await stranger.get(`${SCT}/${created.paymentId}/status`), 404, "RESOURCE_UNKNOWN");
});

test("a stop-listed TPP is 401 CERTIFICATE_BLOCKED on its next request, and unblocking restores it", async () => {
  await writeFile(crlPath, await issueCrl(ca, []));
  const client = await issued("700011");
  assert.equal((await client.post(SCT, paymentBody(), REDIRECTS)).status, 200);
  const { store } = bank.app;
  await store.tpps.setBlocked(store.db, "PSDDE-BAFIN-700011", true, new Date().toISOString());
  assertCode(await client.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_BLOCKED");
  await store.tpps.setBlocked(store.db, "PSDDE-BAFIN-700011", false, new Date().toISOString());
  assert.equal((await client.post(SCT, paymentBody(), REDIRECTS)).status, 200);
});

test("an open keep-alive connection is re-checked after a minute: a new CRL reaches it", async (t) => {
  await writeFile(crlPath, await issueCrl(ca, []));
  const cert = await issueTppCertificate(ca, {
    name: "Long-lived TPP", organizationIdentifier: "PSDDE-BAFIN-700012", roles: ["PSP_PI"],
  });
  const client = new TppClient(bank.apiUrl, { ca: bank.ca, cert: cert.certPem, key: cert.keyPem });
  clients.push(client);
  assert.equal((await client.post(SCT, paymentBody(), REDIRECTS)).status, 200);
  await writeFile(crlPath, await issueCrl(ca, [cert.certPem]));
  assert.equal((await client.post(SCT, paymentBody(), REDIRECTS)).status, 200, "same connection, within the minute");
  t.mock.timers.enable({ apis: ["Date"], now: Date.now() + 61_000 });
  assertCode(await client.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_REVOKED");
  t.mock.timers.reset();
  await writeFile(crlPath, await issueCrl(ca, []));
});
