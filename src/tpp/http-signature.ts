/**
 * Berlin Group application-level signatures (draft-cavage-http-signatures-10): the Digest of the
 * raw body, the Signature header over named request headers, and the signing certificate's
 * keyId. Pure functions over untrusted input; every refusal is a reason, nothing throws. Chain,
 * validity, revocation and the signer's organisation are the caller's, as for the TLS certificate.
 */
import { constants, createHash, verify, type KeyObject, type X509Certificate } from "node:crypto";

type Headers = Record<string, string | string[] | undefined>;

export interface SignatureParameters {
  keyId: string;
  algorithm: string | undefined;
  /** lowercase names in signing order */
  headers: string[];
  signature: Buffer;
}

export interface SignedRequest {
  method: string;
  /** path and query exactly as sent */
  target: string;
  headers: Headers;
}

/** Outcome of a check: null when it passes, otherwise the reason told to the TPP. */
export type Problem = string | null;

const DIGESTS: Readonly<Record<string, string>> = { "SHA-256": "sha256", "SHA-512": "sha512" };

/**
 * What clients send in practice. The name only has to be one of these: the key in the signing
 * certificate decides how the signature is checked. HMAC names are refused, lest a public key
 * be used as an HMAC secret.
 */
const ALGORITHM_NAMES = new Set([
  "hs2019", "rsa-sha256", "rsa-sha512", "rsa-pss-sha256", "rsa-pss-sha512", "ecdsa-sha256",
  "ecdsa-sha384", "ecdsa-sha512", "ed25519", "sha-256", "sha256", "sha-512", "sha512",
  "sha256withrsa", "sha512withrsa", "sha256withecdsa", "sha384withecdsa", "sha512withecdsa",
]);

/** Always signed; Berlin Group IG v1.3 §12.2. */
const ALWAYS_SIGNED = ["digest", "x-request-id"];
/** Signed whenever the request carries them (same source). */
const SIGNED_WHEN_PRESENT = ["date", "psu-id", "psu-corporate-id", "tpp-redirect-uri"];

const PARAMETER = /\s*([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^",\s]*))\s*(?:,|$)/y;

/**
 * `keyId="...",algorithm="...",headers="...",signature="..."`; a parameter named twice is
 * refused.
 */
export function parseSignature(value: string): SignatureParameters | string {
  const found = new Map<string, string>();
  PARAMETER.lastIndex = 0;
  while (PARAMETER.lastIndex < value.length) {
    const start = PARAMETER.lastIndex;
    const match = PARAMETER.exec(value);
    if (!match || PARAMETER.lastIndex === start) {
      return "Signature is not a list of name=\"value\" parameters";
    }
    const name = (match[1] ?? "").toLowerCase();
    if (found.has(name)) return `Signature names ${name} twice`;
    found.set(name, match[2] ?? match[3] ?? "");
  }
  const keyId = found.get("keyid");
  const signature = found.get("signature");
  if (!keyId) return "Signature has no keyId";
  if (!signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    return "Signature has no base64 signature";
  }
  const algorithm = found.get("algorithm")?.toLowerCase();
  if (algorithm !== undefined && !ALGORITHM_NAMES.has(algorithm)) {
    return `Signature algorithm "${algorithm.slice(0, 40)}" is not accepted`;
  }
  // draft-cavage: without a headers parameter only Date is signed.
  const headers = (found.get("headers") ?? "date").toLowerCase().split(/\s+/)
    .filter((h) => h !== "");
  return { keyId, algorithm, headers, signature: Buffer.from(signature, "base64") };
}

/**
 * `SHA-256=<base64>` (RFC 3230), several comma-separated allowed; each must be SHA-256 or
 * SHA-512 and match the body bytes exactly as received.
 */
export function checkDigest(value: string, body: Uint8Array): Problem {
  const entries = value.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const separator = entry.indexOf("=");
    const name = entry.slice(0, Math.max(separator, 0)).toUpperCase();
    const hash = DIGESTS[name];
    if (!hash) {
      return `Digest must be SHA-256=<base64> or SHA-512=<base64>, got "${entry.slice(0, 40)}"`;
    }
    const expected = createHash(hash).update(body).digest("base64");
    if (entry.slice(separator + 1) !== expected) {
      return `Digest ${name} does not match the request body`;
    }
  }
  return null;
}

function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The lines `name: value` of the named headers in order (`(request-target)`: method and target),
 * after checking that every header in `required` is among them. `what` names the signature in
 * the reasons. The JAdES HttpHeaders mechanism of openFinance 2.x signs the same text.
 */
export function signedHeaderText(
  names: readonly string[], required: readonly string[], request: SignedRequest, what: string,
): { text: string } | { problem: string } {
  const unsigned = required.filter((name) => !names.includes(name));
  if (unsigned.length > 0) return { problem: `${what} must cover ${unsigned.join(", ")}` };
  const lines: string[] = [];
  for (const name of names) {
    if (name === "(request-target)") {
      lines.push(`${name}: ${request.method.toLowerCase()} ${request.target}`);
      continue;
    }
    const value = headerValue(request.headers, name);
    if (value === undefined) {
      return { problem: `${what} covers ${name}, which the request does not carry` };
    }
    lines.push(`${name}: ${value}`);
  }
  return { text: lines.join("\n") };
}

/** The headers a signature must cover: `always`, and those of `whenPresent` the request carries. */
export const requiredHeaders = (
  always: readonly string[], whenPresent: readonly string[], headers: Headers,
): string[] => [...always, ...whenPresent.filter((name) => headers[name] !== undefined)];

/** The draft's signing string, after checking that everything the bank requires is covered. */
export function signingString(
  parameters: SignatureParameters, request: SignedRequest,
): { text: string } | { problem: string } {
  const required = requiredHeaders(ALWAYS_SIGNED, SIGNED_WHEN_PRESENT, request.headers);
  return signedHeaderText(parameters.headers, required, request, "Signature");
}

export interface KeyId { serial: string; issuer: string }

/** `SN=<serial in hex>,CA=<issuer DN, percent-encoded>`. */
export function parseKeyId(keyId: string): KeyId | string {
  const match = /^SN=([0-9A-Fa-f]{1,64}),\s*CA=(.+)$/i.exec(keyId);
  if (!match) return "keyId must read SN=<serial in hex>,CA=<issuer>";
  try {
    return { serial: match[1] ?? "", issuer: decodeURIComponent(match[2] ?? "") };
  } catch {
    return "keyId's CA is not valid percent-encoding";
  }
}

const normalSerial = (hex: string) => hex.toLowerCase().replace(/^0+(?=.)/, "");

/**
 * A DN as a sorted list of TYPE=value: RFC 4514 strings name the RDNs in reverse order and
 * clients differ in spacing, quoting and case, none of which changes the name.
 */
/** Attribute types by OID, as OpenSSL (and so node) names them; keyIds also use OID forms. */
const ATTRIBUTE_NAMES: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN", "2.5.4.5": "SERIALNUMBER", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST",
  "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.97": "ORGANIZATIONIDENTIFIER", S: "ST",
};

