/**
 * The Berlin Group signature trio (Digest, Signature, TPP-Signature-Certificate) on a request:
 * verified whenever present, required when the bank says so. The signing certificate passes the
 * same checks as the TLS certificate and must belong to the same organisation.
 */
import { X509Certificate } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { digestInvalid, signatureInvalid, signatureMissing } from "../domain/kernel/errors.js";
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

/** Chain, validity, revocation and the PSD2 profile of a TPP-Signature-Certificate value. */
async function checkSigningCertificate(
  value: string, policy: SignaturePolicy,
): Promise<SigningCheck> {
  const der = signingCertificateDer(value);
  if (!der) {
    return { ok: false, text: "TPP-Signature-Certificate must be a base64 DER certificate" };
  }
  const { trust, revocation } = policy.certificates;
  const check = await checkChainedCertificate(der, trust.check(der, new Date()), revocation);
  if (!check.ok) {
    const reason = check.text.replace(/\.$/, "");
    return { ok: false, text: `The signing certificate is refused: ${reason}` };
  }
  return { ok: true, id: check.identity.id, cert: new X509Certificate(der) };
}

/** A TPP sends the same signing certificate on every request: its verdict is reused for a while. */
function signingCertificates(policy: SignaturePolicy) {
  const verdicts = createRecheckCache<SigningCheck>(RECHECK_MS, 1_000);
  return async (request: FastifyRequest): Promise<X509Certificate> => {
    const path = "TPP-Signature-Certificate";
    const value = single(request.headers, path);
    if (value === undefined) {
      throw invalid(path, "A Signature needs its signing certificate in this header");
    }
    const check = await verdicts.get(value, () => checkSigningCertificate(value, policy));
    if (!check.ok) throw invalid(path, check.text);
    if (check.id !== request.tpp.id) {
      throw invalid(path,
        `The signing certificate belongs to ${check.id}, the TLS certificate to ${request.tpp.id}`);
    }
    return check.cert;
  };
}

type SigningCertificate = (request: FastifyRequest) => Promise<X509Certificate>;

async function checkRequestSignature(
  request: FastifyRequest, rawBody: Uint8Array, required: boolean,
  signingCertificate: SigningCertificate,
): Promise<void> {
  const digest = single(request.headers, "Digest");
  if (digest !== undefined) {
    const problem = checkDigest(digest, rawBody);
    if (problem) throw digestInvalid(`${problem}.`);
  }
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
  const signingCertificate = signingCertificates(policy);
  return (request: FastifyRequest, rawBody: Uint8Array) =>
    checkRequestSignature(request, rawBody, policy.required, signingCertificate);
}
