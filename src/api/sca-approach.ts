/**
 * The SCA approach a creation gets, as the Berlin Group implementation guidelines let the bank
 * choose it: `TPP-Decoupled-Preferred: true` asks for decoupled, `TPP-Redirect-Preferred: true`
 * for redirect and `false` for embedded or decoupled (openFinance 2.x: the approaches
 * `Client-SCA-Approach-Preference` lists, in its order); a preference the bank does not offer, or
 * none, gets the bank's default. Embedded and decoupled need the PSU's identity (PSU-ID); without
 * it the approach stays and the links ask the TPP to identify the PSU first.
 */
import type { LaterSca, RedirectTargets } from "../domain/deps.js";
import type { ScaApproach } from "../lib/sca-approaches.js";
import type { RedirectRules } from "../domain/kernel/redirect-uri.js";
import { formatError } from "../domain/kernel/errors.js";
import {
  psuLanguage, readPreference, readPsuId, readRedirectTargets, single, V1_HEADERS, V2_HEADERS,
  type Headers, type RedirectHeaderNames,
} from "./headers.js";

export interface ScaApproachRules {
  offered: readonly ScaApproach[];
  /** One of `offered`. */
  fallback: ScaApproach;
  /** The authorisation server's metadata (RFC 8414), the `scaOAuth` link of the oauth approach. */
  oauthMetadata?: () => string;
  /** AUTHORISATION_CONFIRMATION: a redirect offers `_links.confirmation`. */
  confirmation?: boolean;
}

export interface ChosenApproach {
  approach: ScaApproach;
  /** The PSU the TPP named (PSU-ID), which embedded and decoupled need. */
  psuId: string | null;
  /** The oauth approach's `scaOAuth` link. */
  scaOAuth?: string;
  /** The redirect ends with the TPP's confirmation code (AUTHORISATION_CONFIRMATION). */
  confirmation?: boolean;
}

/** How an interface's headers ask for approaches, and name the redirect's URIs. */
export interface ApproachHeaders {
  /** The approaches the TPP's headers ask for, the most wanted first. */
  wanted(headers: Headers, fallback: ScaApproach): ScaApproach[];
  redirect: RedirectHeaderNames;
}

/** The redirect stands for OAuth2 too (subsumed under REDIRECT); the bank's default first. */
const redirects = (fallback: ScaApproach): ScaApproach[] =>
  fallback === "oauth" ? ["oauth", "redirect"] : ["redirect", "oauth"];

/** NextGenPSD2 1.3: TPP-Redirect-Preferred and TPP-Decoupled-Preferred. */
function v1Wanted(headers: Headers, fallback: ScaApproach): ScaApproach[] {
  const redirect = readPreference(headers, "TPP-Redirect-Preferred");
  const decoupled = readPreference(headers, "TPP-Decoupled-Preferred");
  const ranked: ScaApproach[] = [];
  if (decoupled === true) ranked.push("decoupled");
  if (redirect === true) ranked.push(...redirects(fallback));
  if (redirect === false) ranked.push("embedded", "decoupled");
  return ranked.filter((a) => !(decoupled === false && a === "decoupled"));
}

/** openFinance 2.x: Client-SCA-Approach-Preference; no approach here is a "signature". */
function v2Wanted(headers: Headers, fallback: ScaApproach): ScaApproach[] {
  return readApproachPreference(headers).flatMap((entry): ScaApproach[] => {
    if (entry === "redirect") return redirects(fallback);
    return entry === "embedded" || entry === "decoupled" ? [entry] : [];
  });
}

export const V1_APPROACH: ApproachHeaders = { wanted: v1Wanted, redirect: V1_HEADERS };
export const V2_APPROACH: ApproachHeaders = { wanted: v2Wanted, redirect: V2_HEADERS };

export function chooseScaApproach(
  headers: Headers, rules: ScaApproachRules, ask = V1_APPROACH,
): ChosenApproach {
  const ranked = ask.wanted(headers, rules.fallback);
  const approach = ranked.find((a) => rules.offered.includes(a)) ?? rules.fallback;
  const scaOAuth = approach === "oauth" ? rules.oauthMetadata?.() : undefined;
  return { approach, psuId: readPsuId(headers), ...(scaOAuth ? { scaOAuth } : {}),
    ...(rules.confirmation && approach === "redirect" ? { confirmation: true } : {}) };
}

/**
 * A creation's approach and where its authorisation goes: only the redirect needs the TPP's
 * TPP-Redirect-URI, since only there does the PSU's browser come back.
 */
