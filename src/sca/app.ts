/**
 * The bank app on the PSU's phone (decoupled approach), on the auth listener: the requests
 * waiting for the PSU, confirmed with the app PIN or rejected. Its cookie holds the binding's
 * secret (activated from the dashboard); every POST checks the binding's CSRF token. Only these
 * pages may run a script, the bank's own: script-src and connect-src 'self'.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDecision, Decoupled } from "../domain/sca/decoupled.js";
import { appIcon } from "./app-icons.js";
import {
  APP, APP_ICON_SIZES, APP_MANIFEST, APP_SCRIPT, appInactivePage, appManifest, appPage,
} from "./app-views.js";
import { translator, type MessageKey } from "./messages/index.js";
import {
  cookieOf, field, rememberLanguage, requestLanguage, sameText, type FormRequest,
} from "./plugin.js";
import { refusalError } from "./problems.js";
import { outcomeNotice } from "./result-view.js";
import { blockMinutes, type BankLinks, type PageFrame } from "./views.js";

export const APP_COOKIE = "__Host-psd2-app";
/** An activation lasts until the PSU deactivates it; the cookie only needs to outlive a year. */
const APP_COOKIE_SECONDS = 366 * 86_400;

export interface AppPagesOptions {
  decoupled: Decoupled;
  bankName: string;
  links: BankLinks;
  loginBlockSeconds: number;
  sandbox: boolean;
}

const NOTICES: Record<string, MessageKey> = {
  approved: "notice_app_approved", rejected: "notice_app_rejected",
  activated: "notice_app_activated",
};

export function setAppCookie(reply: FastifyReply, secret: string): void {
  reply.header("Set-Cookie", `${APP_COOKIE}=${secret}; Path=/; Secure; HttpOnly; `
    + `SameSite=Strict; Max-Age=${APP_COOKIE_SECONDS}`);
}

function appPolicy(reply: FastifyReply): void {
  reply.header("Content-Security-Policy", "default-src 'none'; script-src 'self'; "
    + "connect-src 'self'; style-src 'self'; img-src 'self'; manifest-src 'self'; "
    + "form-action 'self'; "
    + "frame-ancestors 'none'; base-uri 'none'");
}

/** A refused decision as the app says it: a wrong PIN with the failures left. */
function decisionError(result: Extract<AppDecision, { ok: false }>) {
  const said = refusalError(result);
  if (result.problem !== "credentials_invalid" || result.attemptsLeft === undefined) return said;
  return { error: "error_pin_attempts" as const, errorValues: said.errorValues };
}

