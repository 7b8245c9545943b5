/**
 * Pushes one notification to a TPP over HTTPS: the bank's client certificate, a Berlin Group
 * HTTP signature of the bank, the TPP's server certificate checked against the notification trust
 * store plus the system CAs, and a deadline on the whole push, so a slow TPP holds only its own
 * delivery, never an API answer.
 */
import { request } from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { signRequest } from "./http-signer.js";
import { checkedLookup, targetRefusal, type TargetRules } from "./notification-targets.js";

export interface NotificationSenderOptions {
  clientKeyPem: string;
  clientCertPem: string;
  /** Extra trusted CAs (NOTIFICATION_TRUST_STORE_FILE), besides the system's. */
  trustedCaPems: string[];
  timeoutMs: number;
  /** Which addresses a push may connect to (notification-targets.ts). */
  targets: TargetRules;
}

export interface OutgoingNotification { id: string; uri: string; body: string }

/** Resolves when the TPP answered 2xx; rejects with the reason otherwise. */
export type SendNotification = (notification: OutgoingNotification) => Promise<void>;

function signedHeaders(
  signing: { keyPem: string; certPem: string }, id: string, url: URL, body: string,
) {
  const signed = {
    "x-request-id": id, date: new Date().toUTCString(), "content-type": "application/json",
  };
  return {
    ...signed, ...signRequest(signing, {
      method: "POST", target: `${url.pathname}${url.search}`, headers: signed, body,
    }, "ASPSP-Signature-Certificate"),
    "content-length": String(Buffer.byteLength(body)),
  };
}

/** An IP literal is connected to without a lookup: it is checked here instead. */
function literalRefusal(url: URL, port: number, targets: TargetRules): string | null {
  const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(literal) === 0 ? null : targetRefusal(literal, port, targets);
}

export function createNotificationSender(options: NotificationSenderOptions): SendNotification {
  const ca = [...rootCertificates, ...options.trustedCaPems];
  const signing = { keyPem: options.clientKeyPem, certPem: options.clientCertPem };
  return ({ id, uri, body }) => new Promise<void>((resolve, reject) => {
    const url = new URL(uri);
    const port = Number(url.port || 443);
    const refused = literalRefusal(url, port, options.targets);
    if (refused) {
      reject(new Error(`refused: ${refused}`));
      return;
    }
    const headers = signedHeaders(signing, id, url, body);
    const call = request(url, {
      method: "POST", headers, ca, key: options.clientKeyPem, cert: options.clientCertPem,
      agent: false, lookup: checkedLookup(port, options.targets),
    }, (response) => {
      const status = response.statusCode ?? 0;
      // The status is the answer: a body the TPP trickles after it holds nothing up.
      call.destroy();
      if (status >= 200 && status < 300) resolve();
      else reject(new Error(`the TPP answered ${status}`));
    });
    // In all, not per idle gap: an endpoint sending a byte now and then must not hold the push.
    const deadline = setTimeout(() =>
      call.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    call.on("close", () => clearTimeout(deadline));
    call.on("error", reject);
    call.end(body);
  });
}