export function readScaTargets(
  headers: Headers, rules: { approaches: ScaApproachRules; redirects: RedirectRules },
  domains: readonly string[], ask = V1_APPROACH,
): { chosen: ChosenApproach; redirect: RedirectTargets } {
  const chosen = chooseScaApproach(headers, rules.approaches, ask);
  // The oauth approach's way back is the redirect_uri of the TPP's authorisation request.
  const needsUri = chosen.approach === "redirect";
  const targets = readRedirectTargets(headers, rules.redirects, domains, needsUri, ask.redirect);
  return { chosen, redirect: { ...targets, approach: chosen.approach } };
}

/** An authorisation the TPP starts later: its approach, PSU and language from the headers. */
export function readLaterSca(
  headers: Headers, rules: ScaApproachRules, ask = V1_APPROACH,
): { chosen: ChosenApproach; sca: LaterSca } {
  const chosen = chooseScaApproach(headers, rules, ask);
  const sca = { lang: psuLanguage(headers), namedPsu: chosen.psuId, approach: chosen.approach };
  return { chosen, sca };
}

/** The ASPSP-SCA-Approach header's value: OAuth2 is subsumed under REDIRECT (1.3.12). */
export function approachHeader(chosen: ChosenApproach): string {
  return chosen.approach === "oauth" ? "REDIRECT" : chosen.approach.toUpperCase();
}

/** Where an authorisation lives: started (implicit) or to be started by the TPP (explicit). */
interface AuthorisationPaths {
  authorisations: string;
  authorisation: string | null;
}

/**
 * The links of an embedded or decoupled creation (the guidelines' names); the redirect's links
 * are the profile's own. The PSU not named yet: identify first.
 */
export function approachLinks(
  chosen: ChosenApproach, paths: AuthorisationPaths,
): Record<string, string> {
  const { authorisation, authorisations } = paths;
  if (chosen.approach === "oauth") return oauthLinks(chosen, paths);
  if (authorisation === null) {
    if (chosen.psuId === null) return { startAuthorisationWithPsuIdentification: authorisations };
    return chosen.approach === "embedded"
      ? { startAuthorisationWithPsuAuthentication: authorisations }
      : { startAuthorisation: authorisations };
  }
  if (chosen.psuId === null) {
    return { updatePsuIdentification: authorisation, scaStatus: authorisation };
  }
  if (chosen.approach === "embedded") {
    return { updatePsuAuthentication: authorisation, scaStatus: authorisation };
  }
  return { scaStatus: authorisation };
}

/**
 * The oauth approach's links: the authorisation server's metadata, where the TPP pushes its
 * authorisation request with the scope naming the resource, and the authorisation to poll.
 */
function oauthLinks(chosen: ChosenApproach, paths: AuthorisationPaths): Record<string, string> {
  const scaOAuth: Record<string, string> = chosen.scaOAuth ? { scaOAuth: chosen.scaOAuth } : {};
  return paths.authorisation === null
    ? { ...scaOAuth, startAuthorisation: paths.authorisations }
    : { ...scaOAuth, scaStatus: paths.authorisation };
}

const PREFERABLE = ["redirect", "embedded", "decoupled", "signature"];

/**
 * openFinance 2.x's Client-SCA-Approach-Preference ("decoupled, redirect"), the most wanted
 * first; refused if malformed. The file lets the bank ignore it (ASPSP-SCA-Approach says the one
 * taken).
 */
function readApproachPreference(headers: Headers): string[] {
  const name = "Client-SCA-Approach-Preference";
  const value = single(headers, name);
  if (value === undefined) return [];
  const ranked = value.split(",").map((entry) => entry.trim().toLowerCase());
  if (value.length > 35 || ranked.some((entry) => !PREFERABLE.includes(entry))) {
    throw formatError("header", name,
      `${name} lists some of ${PREFERABLE.join(", ")}, comma-separated (at most 35 characters).`);
  }
  return ranked;
}

/**
 * The approaches a signing basket is authorised in: the bank's but OAuth2, since a token's scope
 * names a consent or a payment (AIS, PIS, PIIS), never a basket; where OAuth2 is the bank's
 * default, the redirect takes its place.
 */
export function basketApproaches(rules: ScaApproachRules): ScaApproachRules {
  const offered = rules.offered.filter((a) => a !== "oauth");
  const fallback = rules.fallback === "oauth" ? "redirect" : rules.fallback;
  return { ...rules, offered,
    fallback: offered.includes(fallback) ? fallback : offered[0] ?? "redirect" };
}