function attributeType(text: string): string {
  const type = text.trim().toUpperCase().replace(/^OID\./, "");
  return ATTRIBUTE_NAMES[type] ?? type;
}

function distinguishedName(text: string, separator: RegExp): string {
  return text.split(separator).map((part) => {
    const equals = part.indexOf("=");
    const type = attributeType(part.slice(0, equals));
    const value = part.slice(equals + 1).trim().replace(/^"(.*)"$/, "$1").replace(/\\(.)/g, "$1");
    return `${type}=${value.replace(/\s+/g, " ").toLowerCase()}`;
  }).sort().join("\n");
}

/** Whether the keyId names this certificate: its serial number and its issuer. */
export function keyIdMatches(keyId: KeyId, cert: X509Certificate): Problem {
  if (normalSerial(keyId.serial) !== normalSerial(cert.serialNumber)) {
    return "keyId's serial number is not the signing certificate's";
  }
  const fromKeyId = distinguishedName(keyId.issuer, /,(?=\s*[A-Za-z0-9][\w.-]*\s*=)/);
  if (fromKeyId !== distinguishedName(cert.issuer, /\n/)) {
    return "keyId's CA is not the signing certificate's issuer";
  }
  return null;
}

type Verifier = (data: Buffer, signature: Buffer) => boolean;

const CURVE_HASHES: Readonly<Record<string, string>> = {
  prime256v1: "sha256", secp384r1: "sha384", secp521r1: "sha512",
};

function rsaVerifiers(key: KeyObject, pkcs1: boolean): Verifier[] {
  const pss = {
    key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO,
  };
  return ["sha256", "sha512"].flatMap((hash) => [
    ...(pkcs1 ? [(data: Buffer, sig: Buffer) => verify(hash, data, key, sig)] : []),
    (data: Buffer, sig: Buffer) => verify(hash, data, pss, sig),
  ]);
}

/** How the certificate's key signs: the algorithm name in the header does not decide this. */
function verifiersFor(key: KeyObject): Verifier[] | string {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case "rsa":
    case "rsa-pss":
      if ((details.modulusLength ?? 0) < 2048) {
        return "the signing key is an RSA key below 2048 bits";
      }
      return rsaVerifiers(key, key.asymmetricKeyType === "rsa");
    case "ec": {
      const hash = CURVE_HASHES[details.namedCurve ?? ""];
      if (!hash) return "the signing key's elliptic curve is not accepted";
      return (["der", "ieee-p1363"] as const).map((dsaEncoding) =>
        (data: Buffer, sig: Buffer) => verify(hash, data, { key, dsaEncoding }, sig));
    }
    case "ed25519":
      return [(data: Buffer, sig: Buffer) => verify(null, data, key, sig)];
    default:
      return "the signing key's type is not accepted";
  }
}

export function checkSignature(
  parameters: SignatureParameters, text: string, cert: X509Certificate,
): Problem {
  const verifiers = verifiersFor(cert.publicKey);
  if (typeof verifiers === "string") return verifiers;
  const data = Buffer.from(text, "utf8");
  const good = verifiers.some((check) => {
    try {
      return check(data, parameters.signature);
    } catch {
      return false; // a signature of the wrong shape for this variant
    }
  });
  return good ? null : "Signature does not verify with the signing certificate's key";
}

/** TPP-Signature-Certificate: base64 DER, PEM armour tolerated. */
export function signingCertificateDer(value: string): Uint8Array | null {
  const base64 = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  return new Uint8Array(Buffer.from(base64, "base64"));
}
