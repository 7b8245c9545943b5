/**
 * Typed readers of the request headers the XS2A interface uses. Each refusal is a FORMAT_ERROR
 * naming the header.
 */
import { isIP } from "node:net";
import type { RedirectTargets } from "../domain/deps.js";
import { formatError } from "../domain/kernel/errors.js";
import { redirectUriProblem, type RedirectRules } from "../domain/kernel/redirect-uri.js";
import { negotiateLanguage } from "../lib/languages.js";

export type Headers = Record<string, string | string[] | undefined>;

/** How the bank judges the URIs a TPP gives: its redirect URIs, and TPP-Notification-URI. */
export interface UriRules extends RedirectRules {
  /** NOTIFICATION_PORTS: the ports a notification URI may name. */
  notificationPorts: readonly number[];
  /** NOTIFICATION_LOOPBACK: a notification URI on localhost may name any port. */
  notificationLoopback: boolean;
}

/** A header sent twice is as wrong as a malformed one: its meaning would be ambiguous. */
export function single(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) throw formatError("header", name, `${name} must be sent once.`);
  return value;
}

function redirectUri(
  headers: Headers, name: string, rules: RedirectRules, domains: readonly string[],
): string | null {
  const value = single(headers, name);
  // An empty value is no URI (the files' format: uri): refused, not taken for an absent header.
  if (value === undefined) return null;
  const problem = redirectUriProblem(name, value, rules, domains);
  if (problem !== null) throw formatError("header", name, problem);
  return value;
}

/** The PSU's language for the redirect pages, from PSU-Accept-Language; English by default. */
export function psuLanguage(headers: Headers): string {
  return negotiateLanguage(single(headers, "PSU-Accept-Language")) ?? "en";
}

/**
 * What each interface calls the TPP's redirect headers: NextGenPSD2 1.3's TPP-*, openFinance
 * 2.x's Client-*; the same rules judge both.
 */
export interface RedirectHeaderNames { ok: string; nok: string; explicit: string }

export const V1_HEADERS: RedirectHeaderNames = {
  ok: "TPP-Redirect-URI", nok: "TPP-Nok-Redirect-URI",
  explicit: "TPP-Explicit-Authorisation-Preferred",
};

export const V2_HEADERS: RedirectHeaderNames = {
  ok: "Client-Redirect-URI", nok: "Client-Nok-Redirect-URI",
  explicit: "Client-Explicit-Authorisation-Preferred",
};

/** `domains`: the TPP certificate's, lowercase (TppIdentity.domains). */
export function readRedirectTargets(
  headers: Headers, rules: RedirectRules, domains: readonly string[], required = true,
  names = V1_HEADERS,
): RedirectTargets {
  const ok = redirectUri(headers, names.ok, rules, domains);
  if (ok === null && required) {
    throw formatError("header", names.ok,
      `${names.ok} is required: the PSU's browser returns there after the authorisation.`);
  }
  return {
    // Without a browser (embedded) nothing is redirected: no URI, kept as the empty string.
    redirectUri: ok ?? "",
    nokRedirectUri: redirectUri(headers, names.nok, rules, domains),
    lang: psuLanguage(headers), namedPsu: readPsuId(headers),
  };
}

/** The PSU the TPP names (PSU-ID), or null when it names none. */
export function readPsuId(headers: Headers): string | null {
  return single(headers, "PSU-ID")?.trim() || null;
}

/** PSU-Corporate-ID: the company the PSU acts for (multi-level SCA); null when absent or blank. */
export function readCorporateId(headers: Headers): string | null {
  return single(headers, "PSU-Corporate-ID")?.trim() || null;
}

/**
 * TPP-Explicit-Authorisation-Preferred: true asks for no implicit authorisation; the TPP starts
 * one with POST .../authorisations. Absent means false.
 */
export function readExplicitAuthorisation(headers: Headers, names = V1_HEADERS): boolean {
  return readPreference(headers, names.explicit) ?? false;
}

/**
 * Client-VOP-Requested: true asks to read the Verification of Payee in the status after creation
 * (RCVC, RVCM, RVNC). Client-VOP-Request-ID names the TPP's request for it: checked for form
 * only, since the bank identifies its check by the payment.
 */
export function readVopRequested(headers: Headers): boolean {
  const id = single(headers, "Client-VOP-Request-ID");
  if (id !== undefined && !/^[\x21-\x7e]{1,100}$/.test(id)) {
    throw formatError("header", "Client-VOP-Request-ID",
      "Client-VOP-Request-ID must be 1 to 100 printable ASCII characters without spaces.");
  }
  return readPreference(headers, "Client-VOP-Requested") ?? false;
}

/** A TPP's boolean preference header: true, false, or not stated. */
export function readPreference(headers: Headers, name: string): boolean | undefined {
  const value = single(headers, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw formatError("header", name, `${name} must be true or false.`);
}

/** Present iff the PSU actively asked for this request (Berlin Group); must be an IP address. */
export function readPsuIpAddress(headers: Headers): string | null {
  const value = single(headers, "PSU-IP-Address");
  if (value === undefined) return null;
  // Worded as the berlin-group profile's schema words it, so both profiles refuse alike.
  if (isIP(value) === 0) {
    throw formatError("header", "PSU-IP-Address", "PSU-IP-Address is not well-formed.");
  }
  return value;
}

export function readConsentId(headers: Headers): string {
  const value = single(headers, "Consent-ID");
  if (!value) {
    throw formatError("header", "Consent-ID", "Consent-ID is required for account information.");
  }
  return value;
}

/** Query booleans are sent as true/false (Berlin Group); absent means false. */
export function readBooleanQuery(query: Record<string, unknown>, name: string): boolean {
  const value = query[name];
  if (value === undefined) return false;
  if (value === "true" || value === "false") return value === "true";
  throw formatError("query", name, `${name} must be true or false.`);
}

export const PURPOSE_HEADER = "TPP-Declared-Purpose";
/** As long as a remittance information: room for a sentence, not for a document. */
const PURPOSE_MAX = 140;

/**
 * The purpose a TPP declares for a consent or payment it creates, shown to the PSU on the
 * dashboard (PSR); null when absent. A header carries Latin-1 at best: text beyond ASCII comes
 * percent-encoded as UTF-8.
 */
export function declaredPurpose(headers: Headers): string | null {
  const value = single(headers, PURPOSE_HEADER)?.trim();
  if (!value) return null;
  let text: string;
  try {
    text = decodeURIComponent(value).trim();
  } catch {
    throw formatError("header", PURPOSE_HEADER,
      `${PURPOSE_HEADER} must be text, percent-encoded as UTF-8 beyond ASCII.`);
  }
  // eslint-disable-next-line no-control-regex
  if ([...text].length > PURPOSE_MAX || /[\u0000-\u001f\u007f]/.test(text)) {
    throw formatError("header", PURPOSE_HEADER,
      `${PURPOSE_HEADER} must be at most ${PURPOSE_MAX} characters without control characters.`);
  }
  return text || null;
}
