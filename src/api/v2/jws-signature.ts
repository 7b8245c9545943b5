/**
 * x-jws-signature on /v2 requests (openFinance 2.x message signing): verified whenever sent,
 * required with V2_JWS_SIGNATURE_REQUIRED; the Digest it covers binds the body. The signing
 * certificate is x5c's first, judged as 1.3's TPP-Signature-Certificate is (chain, validity,
 * revocation, the TLS certificate's organisation), or, named by x5t#S256 alone, the TLS
 * certificate itself: the one certificate of the TPP the bank has without being sent it.
 */
import { X509Certificate } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { jwsSignatureMissing, signatureInvalid } from "../../domain/kernel/errors.js";
import { requiredHeaders, signedHeaderText } from "../../tpp/http-signature.js";
import {
  parseJwsSignature, thumbprintOf, verifyJws, type JwsSignature,
} from "../../tpp/jws-signature.js";
import { single } from "../headers.js";
import { checkSentDigest, signingCertificates } from "../signature.js";
import type { CertificateSources } from "../tpp-certificate.js";

const HEADER = "x-jws-signature";
/** 1.3's rule (IG 1.3 §12.2) under 2.x's names: the PSU's identity and redirect when sent. */
const ALWAYS_SIGNED = ["digest", "x-request-id"];
const SIGNED_WHEN_PRESENT = ["psu-id", "psu-corporate-id", "client-redirect-uri"];

export interface JwsPolicy {
  /** Refuse /v2 requests without x-jws-signature (SIGNATURE_MISSING). */
  required: boolean;
  certificates: CertificateSources;
}

const invalid = (text: string) => signatureInvalid(HEADER, `${text}.`);

/** Throws SIGNATURE_MISSING or SIGNATURE_INVALID, or returns when the request may proceed. */
export function createJwsSignatureCheck(policy: JwsPolicy) {
  const judged = signingCertificates(policy.certificates);
  const signer = async (request: FastifyRequest, jws: JwsSignature): Promise<X509Certificate> => {
    if (jws.certificate !== undefined) return judged(request, jws.certificate, HEADER);
    if (jws.thumbprint === thumbprintOf(request.tppCertificate)) {
      return new X509Certificate(request.tppCertificate);
    }
    throw invalid("x5t#S256 names no certificate the bank has: send the signing one in x5c");
  };
  return async (request: FastifyRequest, rawBody: Uint8Array): Promise<void> => {
    // 2.x has no 400 code for it: the Digest is what the signature holds of the body.
    checkSentDigest(request, rawBody, (text) => signatureInvalid("Digest", text));
    const value = single(request.headers, HEADER);
    if (value === undefined) {
      if (policy.required) throw jwsSignatureMissing();
      return;
    }
    const jws = parseJwsSignature(value);
    if (typeof jws === "string") throw invalid(jws);
    const required = requiredHeaders(ALWAYS_SIGNED, SIGNED_WHEN_PRESENT, request.headers);
    const signed = signedHeaderText(jws.pars, required,
      { method: request.method, target: request.raw.url ?? "", headers: request.headers }, HEADER);
    if ("problem" in signed) throw invalid(signed.problem);
    const problem = await verifyJws(jws, signed.text, await signer(request, jws));
    if (problem) throw invalid(problem);
  };
}
