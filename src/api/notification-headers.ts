/**
 * TPP-Notification-URI and TPP-Notification-Content-Preferred on a creation (Berlin Group 1.3;
 * openFinance 2.x names them Client-Notification-*, same rules), and the ASPSP-Notification-*
 * answer. A URI outside the domains of the TPP's certificate is declined with
 * ASPSP-Notification-Support: false, as the Berlin Group files allow; a malformed one is a
 * FORMAT_ERROR. Each interface pushes its own form; on /v2, LAST alone is honoured (lean pushes),
 * on /v1 it is served as PROCESS (1.3's form has no lean body).
 */
import type { NotificationContent, NotificationForm } from "../domain/notification/ports.js";
import { formatError } from "../domain/kernel/errors.js";
import { inDomains } from "../domain/kernel/redirect-uri.js";
import { single, type UriRules } from "./headers.js";

type Headers = Record<string, string | string[] | undefined>;

/** The request headers' names on one interface, and the form its pushes take. */
export interface NotificationHeaderNames { uri: string; preferred: string; form: NotificationForm }

export const V1_NOTIFICATION: NotificationHeaderNames = {
  uri: "TPP-Notification-URI", preferred: "TPP-Notification-Content-Preferred", form: "1.3",
};
export const V2_NOTIFICATION: NotificationHeaderNames = {
  uri: "Client-Notification-URI", preferred: "Client-Notification-Content-Preferred", form: "2.4",
};
const URI_LENGTH_MAX = 500;
const ALL: readonly NotificationContent[] = ["SCA", "PROCESS"];

export interface NotificationRequest {
  /** The subscription to store with the resource; null when none was asked or it is declined. */
  accepted: { uri: string; content: NotificationContent[]; form: NotificationForm } | null;
  /** The ASPSP-Notification-* headers of the answer. */
  headers: Record<string, string>;
}

const LOCALHOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Only the ports the bank allows (a service on another port of the TPP's host is not its
 * endpoint); on localhost any, where loopback is allowed. No credentials, no trailing dot: the
 * host is the name the certificate's domains are compared with, nothing else.
 */
function allowed(url: URL, rules: UriRules): boolean {
  const port = Number(url.port || 443);
  const onLoopback = rules.notificationLoopback && LOCALHOST.test(url.hostname);
  return url.protocol === "https:" && !url.username && !url.password
    && !url.hostname.endsWith(".") && (onLoopback || rules.notificationPorts.includes(port));
}

function notificationUri(headers: Headers, rules: UriRules, name: string): URL | null {
  const value = single(headers, name);
  if (value === undefined || value === "") return null;
  let url: URL | null = null;
  try {
    url = value.length <= URI_LENGTH_MAX ? new URL(value) : null;
  } catch { /* refused below */ }
  if (url === null || !allowed(url, rules)) {
    throw formatError("header", name, `${name} must be an https URL on port `
      + `${rules.notificationPorts.join(" or ")}, without credentials or a trailing dot, of at `
      + `most ${URI_LENGTH_MAX} characters.`);
  }
  return url;
}

/**
 * "status=SCA, PROCESS" (Berlin Group); what the bank notifies of it. PROCESS pushes every status
 * and so the last one: asked with it, LAST is served as PROCESS; alone, as `form` allows.
 */
function preferredContent(headers: Headers, name: string, form: NotificationForm):
  NotificationContent[] {
  const value = single(headers, name);
  if (value === undefined) return [...ALL];
  const match = /^\s*status\s*=\s*(.*)$/i.exec(value);
  const items = match?.[1]?.split(",").map((x) => x.trim().toUpperCase()) ?? [];
  if (items.length === 0 || items.some((x) => !["SCA", "PROCESS", "LAST"].includes(x))) {
    throw formatError("header", name,
      `${name} must read status=X1, ..., Xn with each X one of SCA, PROCESS, LAST.`);
  }
  const lean = form === "2.4" && items.includes("LAST") && !items.includes("PROCESS");
  return ALL.filter((c) => items.includes(c) || (c === "PROCESS" && items.includes("LAST")))
    .map((c) => c === "PROCESS" && lean ? "LAST" : c);
}

/** `domains`: the TPP certificate's, lowercase (TppIdentity.domains). */
export function readNotificationRequest(
  headers: Headers, domains: readonly string[], rules: UriRules,
  names: NotificationHeaderNames = V1_NOTIFICATION,
): NotificationRequest {
  const url = notificationUri(headers, rules, names.uri);
  const content = preferredContent(headers, names.preferred, names.form);
  if (url === null) return { accepted: null, headers: {} };
  if (!inDomains(url.hostname, domains)) {
    return { accepted: null, headers: { "ASPSP-Notification-Support": "false" } };
  }
  return {
    accepted: { uri: url.href, content, form: names.form },
    headers: {
      "ASPSP-Notification-Support": "true",
      "ASPSP-Notification-Content": `status=${content.join(",")}`,
    },
  };
}
