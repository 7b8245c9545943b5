/**
 * A TPP's openFinance 2.x message signer for tests: Digest of the body and x-jws-signature, a
 * JAdES compact JWS (b64 false, detached) whose sigD names the headers signed, their lines the
 * payload. Written with node:crypto alone, apart from the bank's jose, so the two check each
 * other. Every part can be overridden, so tests can send each kind of wrong signature.
 */
import { createHash, createPrivateKey, sign, X509Certificate } from "node:crypto";
import type { KeyAndCertificate } from "../../src/tpp/dev-ca.js";
import type { RequestSigner } from "./tpp-client.js";

export interface JwsSignerOptions {
  /**
   * Signed headers (lowercase) in order; default digest, x-request-id and those present of
   * psu-id, psu-corporate-id, client-redirect-uri.
   */
  pars?: string[];
  /** Protected header parameters set over the defaults (undefined: left out). */
  header?: Record<string, unknown>;
  /** The certificate named: in x5c (default), or by x5t#S256 alone. */
  reference?: "x5c" | "x5t#S256";
  /** The certificate named instead of the signing one. */
  sentCertificate?: string;
}

const OPTIONAL_SIGNED = ["psu-id", "psu-corporate-id", "client-redirect-uri"];

const base64url = (value: string) => Buffer.from(value, "utf8").toString("base64url");

export function jwsSigner(signing: KeyAndCertificate, options: JwsSignerOptions = {}): RequestSigner {
  const key = createPrivateKey(signing.keyPem);
  const rsa = key.asymmetricKeyType === "rsa";
  const named = new X509Certificate(options.sentCertificate ?? signing.certPem);
  const reference = options.reference === "x5t#S256"
    ? { "x5t#S256": createHash("sha256").update(named.raw).digest("base64url") }
    : { x5c: [named.raw.toString("base64")] };
  return ({ method, target, headers, body }) => {
    const lower = new Map(Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), [value].flat().join(", ")]));
    const Digest = `SHA-256=${createHash("sha256").update(body, "utf8").digest("base64")}`;
    lower.set("digest", Digest);
    const pars = options.pars
      ?? ["digest", "x-request-id", ...OPTIONAL_SIGNED.filter((name) => lower.has(name))];
    const payload = pars.map((name) => name === "(request-target)"
      ? `${name}: ${method.toLowerCase()} ${target}` : `${name}: ${lower.get(name) ?? ""}`).join("\n");
    const header = Object.fromEntries(Object.entries({
      alg: rsa ? "RS256" : "ES256", b64: false, crit: ["sigT", "sigD", "b64"], ...reference,
      sigT: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      sigD: { pars, mId: "http://uri.etsi.org/19182/HttpHeaders" }, ...options.header,
    }).filter(([, value]) => value !== undefined));
    const encoded = base64url(JSON.stringify(header));
    const input = Buffer.from(`${encoded}.${payload}`, "utf8");
    const signature = rsa ? sign("sha256", input, key)
      : sign("sha256", input, { key, dsaEncoding: "ieee-p1363" });
    return { Digest, "x-jws-signature": `${encoded}..${signature.toString("base64url")}` };
  };
}
