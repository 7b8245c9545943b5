/**
 * Revocation by OCSP (RFC 6960): the responder named in the certificate's Authority Information
 * Access is asked by POST, its answer is believed only when signed by the issuing CA (or by a
 * responder certificate the CA issued for OCSP signing), and kept until its nextUpdate. Whether
 * an unreachable or unusable responder refuses the certificate is the bank's setting.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import * as asn1js from "asn1js";
import { createHash, verify, X509Certificate as NodeX509 } from "node:crypto";
import type { RevocationChecker, RevocationStatus } from "./revocation.js";
import { pemCertificates } from "./trust.js";

const OID_SHA1 = "1.3.14.3.2.26";
const OID_BASIC_RESPONSE = "1.3.6.1.5.5.7.48.1.1";
const OID_OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
/** Signature algorithms of responses we accept; SHA-1 signatures are not among them. */
const SIGNATURE_HASHES: Readonly<Record<string, string | null>> = {
  "1.2.840.10045.4.3.2": "sha256", "1.2.840.10045.4.3.3": "sha384", "1.2.840.10045.4.3.4": "sha512",
  "1.2.840.113549.1.1.11": "sha256", "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
  "1.3.101.112": null,
};
/** Without nextUpdate a response is fresh this long; an outage is retried after RETRY_MS. */
const DEFAULT_FRESH_MS = 5 * 60_000;
const RETRY_MS = 30_000;
const CLOCK_SKEW_MS = 5 * 60_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** What the responder said, before the bank's outage policy: "unavailable" is no usable answer. */
export type OcspAnswer = "good" | "revoked" | "unknown" | "unavailable";

export interface OcspOptions {
  /** PEM bundles of the trusted CAs: the issuers whose responders are asked. */
  trusted: readonly string[];
  /** Whether an unavailable responder refuses the certificate (else it passes). */
  failClosed: boolean;
  timeoutMs: number;
  now?: () => Date;
}

interface Issuer { cert: NodeX509; nameHash: Buffer; keyHash: Buffer }
interface Subject { url: string; issuer: Issuer; serial: Uint8Array }

const sha1 = (bytes: Uint8Array | ArrayBuffer) =>
  createHash("sha1").update(new Uint8Array(bytes)).digest();
const items = (block: asn1js.BaseBlock | undefined): asn1js.BaseBlock[] =>
  block instanceof asn1js.Constructed ? block.valueBlock.value : [];
/** The content octets of a primitive block (OCTET STRING, BIT STRING, INTEGER); empty otherwise. */
const content = (block: asn1js.BaseBlock | undefined): Uint8Array =>
  (block?.valueBlock as { valueHexView?: Uint8Array } | undefined)?.valueHexView
    ?? new Uint8Array(0);
const isContext = (block: asn1js.BaseBlock | undefined, tag: number) =>
  block?.idBlock.tagClass === 3 && block.idBlock.tagNumber === tag;

/** Node's own reading of Authority Information Access: cheap, and fine with odd extensions. */
function ocspUrl(cert: NodeX509): string | undefined {
  const prefix = "OCSP - URI:";
  return (cert.infoAccess ?? "").split("\n").find((line) => line.startsWith(prefix))
    ?.slice(prefix.length);
}

/** CertID's issuer hashes: of the CA's subject name and of its public key's bits. */
function issuerOf(pem: string): Issuer {
  const cert = new x509.X509Certificate(pem);
  const keyBits = content(items(asn1js.fromBER(cert.publicKey.rawData).result)[1]);
  const nameHash = sha1(cert.subjectName.toArrayBuffer());
  return { cert: new NodeX509(pem), nameHash, keyHash: sha1(keyBits) };
}

function serialBytes(der: Uint8Array): Uint8Array {
  const tbs = items(items(asn1js.fromBER(der).result)[0]);
  const serial = tbs.find((block) => block instanceof asn1js.Integer);
  return serial?.valueBlock.valueHexView ?? new Uint8Array(0);
}

