/**
 * The one rule for where the bank sends a PSU's browser back to a TPP: TPP-Redirect-URI and
 * TPP-Nok-Redirect-URI on the XS2A API, and the redirect_uri of an OAuth pushed authorisation
 * request. A URI refused in one place is refused in the other.
 */
import { isIP } from "node:net";

/** How the bank judges a redirect URI. */
export interface RedirectRules {
  /** Sandbox: http is allowed for localhost. */
  allowHttpLocalhost: boolean;
  /** The host must lie in a domain of the TPP's certificate (subjectAltName dNSName or CN). */
  domainCheck: boolean;
}

const URI_LENGTH_MAX = 500;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The host is a certificate domain or below one; "*.tpp.example" covers the names below
 * tpp.example.
 */
export function inDomains(host: string, domains: readonly string[]): boolean {
  const name = host.replace(/\.$/, "");
  return domains.some((domain) => {
    const base = domain.replace(/^\*\./, "");
    return (name === base && base === domain) || name.endsWith(`.${base}`);
  });
}

function parsed(value: string): URL | undefined {
  return URL.canParse(value) ? new URL(value) : undefined;
}

/**
 * Why `value` may not be a redirect target (a sentence naming it as `name`), or null when it may.
 * `domains` are the TPP certificate's, lowercase.
 */
export function redirectUriProblem(
  name: string, value: string, rules: RedirectRules, domains: readonly string[],
): string | null {
  if (value.length > URI_LENGTH_MAX) return `${name} must be at most ${URI_LENGTH_MAX} characters.`;
  const url = parsed(value);
  if (!url) return `${name} must be an absolute URL.`;
  const localHttp = url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname)
    && rules.allowHttpLocalhost;
  if ((url.protocol !== "https:" && !localHttp) || url.username || url.password) {
    const http = rules.allowHttpLocalhost ? " (http only for localhost)" : "";
    return `${name} must be an https URL without credentials${http}.`;
  }
  if (!rules.domainCheck) return null;
  // A certificate names domains, never addresses: an IP literal lies in none of them.
  if (isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0 || !inDomains(url.hostname, domains)) {
    return `${name} must point into a domain of your certificate's subjectAltName `
      + `(${domains.join(", ") || "none"}); ${url.hostname} is not one.`;
  }
  return null;
}
