/**
 * A tiny OCSP responder (RFC 6960) on 127.0.0.1 for tests: answers POSTed requests for
 * certificates of one CA with the status a test sets per serial, signed by the CA, and can
 * misbehave (forged signature, garbage, stale answer) on request. Counts the questions it gets.
 */
import * as asn1js from "asn1js";
import { createServer, type Server } from "node:http";
import { generateKeyPairSync, sign, X509Certificate } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { KeyAndCertificate } from "../../src/tpp/dev-ca.js";

export type OcspStatus = "good" | "revoked" | "unknown";
export type Misbehaviour = "none" | "forged" | "garbage" | "stale" | "error";

export interface OcspResponder {
  url: string;
  /** Status by certificate serial (as X509Certificate.serialNumber prints it); default good. */
  statuses: Map<string, OcspStatus>;
  misbehave: Misbehaviour;
  /** How long an answer stays fresh (nextUpdate - now). */
  freshMs: number;
  /** Questions asked so far. */
  requests: number;
  close(): Promise<void>;
}

const OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2";
const OID_BASIC = "1.3.6.1.5.5.7.48.1.1";

const items = (block: asn1js.BaseBlock | undefined): asn1js.BaseBlock[] =>
  block instanceof asn1js.Constructed ? block.valueBlock.value : [];

function certIdOf(request: Buffer): asn1js.BaseBlock {
  const certId = items(items(items(items(asn1js.fromBER(new Uint8Array(request)).result)[0])[0])[0])[0];
  if (!certId) throw new Error("not an OCSP request");
  return asn1js.fromBER(certId.valueBeforeDecodeView).result;
}

function statusBlock(status: OcspStatus, at: Date): asn1js.BaseBlock {
  if (status === "revoked") {
    return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.GeneralizedTime({ valueDate: at })] });
  }
  return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: status === "good" ? 0 : 2 } });
}

function answer(certId: asn1js.BaseBlock, status: OcspStatus, signerKey: string, nextUpdate: Date): Uint8Array {
  const now = new Date();
  const single = new asn1js.Sequence({ value: [
    certId, statusBlock(status, new Date(now.getTime() - 60_000)), new asn1js.GeneralizedTime({ valueDate: now }),
    new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.GeneralizedTime({ valueDate: nextUpdate })] }),
  ] });
  const responderId = new asn1js.Constructed({
    idBlock: { tagClass: 3, tagNumber: 2 }, value: [new asn1js.OctetString({ valueHex: new Uint8Array(20) })],
  });
  const tbs = new asn1js.Sequence({ value: [responderId, new asn1js.GeneralizedTime({ valueDate: now }), new asn1js.Sequence({ value: [single] })] });
  const tbsDer = Buffer.from(tbs.toBER(false));
  const basic = new asn1js.Sequence({ value: [
    asn1js.fromBER(tbsDer).result,
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID_ECDSA_SHA256 })] }),
    new asn1js.BitString({ valueHex: sign("sha256", tbsDer, signerKey) }),
  ] });
  return new Uint8Array(new asn1js.Sequence({ value: [
    new asn1js.Enumerated({ value: 0 }),
    new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Sequence({ value: [
      new asn1js.ObjectIdentifier({ value: OID_BASIC }), new asn1js.OctetString({ valueHex: basic.toBER(false) }),
    ] })] }),
  ] }).toBER(false));
}

/** Serial as X509Certificate prints it: uppercase hex without a sign byte. */
const printedSerial = (certId: asn1js.BaseBlock) =>
  Buffer.from((items(certId)[3] as asn1js.Integer).valueBlock.valueHexView).toString("hex").toUpperCase().replace(/^00(?=..)/, "");

export async function startOcspResponder(ca: KeyAndCertificate): Promise<OcspResponder> {
  const forger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  new X509Certificate(ca.certPem); // fails early on a broken CA
  let server: Server | undefined;
  const responder: OcspResponder = {
    url: "", statuses: new Map(), misbehave: "none", freshMs: 3_600_000, requests: 0,
    close: () => new Promise((resolve) => { server?.close(() => resolve()); server?.closeAllConnections(); }),
  };
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      responder.requests++;
      if (responder.misbehave === "error") return void response.writeHead(500).end();
      if (responder.misbehave === "garbage") return void response.writeHead(200).end("not DER");
      const certId = certIdOf(Buffer.concat(chunks));
      const status = responder.statuses.get(printedSerial(certId)) ?? "good";
      const fresh = responder.misbehave === "stale" ? -60_000 : responder.freshMs;
      const key = responder.misbehave === "forged" ? forger : ca.keyPem;
      response.writeHead(200, { "Content-Type": "application/ocsp-response" })
        .end(answer(certId, status, key, new Date(Date.now() + fresh)));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  responder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ocsp`;
  return responder;
}
