/**
 * The TPP's certificate → its identity, failing closed, in the contract's order: chain, validity,
 * revocation, QCStatement, organizationIdentifier. The certificate comes from our own TLS
 * handshake, or from a TLS-terminating proxy's header when the request comes from a configured
 * proxy address; the same checks apply to the signing certificate of an HTTP signature.
 */
import type { TLSSocket } from "node:tls";
import type { FastifyRequest } from "fastify";
import { certificateRefused, type CertificateCode } from "../domain/kernel/errors.js";
import {
  parseTppCertificate, type ParseTppCertificateResult, type TppIdentity,
} from "../tpp/certificate.js";
import type { RevocationChecker } from "../tpp/revocation.js";
import type { ChainVerdict, TrustStore } from "../tpp/trust.js";
import { createRecheckCache } from "../lib/recheck-cache.js";

export type CertificateCheck =
  | { ok: true; identity: TppIdentity; der: Uint8Array }
  | { ok: false; code: CertificateCode; text: string };

export interface CertificateSources {
  revocation: RevocationChecker;
  trust: TrustStore;
  /**
   * Lowercase name of the header a TLS-terminating proxy forwards the certificate in; "" for
   * none.
   */
  certHeader: string;
  /** Addresses the header is believed from; from any other the header is ignored. */
  trustedProxies: readonly string[];
}

const refuse = (code: CertificateCode, text: string) => ({ ok: false, code, text }) as const;

const CHAIN_TEXT: Record<Exclude<ChainVerdict, "ok">, string> = {
  CERTIFICATE_EXPIRED: "The certificate is outside its validity period.",
  CERTIFICATE_INVALID: "The certificate is not issued by a trusted CA.",
};

/** Certificates whose parse is kept at most; past it, every parse is forgotten. */
const PARSED_MAX = 1_000;
const parsedCertificates = new Map<string, ParseTppCertificateResult>();

/**
 * A TPP's certificate comes with each of its connections and signatures, and parsing its PSD2
 * profile (ASN.1) took 7-10 % of a read's CPU in the bench, where 50 connections open at once.
 * The outcome depends on the bytes alone, so each certificate is parsed once; chain, validity
 * and revocation are still judged every time. The identity is frozen: requests share it.
 */
function parsedOnce(der: Uint8Array): ParseTppCertificateResult {
  const key = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString("base64");
  let parsed = parsedCertificates.get(key);
  if (!parsed) {
    if (parsedCertificates.size >= PARSED_MAX) parsedCertificates.clear();
    parsed = parseTppCertificate(der);
    if (parsed.ok) Object.values(Object.freeze(parsed.identity)).forEach((v) => Object.freeze(v));
    parsedCertificates.set(key, parsed);
  }
  return parsed;
}

/** After chain and validity: revocation, then the PSD2 profile. */
export async function checkChainedCertificate(
  der: Uint8Array, chain: ChainVerdict, revocation: RevocationChecker,
): Promise<CertificateCheck> {
  if (chain !== "ok") return refuse(chain, CHAIN_TEXT[chain]);
  const revoked = await revocation.status(der);
  if (revoked === "revoked") {
    return refuse("CERTIFICATE_REVOKED", "The certificate has been revoked.");
  }
  if (revoked === "unknown") {
    return refuse("CERTIFICATE_INVALID",
      "The revocation status of the certificate cannot be determined.");
  }
  const parsed = parsedOnce(der);
  if (!parsed.ok) {
    return refuse("CERTIFICATE_INVALID",
      `The certificate is not a PSD2 certificate: ${parsed.problem.reason}.`);
  }
  return { ok: true, identity: parsed.identity, der };
}

function tlsChainVerdict(socket: TLSSocket): ChainVerdict {
  if (socket.authorized) return "ok";
  const reason = String(socket.authorizationError ?? "");
  const outsideValidity = reason === "CERT_HAS_EXPIRED" || reason === "CERT_NOT_YET_VALID";
  return outsideValidity ? "CERTIFICATE_EXPIRED" : "CERTIFICATE_INVALID";
}