/**
 * OCSPRequest { tbsRequest { requestList { Request { CertID (SHA-1, as responders expect) } } } }
 */
export function encodeOcspRequest(subject: Subject): Uint8Array {
  const certId = new asn1js.Sequence({ value: [
    new asn1js.Sequence({
      value: [new asn1js.ObjectIdentifier({ value: OID_SHA1 }), new asn1js.Null()],
    }),
    new asn1js.OctetString({ valueHex: subject.issuer.nameHash }),
    new asn1js.OctetString({ valueHex: subject.issuer.keyHash }),
    new asn1js.Integer({ valueHex: subject.serial }),
  ] });
  const nest = (inner: asn1js.BaseBlock) => new asn1js.Sequence({ value: [inner] });
  return new Uint8Array(nest(nest(nest(nest(certId)))).toBER(false));
}

interface SingleResponse {
  status: Exclude<OcspAnswer, "unavailable">;
  thisUpdate: Date;
  nextUpdate?: Date;
}

function readSingle(block: asn1js.BaseBlock, subject: Subject): SingleResponse | null {
  const [certId, status, thisUpdate, next] = items(block);
  const [, , keyHash, serial] = items(certId);
  const sameKey = Buffer.from(content(keyHash)).equals(subject.issuer.keyHash);
  if (!sameKey || !Buffer.from(content(serial)).equals(subject.serial)) return null;
  if (!(thisUpdate instanceof asn1js.GeneralizedTime)) return null;
  const nextTime = isContext(next, 0) ? items(next)[0] : undefined;
  const statuses = ["good", "revoked", "unknown"] as const;
  const tag = status?.idBlock.tagClass === 3 ? statuses[status.idBlock.tagNumber] : undefined;
  if (!tag) return null;
  return {
    status: tag, thisUpdate: thisUpdate.toDate(),
    nextUpdate: nextTime instanceof asn1js.GeneralizedTime ? nextTime.toDate() : undefined,
  };
}

/** The CA itself, or a certificate in the response that the CA issued for OCSP signing. */
function responderKeys(
  certs: asn1js.BaseBlock | undefined, issuer: NodeX509, now: Date,
): NodeX509[] {
  const delegated = items(items(certs)[0]).flatMap((block) => {
    try {
      const cert = new NodeX509(new Uint8Array(block.valueBeforeDecodeView));
      const valid = new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
      const usable = cert.checkIssued(issuer) && cert.verify(issuer.publicKey) && valid;
      return usable && (cert.keyUsage ?? []).includes(OID_OCSP_SIGNING) ? [cert] : [];
    } catch {
      return [];
    }
  });
  return [issuer, ...delegated];
}

function signedByResponder(basic: asn1js.BaseBlock[], issuer: NodeX509, now: Date): boolean {
  const [tbs, algorithm, signature, certs] = basic;
  const oid = items(algorithm)[0];
  if (!tbs || !(oid instanceof asn1js.ObjectIdentifier)) return false;
  if (!(signature instanceof asn1js.BitString)) return false;
  const hash = SIGNATURE_HASHES[oid.getValue()];
  if (hash === undefined) return false;
  const data = new Uint8Array(tbs.valueBeforeDecodeView);
  const bits = signature.valueBlock.valueHexView;
  return responderKeys(certs, issuer, now).some((signer) => {
    try {
      return verify(hash, data, signer.publicKey, bits);
    } catch {
      return false;
    }
  });
}

