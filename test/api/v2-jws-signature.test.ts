/**
 * openFinance 2.x message signing on /v2 over real mTLS: x-jws-signature (JAdES, detached,
 * b64 false, sigD HttpHeaders over Digest and the other signed headers) from certificates of the
 * development CA. A bank with V2_JWS_SIGNATURE_REQUIRED and one that verifies a signature only
 * when sent; each way a signature can be wrong, answered in apiClientMessages.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  createDevCa, issueTppCertificate, loadKeyAndCertificate, type KeyAndCertificate, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { NOK_URI } from "../support/flows.js";
import { jwsSigner, type JwsSignerOptions } from "../support/jws-signer.js";
import { startSigningBanks, type SigningBanks } from "../support/signing-banks.js";
import type { TestBank } from "../support/start-app.js";
import { CLIENT, accountAccessConsent } from "../support/v2-bodies.js";
import type { TppClient, TppResponse } from "../support/tpp-client.js";

const CONSENTS = "/psd2/v2/consents/account-access";
const consentBody = () => accountAccessConsent();

let banks: SigningBanks;
let strict: TestBank;
let lenient: TestBank;
let demo: KeyAndCertificate;

before(async () => {
  banks = await startSigningBanks({ V2_JWS_SIGNATURE_REQUIRED: "true" }, ["PSP_AI"]);
  ({ strict, lenient, demo } = banks);
});
after(() => banks.close());

function assertCode(res: TppResponse, status: number, code: string, path: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages, undefined, res.text);
  assert.equal(res.body?.apiClientMessages?.[0]?.code, code, res.text);
  assert.equal(res.body.apiClientMessages[0].path, path, res.text);
}

const certificate = (over: Partial<TppCertificateRequest> = {}, issuer?: KeyAndCertificate) =>
  banks.certificate(over, issuer);

/** A client of `bank` with its demo TPP's TLS certificate, whose calls `signing` signs. */
const client = (bank: TestBank, signing?: KeyAndCertificate, options?: JwsSignerOptions) =>
  banks.client(bank, bank === strict ? demo : banks.lenientDemo,
    signing && jwsSigner(signing, options));

const create = (tpp: TppClient) => tpp.post(CONSENTS, consentBody(), CLIENT);

test("ECDSA from the TLS certificate in x5c: a signed creation and a signed GET (digest of no body, PSU-ID signed)", async () => {
  const tpp = client(strict, demo);
  const created = await create(tpp);
  assert.equal(created.status, 201, created.text);
  const status = `${CONSENTS}/${created.body.consentId}/status`;
  const read = await tpp.get(status, { "PSU-ID": "alice" });
  assert.equal(read.status, 200, read.text);
  // The PSU named is signed whenever sent.
  const unsigned = await client(strict, demo, { pars: ["digest", "x-request-id"] })
    .get(status, { "PSU-ID": "alice" });
  assertCode(unsigned, 401, "SIGNATURE_INVALID", "x-jws-signature");
});

test("RSA: a QSealC apart from the QWAC, same organisation; (request-target) may be signed too", async () => {
  const seal = await certificate({ keyType: "RSA" });
  assert.equal((await create(client(strict, seal))).status, 201);
  const pars = ["(request-target)", "digest", "x-request-id", "client-redirect-uri"];
  assert.equal((await create(client(strict, seal, { pars }))).status, 201);
  for (const alg of ["PS256", "HS256", "none"]) {
    const res = await create(client(strict, seal, { header: { alg } }));
    assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
  }
});

test("x5t#S256 alone names the TLS certificate; naming any other is refused", async () => {
  assert.equal((await create(client(strict, demo, { reference: "x5t#S256" }))).status, 201);
  const seal = await certificate();
  const res = await create(client(strict, seal, { reference: "x5t#S256" }));
  assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
  assert.match(res.body.apiClientMessages[0].text, /x5c/);
});

test("V2_JWS_SIGNATURE_REQUIRED: 401 SIGNATURE_MISSING on /v2 only; without it a signature is optional", async () => {
  const res = await create(client(strict));
  assertCode(res, 401, "SIGNATURE_MISSING", "x-jws-signature");
  assert.match(res.body.apiClientMessages[0].text, /x-jws-signature/);
  // 1.3's interface keeps its own rule (REQUIRE_HTTP_SIGNATURE).
  const v1 = await client(strict).get("/psd2/v1/accounts", { "Consent-ID": "none" });
  assert.notEqual(v1.body.tppMessages[0].code, "SIGNATURE_MISSING");
  assert.equal((await create(client(lenient))).status, 201);
});

