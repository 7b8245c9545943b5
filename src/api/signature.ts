/**
 * The Berlin Group signature trio (Digest, Signature, TPP-Signature-Certificate) on a request:
 * verified whenever present, required when the bank says so. The signing certificate passes the
 * same checks as the TLS certificate and must belong to the same organisation.
 */
import { X509Certificate } from "node:crypto";
import type { FastifyRequest } from "fastify";
import {
  digestInvalid, signatureInvalid, signatureMissing, type Xs2aError,
} from "../domain/kernel/errors.js";
import { createRecheckCache } from "../lib/recheck-cache.js";
import {
  checkDigest, checkSignature, keyIdMatches, parseKeyId, parseSignature, signingCertificateDer,
  signingString,
} from "../tpp/http-signature.js";
import { single } from "./headers.js";
import { checkChainedCertificate, RECHECK_MS, type CertificateSources } from "./tpp-certificate.js";

export interface SignaturePolicy {
  /** Refuse requests without Signature (SIGNATURE_MISSING). */
  required: boolean;
  certificates: CertificateSources;
}

const invalid = (path: string, text: string) => signatureInvalid(path, `${text}.`);

type SigningCheck = { ok: true; id: string; cert: X509Certificate } | { ok: false; text: string };

/** Chain, validity, revocation and the PSD2 profile of a signing certificate (base64 DER). */
async function checkSigningCertificate(
  value: string, certificates: CertificateSources,
): Promise<SigningCheck> {
  const der = signingCertificateDer(value);
  if (!der) return { ok: false, text: "The signing certificate must be base64 DER" };
  const { trust, revocation } = certificates;
  const check = await checkChainedCertificate(der, trust.check(der, new Date()), revocation);
  if (!check.ok) {
    const reason = check.text.replace(/\.$/, "");
    return { ok: false, text: `The signing certificate is refused: ${reason}` };
  }
  return { ok: true, id: check.identity.id, cert: new X509Certificate(der) };
}

/**
 * The signing certificate `value` (base64 DER, sent in `path`), judged as the TLS certificate is
 * and required to be the same organisation's. A TPP sends the same one on every request: its
 * verdict is reused for a while.
 */
export function signingCertificates(certificates: CertificateSources) {
  const verdicts = createRecheckCache<SigningCheck>(RECHECK_MS, 1_000);
  return async (request: FastifyRequest, value: string, path: string): Promise<X509Certificate> => {
    const check = await verdicts.get(value, () => checkSigningCertificate(value, certificates));
    if (!check.ok) throw invalid(path, check.text);
    if (check.id !== request.tpp.id) {
      throw invalid(path,
        `The signing certificate belongs to ${check.id}, the TLS certificate to ${request.tpp.id}`);
    }
    return check.cert;
  };
}

/** The certificate of TPP-Signature-Certificate, which a Signature needs. */
function certificateHeader(policy: SignaturePolicy) {
  const judged = signingCertificates(policy.certificates);
  const path = "TPP-Signature-Certificate";
  return (request: FastifyRequest): Promise<X509Certificate> => {
    const value = single(request.headers, path);
    if (value === undefined) {
      throw invalid(path, "A Signature needs its signing certificate in this header");
    }
    return judged(request, value, path);
  };
}

type SigningCertificate = (request: FastifyRequest) => Promise<X509Certificate>;

/**
 * A Digest, on either interface, is checked whenever sent: it must match the body as received.
 * `refusal`: the interface's answer when it does not (1.3: a malformed request, 400).
 */
export function checkSentDigest(
  request: FastifyRequest, rawBody: Uint8Array,
  refusal: (text: string) => Xs2aError = digestInvalid,
): void {
  const digest = single(request.headers, "Digest");
  if (digest === undefined) return;
  const problem = checkDigest(digest, rawBody);
  if (problem) throw refusal(`${problem}.`);
}

async function checkRequestSignature(
  request: FastifyRequest, rawBody: Uint8Array, required: boolean,
  signingCertificate: SigningCertificate,
): Promise<void> {
  checkSentDigest(request, rawBody);
  const header = single(request.headers, "Signature");
  if (header === undefined) {
    if (!required) return;
    throw signatureMissing();
  }
  const parameters = parseSignature(header);
  if (typeof parameters === "string") throw invalid("Signature", parameters);
  const keyId = parseKeyId(parameters.keyId);
  if (typeof keyId === "string") throw invalid("Signature", keyId);
  const target = request.raw.url ?? "";
  const signed =
    signingString(parameters, { method: request.method, target, headers: request.headers });
  if ("problem" in signed) throw invalid("Signature", signed.problem);
  const cert = await signingCertificate(request);
  const mismatch = keyIdMatches(keyId, cert) ?? checkSignature(parameters, signed.text, cert);
  if (mismatch) throw invalid("Signature", mismatch);
}

/**
 * One API's check: throws SIGNATURE_MISSING or SIGNATURE_INVALID, or returns when the request
 * may proceed.
 */
export function createSignatureCheck(policy: SignaturePolicy) {
  const signingCertificate = certificateHeader(policy);
  return (request: FastifyRequest, rawBody: Uint8Array) =>
    checkRequestSignature(request, rawBody, policy.required, signingCertificate);
}