/** The answer for `subject` in a DER OCSPResponse, or null when it cannot be believed. */
export function readOcspResponse(
  der: Uint8Array, subject: Subject, now: Date,
): SingleResponse | null {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset !== der.byteLength) return null;
  const [status, bytes] = items(parsed.result);
  if (!(status instanceof asn1js.Enumerated) || status.valueBlock.valueDec !== 0) return null;
  if (!isContext(bytes, 0)) return null;
  const [type, octets] = items(items(bytes)[0]);
  if (!(type instanceof asn1js.ObjectIdentifier)) return null;
  if (type.getValue() !== OID_BASIC_RESPONSE) return null;
  if (!(octets instanceof asn1js.OctetString)) return null;
  const basic = items(asn1js.fromBER(octets.valueBlock.valueHexView).result);
  if (!signedByResponder(basic, subject.issuer.cert, now)) return null;
  const responses = items(basic[0]).find((block) => block instanceof asn1js.Sequence);
  const single = items(responses).map((block) => readSingle(block, subject))
    .find((found) => found !== null);
  if (!single || single.thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) return null;
  if (single.nextUpdate && single.nextUpdate < now) return null;
  return single;
}

async function ask(subject: Subject, timeoutMs: number, now: Date): Promise<SingleResponse | null> {
  try {
    const response = await fetch(subject.url, {
      method: "POST",
      headers: { "Content-Type": "application/ocsp-request", Accept: "application/ocsp-response" },
      body: encodeOcspRequest(subject), signal: AbortSignal.timeout(timeoutMs), redirect: "error",
    });
    const body = new Uint8Array(await response.arrayBuffer());
    if (!response.ok || body.byteLength > MAX_RESPONSE_BYTES) return null;
    return readOcspResponse(body, subject, now);
  } catch {
    return null; // unreachable, timed out or refused: no answer
  }
}

interface Cached { answer: Promise<OcspAnswer>; until: number }

/** Far above the number of TPP certificates a bank sees; bounds the memory a flood can take. */
const CACHE_MAX = 10_000;

export function createOcspChecker(options: OcspOptions): RevocationChecker {
  const now = options.now ?? (() => new Date());
  const issuers = pemCertificates(options.trusted).map(issuerOf);
  const cache = new Map<string, Cached>();

  function subjectOf(der: Uint8Array): Subject | null {
    const cert = new NodeX509(der);
    const url = ocspUrl(cert);
    const issuer = url === undefined
      ? undefined : issuers.find((candidate) => cert.checkIssued(candidate.cert));
    if (url === undefined || !issuer) return null;
    return { url, issuer, serial: serialBytes(der) };
  }

  /** Concurrent requests for one certificate share one question to the responder. */
  function lookUp(subject: Subject): Cached {
    const entry: Cached = {
      answer: Promise.resolve("unavailable"), until: Number.POSITIVE_INFINITY,
    };
    entry.answer = ask(subject, options.timeoutMs, now()).then((single) => {
      const fresh = single
        ? (single.nextUpdate?.getTime() ?? now().getTime() + DEFAULT_FRESH_MS) : undefined;
      entry.until = fresh ?? now().getTime() + RETRY_MS;
      return single?.status ?? "unavailable";
    });
    return entry;
  }

  return {
    async status(der): Promise<RevocationStatus> {
      const subject = subjectOf(der);
      if (!subject) return "good"; // no responder named: revocation rests on the CRLs
      const serial = Buffer.from(subject.serial).toString("hex");
      const key = `${subject.issuer.keyHash.toString("hex")}:${serial}`;
      let cached = cache.get(key);
      if (!cached || cached.until <= now().getTime()) {
        if (cache.size >= CACHE_MAX) cache.clear();
        cached = lookUp(subject);
        cache.set(key, cached);
      }
      const answer = await cached.answer;
      if (answer === "unavailable") return options.failClosed ? "unknown" : "good";
      // A responder that does not know the certificate has answered: that is no outage.
      return answer;
    },
  };
}

/** CRLs and OCSP together: revoked by either is revoked; otherwise unknown by either is unknown. */
export function combineRevocation(checkers: readonly RevocationChecker[]): RevocationChecker {
  return {
    async status(der) {
      const statuses = await Promise.all(checkers.map((checker) => checker.status(der)));
      if (statuses.includes("revoked")) return "revoked";
      return statuses.includes("unknown") ? "unknown" : "good";
    },
  };
}
