/**
 * The `download` link of a transaction file too large to answer at once (Berlin Group's
 * _linksDownload): a token for one range and format, valid for ten minutes and spent on its
 * first use, its HMAC-SHA256 (under a key derived from the database-held link key, so every
 * instance agrees) binding it to the TPP, consent and account it was given for. It stays short
 * enough for a path segment (Fastify refuses a parameter over 100 characters with 414).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../lib/clock.js";

const TTL_SECONDS = 600;
// Its own key: a redirect token can never pass for a download token, nor the reverse.
const PURPOSE = "psd2-bank transaction file download";
const MAC_BYTES = 16;
const STATUSES = ["booked", "pending", "both"] as const;
const FORMATS = ["application/xml", "text/plain"] as const;

/** Whom a link was given to: it is valid for exactly these. */
export interface DownloadHolder { tppId: string; consentId: string; accountId: string }

export interface DownloadClaims {
  jti: string;
  expiresAt: string;
  query: { dateFrom: string; dateTo: string; bookingStatus: string };
  format: (typeof FORMATS)[number];
}

const compactDate = (date: string) => date.replace(/-/g, "");
const isoDate = (text: string) => `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;

export function createDownloadLinks(linkKey: Uint8Array, clock: Clock) {
  const key = createHmac("sha256", linkKey).update(PURPOSE).digest();
  const mac = (payload: string, h: DownloadHolder) => createHmac("sha256", key)
    .update(`${payload}|${h.tppId}|${h.consentId}|${h.accountId}`).digest().subarray(0, MAC_BYTES);

  function sign(holder: DownloadHolder, claims: Omit<DownloadClaims, "jti" | "expiresAt">): string {
    const { dateFrom, dateTo, bookingStatus } = claims.query;
    const expires = Math.floor(clock.now().getTime() / 1000) + TTL_SECONDS;
    const payload = [compactDate(dateFrom), compactDate(dateTo),
      STATUSES.indexOf(bookingStatus as (typeof STATUSES)[number]), FORMATS.indexOf(claims.format),
      expires.toString(36), randomBytes(12).toString("hex")].join(".");
    return `${payload}.${mac(payload, holder).toString("base64url")}`;
  }

  /** The claims of a genuine, unexpired token given to `holder`, or null for anything else. */
  function verify(token: string, holder: DownloadHolder): DownloadClaims | null {
    const parts = token.split(".");
    const [from = "", to = "", status = "", format = "", expires = "", jti = ""] = parts;
    const signature = parts[6] ?? "";
    const given = Buffer.from(signature, "base64url");
    const expected = mac(parts.slice(0, 6).join("."), holder);
    if (parts.length !== 7 || given.length !== MAC_BYTES || !timingSafeEqual(given, expected)) {
      return null;
    }
    const expiresMs = parseInt(expires, 36) * 1000;
    if (!(expiresMs > clock.now().getTime())) return null;
    return {
      jti, expiresAt: new Date(expiresMs).toISOString(),
      format: FORMATS[Number(format)] ?? "text/plain",
      query: { dateFrom: isoDate(from), dateTo: isoDate(to),
        bookingStatus: STATUSES[Number(status)] ?? "booked" },
    };
  }

  return { sign, verify };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
