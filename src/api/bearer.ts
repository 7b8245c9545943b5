/**
 * Berlin Group's OAuth2 pre-step on the XS2A API: `Authorization: Bearer` with a token the bank's
 * authorisation server issued to this very certificate (RFC 8705: a token is worthless without
 * the TPP's key), for the consent or payment the call names, and that one only. A token that is
 * sent is always checked; OAUTH_BEARER_REQUIRED makes one mandatory on every call naming a
 * consent or payment (a creation names none yet: its token can only follow it).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  tokenExpired, tokenInvalid, tokenNotBound, tokenOutOfScope, tokenRequired, tokenUnknown,
} from "../domain/kernel/errors.js";
import { scopedResources, type ScopedResource } from "../domain/sca/oauth.js";
import { single } from "./headers.js";

type Verdict =
  | { ok: true; clientId: string; scope: string }
  | { ok: false; reason: "unknown" | "expired" | "unbound" };

export interface BearerOptions {
  /** The authorisation server's judgement of a token presented with a certificate (DER). */
  verify(token: string, certificate: Uint8Array): Promise<Verdict>;
  required: boolean;
  /** The interfaces' paths (/psd2/v1, /psd2/v2): a token's scope is the same on both. */
  bases: readonly string[];
}

const REFUSALS = { unknown: tokenUnknown, expired: tokenExpired, unbound: tokenNotBound } as const;

/** The consent or payment a call is about, under the service a token's scope must name it. */
function namedResource(request: FastifyRequest, bases: readonly string[]): ScopedResource | null {
  const url = request.url.split("?")[0] ?? "";
  const base = bases.find((b) => url.startsWith(`${b}/`));
  if (base === undefined) return null;
  const path = url.slice(base.length);
  const params = (request.params ?? {}) as { paymentId?: string; consentId?: string };
  if (params.paymentId !== undefined) return { service: "PIS", id: params.paymentId };
  if (params.consentId !== undefined) {
    return { service: FUNDS_CONSENTS.test(path) ? "PIIS" : "AIS", id: params.consentId };
  }
  const consentId = single(request.headers, "Consent-ID");
  if (consentId === undefined) return null;
  if (/^\/(?:accounts|card-accounts)(?:\/|$)/.test(path)) return { service: "AIS", id: consentId };
  // A funds confirmation names its consent in the header too, as its route reads it.
  return path === "/funds-confirmations" ? { service: "PIIS", id: consentId } : null;
}

/** A funds-confirmation consent's path: /v1's (1.3) and /v2's (Consent API 2.1). */
const FUNDS_CONSENTS = /^\/consents\/(?:confirmation-of-funds|funds-confirmations)\//;

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export function installBearerCheck(app: FastifyInstance, options: BearerOptions): void {
  // After routing: the resource a call names is in its path parameters or its Consent-ID.
  app.addHook("preHandler", async (request) => {
    const { probe, document, oauth } = request.routeOptions.config;
    if (probe || document || oauth) return;
    const header = request.headers.authorization;
    // Most calls carry no token: reading the resource then matters only for a mandatory token,
    // or to refuse a Consent-ID sent twice (namedResource's one refusal).
    if (header === undefined && !options.required
      && !Array.isArray(request.headers["consent-id"])) return;
    const named = namedResource(request, options.bases);
    if (header === undefined) {
      if (options.required && named) throw tokenRequired();
      return;
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) throw tokenInvalid("Authorization must be Bearer <access token>.");
    const verdict = await options.verify(token, request.tppCertificate);
    if (!verdict.ok) throw REFUSALS[verdict.reason]();
    if (verdict.clientId !== request.tpp.id) throw tokenNotBound();
    const inScope = scopedResources(verdict.scope)
      .some((s) => named && s.service === named.service && s.id === named.id);
    if (named && !inScope) throw tokenOutOfScope();
  });
}
