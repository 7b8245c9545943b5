/**
 * What every PSU page on the auth listener shares, whichever page registers first: the form
 * parser, the security headers (strict CSP, no-referrer, no-store, ...), cookies, form fields
 * and the page language. app/psu-pages.ts registers it once before the redirect pages and the
 * dashboard.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isLanguage, negotiateLanguage } from "../lib/languages.js";
import { pickLanguage } from "./messages/index.js";

/** The language the PSU picked with the switcher; it outranks the one the TPP asked for. */
export const LANG_COOKIE = "__Host-psd2-lang";
export type Form = Record<string, string | string[] | undefined>;
export type FormRequest = FastifyRequest<{ Body: Form }>;

export function cookieOf(request: FastifyRequest, cookie: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === cookie) return value.join("=");
  }
  return undefined;
}

export function field(form: Form | undefined, name: string): string {
  const value = form?.[name];
  return typeof value === "string" ? value : "";
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseForm(body: string): Form {
  const form: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = form[key];
    form[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return form;
}

type LangRequest = FastifyRequest<{ Querystring?: { lang?: string } }>;

/** Language without a session: the link's `lang`, then the switcher's, then the browser's. */
export function requestLanguage(request: FastifyRequest): string {
  const query = (request as LangRequest).query;
  return pickLanguage(query?.lang, cookieOf(request, LANG_COOKIE),
    negotiateLanguage(request.headers["accept-language"]));
}

/** A `?lang=` from the switcher goes into a cookie; returns it. */
export function rememberLanguage(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const asked = (request as LangRequest).query?.lang;
  if (isLanguage(asked)) {
    reply.header("Set-Cookie", `${LANG_COOKIE}=${asked}; Path=/; Secure; HttpOnly; SameSite=Lax`);
  }
  return asked;
}

/** form-action must allow the TPP's origins: browsers apply it to the redirect after a POST. */
export function contentSecurityPolicy(reply: FastifyReply, targets: readonly string[]): void {
  const origins = [...new Set(targets.map((t) => new URL(t).origin))].join(" ");
  reply.header("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; "
    + `form-action 'self'${origins ? ` ${origins}` : ""}; frame-ancestors 'none'; base-uri 'none'`);
}

export function psuPagesPlugin(app: FastifyInstance, options: { hsts: boolean }): void {
  app.addContentTypeParser("application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 16_384 },
    (_request, body, done) => done(null, parseForm(body as string)));

  app.addHook("onSend", async (_request, reply) => {
    if (!reply.hasHeader("Content-Security-Policy")) contentSecurityPolicy(reply, []);
    reply.header("Referrer-Policy", "no-referrer");
    if (!reply.hasHeader("Cache-Control")) reply.header("Cache-Control", "no-store");
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("X-Frame-Options", "DENY");
    if (options.hsts) {
      reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
  });
}