export function appPages(app: FastifyInstance, options: AppPagesOptions): void {
  const { decoupled } = options;
  const frameOf = (request: FastifyRequest, extra: Partial<PageFrame>): PageFrame => {
    const lang = requestLanguage(request);
    return {
      lang, t: translator(lang), bankName: options.bankName, links: options.links,
      dashboard: true, title: "app_title", path: APP, manifest: APP_MANIFEST, ...extra,
      errorValues: { minutes: blockMinutes(options.loginBlockSeconds), ...extra.errorValues },
    };
  };

  /**
   * The app's page: its requests, or how to activate it; `extra` carries a notice or an error,
   * `answered` the request the PSU confirmed, whose outcome heads the page.
   */
  async function show(
    request: FastifyRequest, reply: FastifyReply, extra: Partial<PageFrame> = {}, status = 200,
    answered?: string,
  ) {
    appPolicy(reply);
    const secret = cookieOf(request, APP_COOKIE);
    const view = await decoupled.appView(secret);
    const html = (body: string) => reply.code(status).type("text/html; charset=utf-8").send(body);
    if (!view) return html(appInactivePage(frameOf(request, extra)));
    const outcome = answered ? await decoupled.outcome(secret, answered) : undefined;
    const frame = frameOf(request, { csrf: view.app.csrf, script: `${APP}/app.js`,
      ...(answered && !outcome && { notice: NOTICES.approved }), ...extra });
    return html(appPage(frame, view.requests, outcome && outcomeNotice(
      { ...frame, tppName: outcome.tppName }, outcome.resource, outcome.scaStatus)));
  }

  type Done = { Querystring: { done?: string; authorisation?: string } };
  app.get<Done>(APP, async (request, reply) => {
    rememberLanguage(request, reply);
    const { done = "", authorisation } = request.query;
    // After Confirm, what became of it says more than that the provider learns it.
    const answered = done === "approved" ? authorisation : undefined;
    return show(request, reply, answered ? {} : { notice: NOTICES[done] }, 200, answered);
  });
  assetRoutes(app, decoupled, options.bankName);

  for (const approve of [true, false]) {
    app.post(`${APP}/${approve ? "approve" : "reject"}`, async (request: FormRequest, reply) => {
      const secret = cookieOf(request, APP_COOKIE);
      const view = await decoupled.appView(secret);
      if (!view || !sameText(field(request.body, "_csrf"), view.app.csrf)) {
        return show(request, reply, { error: "error_csrf" }, 403);
      }
      const pin = field(request.body, "pin");
      if (approve && !/^\d{4,8}$/.test(pin)) {
        return show(request, reply, { error: "error_pin_format" }, 400);
      }
      const result = await decoupled.answer(secret, field(request.body, "authorisation"), approve,
        pin);
      const answered = encodeURIComponent(field(request.body, "authorisation"));
      if (result.ok) {
        return reply.redirect(approve
          ? `${APP}?done=approved&authorisation=${answered}` : `${APP}?done=rejected`, 303);
      }
      return show(request, reply, decisionError(result), 400);
    });
  }
  if (options.sandbox) sandboxAppRoutes(app, decoupled);
}

/**
 * What the app's page loads besides itself: its script and the poll it makes, and what makes it
 * installable on a phone, its manifest and icons, all from the bank itself.
 */
function assetRoutes(app: FastifyInstance, decoupled: Decoupled, bankName: string): void {
  app.get(`${APP}/pending`, async (request, reply) => {
    const view = await decoupled.appView(cookieOf(request, APP_COOKIE), false);
    if (!view) return reply.code(401).type("text/plain").send("");
    return reply.type("text/plain").send(view.requests.map((r) => r.authorisationId).join(","));
  });
  app.get(`${APP}/app.js`, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(APP_SCRIPT));
  app.get(APP_MANIFEST.href, async (request, reply) => reply
    .type("application/manifest+json; charset=utf-8")
    .header("Cache-Control", "public, max-age=3600")
    .send(appManifest(bankName, requestLanguage(request))));
  for (const size of APP_ICON_SIZES) {
    // Drawn on the first request, not at start (tens of milliseconds of a start's CPU).
    let icon: Buffer | undefined;
    app.get(`${APP}/icon-${size}.png`, async (_request, reply) => reply.type("image/png")
      .header("Cache-Control", "public, max-age=86400").send(icon ??= appIcon(size)));
  }
}

/** For a TPP's automated tests (sandbox only): the PSU's app approves or rejects its oldest. */
function sandboxAppRoutes(app: FastifyInstance, decoupled: Decoupled): void {
  type ByLogin = { Params: { login: string; action: string } };
  app.post<ByLogin>("/sandbox/app/:login/:action", async (request, reply) => {
    const { login, action } = request.params;
    if (action !== "approve" && action !== "reject") return reply.code(404).send({});
    const acted = await decoupled.sandboxAnswer(login, action === "approve");
    if (!acted) {
      return reply.code(404).send({ message: `no decoupled request is waiting for ${login}` });
    }
    const { oldest, outcome, scaStatus } = acted;
    return reply.code(outcome.ok ? 200 : 409).send({
      authorisationId: oldest.authorisationId, resourceType: oldest.resource.type,
      resourceId: oldest.resourceId, scaStatus, ...(outcome.ok ? {} : { problem: outcome.problem }),
    });
  });
}
