/**
 * The client certificate behind a TLS-terminating proxy: believed in TPP_CERT_HEADER only from
 * TRUSTED_PROXIES (here 127.0.0.2, a loopback address the test connects from), ignored from
 * anywhere else, and put through the same checks as a certificate from our own handshake.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadConfig } from "../../src/config.js";
import {
  createDevCa, issueCrl, issueTppCertificate, loadKeyAndCertificate,
  type KeyAndCertificate, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { paymentBody, REDIRECTS } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import { TppClient, type TppResponse } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const PROXY = "127.0.0.2";
const HEADER = "X-SSL-Client-Cert";

let bank: TestBank;
let ca: KeyAndCertificate;
let dir: string;
let crlPath: string;
/** The proxy connects without a client certificate of its own, from the trusted address. */
let proxy: TppClient;
/** The same, from an address that is not a trusted proxy. */
let elsewhere: TppClient;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "psd2-proxy-"));
  crlPath = join(dir, "dev.crl");
  bank = await startBank({ env: { TPP_CERT_HEADER: HEADER, TRUSTED_PROXIES: PROXY, TPP_CRL_FILES: crlPath } });
  ca = await loadKeyAndCertificate(bank.certs.caCert, bank.certs.caKey);
  await writeFile(crlPath, await issueCrl(ca, []));
  proxy = new TppClient(bank.apiUrl, { ca: bank.ca, localAddress: PROXY });
  elsewhere = new TppClient(bank.apiUrl, { ca: bank.ca, localAddress: "127.0.0.1" });
});
after(async () => {
  proxy.close();
  elsewhere.close();
  await bank.close();
  await rm(dir, { recursive: true, force: true });
});

function assertCode(res: TppResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.[0]?.code, code, res.text);
}

async function pem(orgNumber: string, over: Partial<TppCertificateRequest> = {}): Promise<string> {
  const issued = await issueTppCertificate(ca, {
    name: "Proxied TPP", organizationIdentifier: `PSDDE-BAFIN-${orgNumber}`, roles: ["PSP_PI", "PSP_AI"], ...over,
  });
  return issued.certPem;
}

/** nginx: $ssl_client_escaped_cert. */
const nginx = (certPem: string) => ({ [HEADER]: encodeURIComponent(certPem), ...REDIRECTS });

test("from the trusted proxy the header's certificate identifies the TPP; its payment is its own", async () => {
  const created = await proxy.post(SCT, paymentBody(), nginx(await pem("810001")));
  assert.equal(created.status, 200, created.text);
  const path = `${SCT}/${created.body.paymentId}/status`;
  assert.equal((await proxy.get(path, nginx(await pem("810001")))).status, 200, "renewed certificate, same TPP");
  // One keep-alive connection from the proxy carries many TPPs: nothing is cached per socket.
  assertCode(await proxy.get(path, nginx(await pem("810002"))), 404, "RESOURCE_UNKNOWN");
  assertCode(await bank.tpp.get(path), 404, "RESOURCE_UNKNOWN");
});

test("envoy's x-forwarded-client-cert form (Cert=\"...\") is read as well", async () => {
  const xfcc = `By=spiffe://bank/api;Hash=00ff;Cert="${encodeURIComponent(await pem("810003"))}";Subject="CN=x"`;
  assert.equal((await proxy.post(SCT, paymentBody(), { [HEADER]: xfcc, ...REDIRECTS })).status, 200);
});

test("from any other address the header is ignored: no TLS certificate is CERTIFICATE_MISSING", async () => {
  assertCode(await elsewhere.post(SCT, paymentBody(), nginx(await pem("810004"))), 401, "CERTIFICATE_MISSING");
  // The demo TPP's own certificate counts, not another organisation's header.
  const created = await bank.tpp.post(SCT, paymentBody(), nginx(await pem("810005")));
  assert.equal(created.status, 200, created.text);
  assertCode(await proxy.get(`${SCT}/${created.body.paymentId}/status`, nginx(await pem("810005"))), 404, "RESOURCE_UNKNOWN");
});

test("a bad header certificate gets the same 401s as one from the handshake", async () => {
  const hour = 3_600_000;
  const expired = await pem("810006", { notBefore: new Date(Date.now() - 48 * hour), notAfter: new Date(Date.now() - 24 * hour) });
  assertCode(await proxy.post(SCT, paymentBody(), nginx(expired)), 401, "CERTIFICATE_EXPIRED");
  const foreign = await issueTppCertificate(await createDevCa("Untrusted QTSP"), {
    name: "Foreign", organizationIdentifier: "PSDDE-BAFIN-810007", roles: ["PSP_PI"],
  });
  assertCode(await proxy.post(SCT, paymentBody(), nginx(foreign.certPem)), 401, "CERTIFICATE_INVALID");
  assertCode(await proxy.post(SCT, paymentBody(), nginx(await pem("810008", { withoutQcStatement: true }))), 401, "CERTIFICATE_INVALID");
  assertCode(await proxy.post(SCT, paymentBody(), nginx(await pem("810009", { roles: ["PSP_AI"] }))), 403, "ROLE_INVALID");
  assertCode(await proxy.post(SCT, paymentBody(), { [HEADER]: "not%20a%20certificate", ...REDIRECTS }), 401, "CERTIFICATE_INVALID");
  assertCode(await proxy.post(SCT, paymentBody(), REDIRECTS), 401, "CERTIFICATE_MISSING");
  const revoked = await pem("810010");
  await writeFile(crlPath, await issueCrl(ca, [revoked]));
  assertCode(await proxy.post(SCT, paymentBody(), nginx(revoked)), 401, "CERTIFICATE_REVOKED");
  await writeFile(crlPath, await issueCrl(ca, []));
});

test("the header is a setting only together with the proxies' addresses", () => {
  assert.throws(() => loadConfig({ TPP_CERT_HEADER: HEADER }), /TPP_CERT_HEADER needs TRUSTED_PROXIES/);
  assert.throws(() => loadConfig({ TPP_CERT_HEADER: HEADER, TRUSTED_PROXIES: "proxy.local" }), /IP addresses/);
  assert.deepEqual(loadConfig({ TRUSTED_PROXIES: "10.0.0.5, ::1" }).trustedProxies, ["10.0.0.5", "::1"]);
});