test("a signature that is sent is verified also where none is required", async () => {
  const stranger = await issueTppCertificate(await loadKeyAndCertificate(lenient.certs.caCert,
    lenient.certs.caKey), { name: "Other", organizationIdentifier: "PSDDE-BAFIN-654321", roles: ["PSP_AI"] });
  const res = await create(client(lenient, stranger));
  assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
  assert.match(res.body.apiClientMessages[0].text, /PSDDE-BAFIN-654321/);
});

test("a body changed after signing: 401 on the Digest, and on the signature when the Digest is redone", async () => {
  const signer = jwsSigner(demo);
  const tpp = client(strict);
  const sent = JSON.stringify({ ...consentBody(), frequencyPerDay: 100 });
  const signedBody = JSON.stringify(consentBody());
  const tampered = await tpp.call("POST", CONSENTS, {
    rawBody: sent, headers: CLIENT, sign: (request) => signer({ ...request, body: signedBody }),
  });
  assertCode(tampered, 401, "SIGNATURE_INVALID", "Digest");
  const redone = await tpp.call("POST", CONSENTS, {
    rawBody: sent, headers: CLIENT,
    sign: (request) => ({ ...signer({ ...request, body: signedBody }), Digest: signer(request).Digest ?? "" }),
  });
  assertCode(redone, 401, "SIGNATURE_INVALID", "x-jws-signature");
});

test("the headers signed: Digest, X-Request-ID and Client-Redirect-URI must be covered, as sent", async () => {
  for (const pars of [["x-request-id", "client-redirect-uri"], ["digest", "client-redirect-uri"],
    ["digest", "x-request-id"], ["digest", "x-request-id", "client-redirect-uri", "psu-id"]]) {
    const res = await create(client(strict, demo, { pars }));
    assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
  }
  const signer = jwsSigner(demo);
  const swapped = await client(strict).call("POST", CONSENTS, {
    body: consentBody(), headers: CLIENT,
    sign: (request) => signer({ ...request, headers: { ...request.headers, "Client-Redirect-URI": NOK_URI } }),
  });
  assertCode(swapped, 401, "SIGNATURE_INVALID", "x-jws-signature");
});

test("the JAdES header: b64 false, crit, sigT, sigD's mechanism, a detached payload", async () => {
  const wrong: Record<string, unknown>[] = [
    { b64: true }, { b64: undefined }, { crit: ["b64"] }, { sigT: undefined }, { sigT: "yesterday" },
    { sigD: { pars: ["digest", "x-request-id"], mId: "http://uri.etsi.org/19182/ObjectIdByURI" } },
    { x5c: undefined }, { x5c: ["not base64 DER"] },
  ];
  for (const header of wrong) {
    const res = await create(client(strict, demo, { header }));
    assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
  }
  const signer = jwsSigner(demo);
  const attached = await client(strict).call("POST", CONSENTS, {
    body: consentBody(), headers: CLIENT, sign: (request) => {
      const signed = signer(request);
      return { ...signed, "x-jws-signature": signed["x-jws-signature"]!.replace("..", ".e30.") };
    },
  });
  assertCode(attached, 401, "SIGNATURE_INVALID", "x-jws-signature");
});

test("a signing certificate of another organisation, another CA, or expired is refused", async () => {
  const stranger = await certificate({ organizationIdentifier: "PSDDE-BAFIN-654321" });
  const foreign = await certificate({}, await createDevCa("Untrusted QTSP"));
  const expired = await certificate({ notBefore: new Date(Date.now() - 2e9), notAfter: new Date(Date.now() - 1e9) });
  for (const signing of [stranger, foreign, expired]) {
    assertCode(await create(client(strict, signing)), 401, "SIGNATURE_INVALID", "x-jws-signature");
  }
  // Signed by one certificate, naming another of the same organisation.
  const seal = await certificate();
  const res = await create(client(strict, demo, { sentCertificate: seal.certPem }));
  assertCode(res, 401, "SIGNATURE_INVALID", "x-jws-signature");
});