async function checkTlsPeer(
  socket: TLSSocket, revocation: RevocationChecker,
): Promise<CertificateCheck> {
  const peer = socket.getPeerX509Certificate?.();
  if (!peer) {
    return refuse("CERTIFICATE_MISSING", "A client certificate (QWAC) is required on every call.");
  }
  // The handshake judged validity when it happened; a connection can outlive the certificate.
  const expired = Date.now() > new Date(peer.validTo).getTime();
  const chain = tlsChainVerdict(socket);
  const verdict = chain === "ok" && expired ? "CERTIFICATE_EXPIRED" : chain;
  return checkChainedCertificate(new Uint8Array(peer.raw), verdict, revocation);
}

/**
 * nginx's $ssl_client_escaped_cert is URL-encoded PEM; envoy's x-forwarded-client-cert carries
 * it as Cert="..." among other key=value pairs. Null when no PEM certificate can be read.
 */
export function forwardedCertificateDer(value: string): Uint8Array | null {
  const xfcc = /(?:^|[;,])\s*Cert="?([^";,]+)"?/i.exec(value)?.[1];
  let pem: string;
  try {
    pem = decodeURIComponent(xfcc ?? value);
  } catch {
    return null;
  }
  const body = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----\s*$/
    .exec(pem.trim())?.[1];
  return body === undefined
    ? null : new Uint8Array(Buffer.from(body.replace(/\s+/g, ""), "base64"));
}

async function checkForwarded(
  value: string, sources: CertificateSources,
): Promise<CertificateCheck> {
  // The proxy's own TLS certificate (if any) is not the TPP's: no header means no certificate.
  if (value === "") {
    return refuse("CERTIFICATE_MISSING", "A client certificate (QWAC) is required on every call.");
  }
  const der = forwardedCertificateDer(value);
  if (!der) {
    return refuse("CERTIFICATE_INVALID",
      "The forwarded client certificate is not a URL-encoded PEM certificate.");
  }
  return checkChainedCertificate(der, sources.trust.check(der, new Date()), sources.revocation);
}

/** IPv4 clients of a dual-stack listener appear as ::ffff:a.b.c.d. */
const plainAddress = (address: string | undefined) =>
  (address ?? "").replace(/^::ffff:(?=\d+\.)/, "");

/** How long a verdict on a certificate is reused; a new CRL, OCSP answer or expiry counts after. */
export const RECHECK_MS = 60_000;

/**
 * A keep-alive connection reuses its verdict for RECHECK_MS. A proxy's connection carries many
 * TPPs' requests, so there the verdict belongs to the header's value instead.
 */
const checkedSockets = new WeakMap<TLSSocket, { verdict: Promise<CertificateCheck>; at: number }>();

function tlsVerdict(socket: TLSSocket, sources: CertificateSources): Promise<CertificateCheck> {
  let checked = checkedSockets.get(socket);
  if (!checked || Date.now() - checked.at > RECHECK_MS) {
    checked = { verdict: checkTlsPeer(socket, sources.revocation), at: Date.now() };
    checkedSockets.set(socket, checked);
  }
  return checked.verdict;
}

/** A TPP and the certificate it was read from (what OAuth tokens are bound to). */
export interface VerifiedTpp { identity: TppIdentity; der: Uint8Array }

/** The TPP behind a request, or the Berlin Group refusal, for one API's certificate sources. */
export function createIdentify(
  sources: CertificateSources,
): (request: FastifyRequest) => Promise<VerifiedTpp> {
  const forwarded = createRecheckCache<CertificateCheck>(RECHECK_MS, 1_000);
  return async (request) => {
    const socket = request.raw.socket as TLSSocket;
    const fromProxy = sources.certHeader !== ""
      && sources.trustedProxies.includes(plainAddress(socket.remoteAddress));
    const header = fromProxy ? request.headers[sources.certHeader] : undefined;
    const value = typeof header === "string" ? header : "";
    const check = await (fromProxy
      ? forwarded.get(value, () => checkForwarded(value, sources))
      : tlsVerdict(socket, sources));
    if (!check.ok) throw certificateRefused(check.code, check.text);
    return { identity: check.identity, der: check.der };
  };
}
