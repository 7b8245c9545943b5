/**
 * openFinance 2.x message signing: x-jws-signature, a JAdES (ETSI TS 119 182-1) compact JWS with
 * a detached, unencoded payload (b64 false) whose sigD names the HTTP headers it signs (mechanism
 * HttpHeaders). The payload is those headers' lines, as draft-cavage's signing string; the Digest
 * among them binds the body. Pure functions over untrusted input, refusals as reasons; chain,
 * validity, revocation and the signer's organisation are the caller's, as for 1.3's signatures.
 */
import { createHash, type X509Certificate } from "node:crypto";
import { flattenedVerify } from "jose";
import type { Problem } from "./http-signature.js";

export const HTTP_HEADERS_MECHANISM = "http://uri.etsi.org/19182/HttpHeaders";

/** Asymmetric algorithms only: an HMAC would take the certificate's public key as its secret. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384",
  "ES512"];
/** JAdES: what a verifier must understand; b64 (RFC 7797) is jose's own. */
const CRITICAL = ["b64", "sigT", "sigD"];
/** sigT, JAdES's claimed signing time: UTC to the second. */
const SIGNING_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z$/;

export interface JwsSignature {
  /** The protected header as sent (base64url). */
  protectedHeader: string;
  signature: string;
  /** sigD.pars, lowercase, in signing order. */
  pars: string[];
  /** x5c[0]: the signing certificate, base64 DER. */
  certificate: string | undefined;
  /** x5t#S256: the signing certificate's SHA-256 thumbprint, base64url. */
  thumbprint: string | undefined;
}

type Header = Record<string, unknown>;

function decodeHeader(part: string): Header | null {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof header === "object" && header !== null && !Array.isArray(header)
      ? header as Header : null;
  } catch {
    return null;
  }
}

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const textList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every(isText);

/** The JAdES parameters of the header, or the first thing wrong with them. */
function headerProblem(header: Header): string | null {
  if (!ALGORITHMS.includes(String(header.alg))) {
    return `alg must be one of ${ALGORITHMS.join(", ")}`;
  }
  if (header.b64 !== false) return "b64 must be false: the payload is the signed headers as sent";
  const crit = Array.isArray(header.crit) ? header.crit : [];
  if (!CRITICAL.every((name) => crit.includes(name))) {
    return `crit must name ${CRITICAL.join(", ")}`;
  }
  if (typeof header.sigT !== "string" || !SIGNING_TIME.test(header.sigT)) {
    return "sigT must be the signing time as YYYY-MM-DDThh:mm:ssZ";
  }
  const sigD = header.sigD as Header | undefined;
  if (sigD?.mId !== HTTP_HEADERS_MECHANISM || !textList(sigD.pars)) {
    return `sigD must name the mechanism ${HTTP_HEADERS_MECHANISM} and the headers signed (pars)`;
  }
  const x5c = header.x5c;
  if (x5c !== undefined && !textList(x5c)) return "x5c must list base64 DER certificates";
  if (x5c === undefined && !isText(header["x5t#S256"])) {
    return "the header must carry the signing certificate (x5c) or its thumbprint (x5t#S256)";
  }
  return null;
}

/** `<header>..<signature>`: JWS compact serialization with the payload detached (RFC 7515 F). */
export function parseJwsSignature(value: string): JwsSignature | string {
  const parts = value.trim().split(".");
  const [protectedHeader = "", payload, signature = ""] = parts;
  if (parts.length !== 3 || payload !== "" || !/^[A-Za-z0-9_-]+$/.test(signature)) {
    return "x-jws-signature must be a compact JWS with a detached payload (header..signature)";
  }
  const header = decodeHeader(protectedHeader);
  if (header === null) return "x-jws-signature's header is not base64url JSON";
  const problem = headerProblem(header);
  if (problem !== null) return `x-jws-signature: ${problem}`;
  const sigD = header.sigD as { pars: string[] };
  const x5c = header.x5c as string[] | undefined;
  const thumbprint = header["x5t#S256"];
  return {
    protectedHeader, signature, pars: sigD.pars.map((name) => name.toLowerCase()),
    certificate: x5c?.[0], thumbprint: isText(thumbprint) ? thumbprint : undefined,
  };
}

/** x5t#S256 of a certificate: the base64url SHA-256 of its DER. */
export const thumbprintOf = (der: Uint8Array): string =>
  createHash("sha256").update(der).digest("base64url");

/** The signature over `payload` (the signed headers' text) with the certificate's key. */
export async function verifyJws(
  jws: JwsSignature, payload: string, cert: X509Certificate,
): Promise<Problem> {
  if (jws.thumbprint !== undefined && jws.thumbprint !== thumbprintOf(cert.raw)) {
    return "x-jws-signature's x5t#S256 is not the signing certificate's thumbprint";
  }
  try {
    await flattenedVerify(
      { protected: jws.protectedHeader, payload, signature: jws.signature }, cert.publicKey,
      { algorithms: ALGORITHMS, crit: { sigT: true, sigD: true } },
    );
    return null;
  } catch {
    return "x-jws-signature does not verify with the signing certificate's key";
  }
}
