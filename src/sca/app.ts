/**
 * The bank app on the PSU's phone (decoupled approach), on the auth listener: the requests
 * waiting for the PSU, confirmed with the app PIN or rejected. Its cookie holds the binding's
 * secret (activated from the dashboard); every POST checks the binding's CSRF token. Only these
 * pages may run a script, the bank's own: script-src and connect-src 'self'.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDecision, Decoupled } from "../domain/sca/decoupled.js";
import { APP, APP_SCRIPT, appInactivePage, appPage } from "./app-views.js";
import { translator, type MessageKey } from "./messages/index.js";
import {
  cookieOf, field, rememberLanguage, requestLanguage, sameText, type FormRequest,
} from "./plugin.js";
import { refusalError } from "./problems.js";
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
    + "connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
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
      dashboard: true, title: "app_title", path: APP, ...extra,
      errorValues: { minutes: blockMinutes(options.loginBlockSeconds), ...extra.errorValues },
    };
  };

  /** The app's page: its requests, or how to activate it; `extra` carries an outcome. */
  async function show(
    request: FastifyRequest, reply: FastifyReply, extra: Partial<PageFrame> = {}, status = 200,
  ) {
    appPolicy(reply);
    const view = await decoupled.appView(cookieOf(request, APP_COOKIE));
    const html = (body: string) => reply.code(status).type("text/html; charset=utf-8").send(body);
    if (!view) return html(appInactivePage(frameOf(request, extra)));
    const frame = frameOf(request, { csrf: view.app.csrf, script: `${APP}/app.js`, ...extra });
    return html(appPage(frame, view.requests));
  }

  app.get<{ Querystring: { done?: string } }>(APP, async (request, reply) => {
    rememberLanguage(request, reply);
    return show(request, reply, { notice: NOTICES[request.query.done ?? ""] });
  });

  app.get(`${APP}/pending`, async (request, reply) => {
    const view = await decoupled.appView(cookieOf(request, APP_COOKIE), false);
    if (!view) return reply.code(401).type("text/plain").send("");
    return reply.type("text/plain").send(view.requests.map((r) => r.authorisationId).join(","));
  });

  app.get(`${APP}/app.js`, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(APP_SCRIPT));

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
      if (result.ok) return reply.redirect(`${APP}?done=${approve ? "approved" : "rejected"}`, 303);
      return show(request, reply, decisionError(result), 400);
    });
  }
  if (options.sandbox) sandboxAppRoutes(app, decoupled);
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
