/**
 * The PSU's own consent dashboard on the auth listener: log in with the same two factors as an
 * authorisation, see every consent and TPP payment, revoke a consent, log out. GET renders,
 * POST acts and redirects (303); every POST checks the session's CSRF token. Headers (CSP,
 * no-store, ...) and the form parser come from psuPagesPlugin, registered once for the listener.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardView, PsuDashboard } from "../domain/dashboard/dashboard.js";
import { isLanguage } from "../lib/languages.js";
import type { RateLimit } from "../lib/rate-limit.js";
import {
  DASHBOARD, dashboardCodePage, dashboardDevicePage, dashboardLoginPage, dashboardPage,
  dashboardReceiptPage, dashboardReportFraudPage, dashboardRevokePage, dashboardTrustedPage,
  dashboardWithdrawPage, PAYMENT_FILTERS, type PaymentListing,
} from "./dashboard-views.js";
import { readChange, type PayeeChange } from "../domain/exemptions/trusted-payees.js";
import { isReportable } from "../domain/fraud/signals.js";
import { translator, type MessageKey } from "./messages/index.js";
import {
  cookieOf, field, rememberLanguage, requestLanguage, sameText, type Form, type FormRequest,
} from "./plugin.js";
import { setAppCookie } from "./app.js";
import { refusalError } from "./problems.js";
import { blockMinutes, messagePage, type BankLinks, type PageFrame } from "./views.js";

const COOKIE = "__Host-psd2-dashboard";

export interface DashboardPagesOptions {
  dashboard: PsuDashboard;
  bankName: string;
  /** The same per-address login throttle as the authorisation's login. */
  loginThrottle: RateLimit;
  loginBlockSeconds: number;
  links: BankLinks;
  /** The bank's time zone, for the date and time on a receipt. */
  timeZone?: string;
}

/** What the overview says after a redirect (?done=...). */
const NOTICES: Record<string, MessageKey> = {
  revoked: "notice_revoked", logged_out: "notice_logged_out", expired: "notice_session_ended",
  app_revoked: "notice_app_revoked", trusted: "notice_trusted", distrusted: "notice_distrusted",
  withdrawn: "notice_withdrawn",
  fraud_reported: "notice_fraud_reported",
};

function setCookie(reply: FastifyReply, secret: string, maxAge?: number): void {
  const expiry = maxAge === undefined ? "" : `; Max-Age=${maxAge}`;
  reply.header(
    "Set-Cookie", `${COOKIE}=${secret}; Path=/; Secure; HttpOnly; SameSite=Strict${expiry}`);
}

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type("text/html; charset=utf-8").send(body);

/** Rendering and the session checks the dashboard's routes share. */
function dashboardKit(options: DashboardPagesOptions) {
  const { dashboard } = options;

  const frame = (view: DashboardView, extra: Partial<PageFrame> = {}): PageFrame => ({
    lang: view.session.lang, t: translator(view.session.lang), bankName: options.bankName,
    links: options.links, timeZone: options.timeZone,
    csrf: view.session.csrf, path: DASHBOARD, dashboard: true, ...extra,
    errorValues: { minutes: blockMinutes(options.loginBlockSeconds), ...extra.errorValues },
  });

  /** The page for the session's step; `extra` carries an error or a notice. */
  async function show(
    reply: FastifyReply, view: DashboardView, extra: Partial<PageFrame> = {}, status = 200,
    listing: PaymentListing = { filter: "all", page: 1 },
  ) {
    const f = frame(view, extra);
    switch (view.session.step) {
      case "login": return html(reply, dashboardLoginPage(f), status);
      case "device": return html(reply, dashboardDevicePage(f, view.devices), status);
      case "code": return html(reply, dashboardCodePage(f, {
        kind: view.device?.kind ?? "totp", label: view.device?.label ?? "",
        phone: view.device?.phone ?? null,
      }), status);
      case "dashboard": return html(reply, dashboardPage(f, view.psu?.name ?? "",
        await dashboard.overview(view.session.psuId ?? ""), listing), status);
    }
  }

  /** The session of a POST with its CSRF token checked; otherwise answers itself. */
  async function posted(request: FormRequest, reply: FastifyReply) {
    const view = await dashboard.view(cookieOf(request, COOKIE));
    if (!view) return void reply.redirect(`${DASHBOARD}?done=expired`, 303);
    if (!sameText(field(request.body, "_csrf"), view.session.csrf)) {
      return void html(reply, messagePage(frame(view, { error: "error_csrf" })), 403);
    }
    return view;
  }

  /** After a step: on success the (possibly new) cookie and back to GET; else the step again. */
  function after(
    reply: FastifyReply, view: DashboardView,
    result: Awaited<ReturnType<PsuDashboard["login"]>>, status: number,
  ) {
    if (result.ok) {
      setCookie(reply, result.secret);
      return reply.redirect(DASHBOARD, 303);
    }
    if (result.problem === "session_expired") {
      return reply.redirect(`${DASHBOARD}?done=expired`, 303);
    }
    if (result.problem === "wrong_step" && view.session.step !== "device") {
      return reply.redirect(DASHBOARD, 303);
    }
    return show(reply, view, refusalError(result), status);
  }

  return { show, posted, after, frame };
}

type DashboardKit = ReturnType<typeof dashboardKit>;

export function dashboardPages(app: FastifyInstance, options: DashboardPagesOptions): void {
  const { dashboard } = options;
  const kit = dashboardKit(options);

  /** The session; a `?lang=` from the switcher becomes its language. */
  const load = (request: FastifyRequest, reply: FastifyReply) => {
    const asked = rememberLanguage(request, reply);
    return dashboard.view(cookieOf(request, COOKIE), isLanguage(asked) ? asked : undefined);
  };

  type Query = { done?: string; payments?: string; page?: string };
  app.get<{ Querystring: Query }>(DASHBOARD, async (request, reply) => {
    let view = await load(request, reply);
    if (!view) {
      const secret = await dashboard.start(requestLanguage(request));
      setCookie(reply, secret);
      view = await dashboard.view(secret);
    }
    if (!view) throw new Error("a dashboard session just started was not found");
    return kit.show(reply, view, { notice: NOTICES[request.query.done ?? ""] }, 200,
      listingOf(request.query));
  });

  stepRoutes(app, options, kit);
  overviewRoutes(app, dashboard, kit);
  trustedPayeeRoutes(app, dashboard, kit);
  withdrawalRoutes(app, dashboard, kit);
  appActivationRoutes(app, dashboard, kit);
  fraudReportRoutes(app, dashboard, kit);
}

/** The bank app: activated on this device with a new PIN, or deactivated on one. */
function appActivationRoutes(app: FastifyInstance, dashboard: PsuDashboard, kit: DashboardKit) {
  const { show, posted } = kit;
  app.post<{ Body: Form }>(`${DASHBOARD}/app`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    const pin = field(request.body, "pin");
    if (!/^\d{4,8}$/.test(pin)) return show(reply, view, { error: "error_pin_format" }, 400);
    const secret = await dashboard.activateApp(cookieOf(request, COOKIE), pin);
    if (!secret) return reply.redirect(DASHBOARD, 303);
    setAppCookie(reply, secret);
    return reply.redirect("/app?done=activated", 303);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/app/revoke`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    if (await dashboard.revokeApp(cookieOf(request, COOKIE), field(request.body, "app"))) {
      return reply.redirect(`${DASHBOARD}?done=app_revoked`, 303);
    }
    return show(reply, view, { error: "error_revoke_refused" }, 400);
  });
}

/** The two factors of the dashboard's login, as in an authorisation. */
function stepRoutes(app: FastifyInstance, options: DashboardPagesOptions, kit: DashboardKit) {
  const { dashboard } = options;
  const { show, posted, after } = kit;

  app.post<{ Body: Form }>(`${DASHBOARD}/login`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    const retryAfter = options.loginThrottle.take(request.ip);
    if (retryAfter > 0) {
      reply.header("Retry-After", String(retryAfter));
      return show(reply, view, { error: "error_psu_blocked" }, 429);
    }
    const secret = cookieOf(request, COOKIE);
    const { body } = request;
    const result = await dashboard.login(secret, field(body, "login"), field(body, "password"));
    return after(reply, view, result, 401);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/device`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    const device = field(request.body, "device");
    return after(reply, view, await dashboard.chooseDevice(cookieOf(request, COOKIE), device), 400);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/code`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    const code = field(request.body, "code");
    return after(reply, view, await dashboard.verifyCode(cookieOf(request, COOKIE), code), 401);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/code/resend`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    return after(reply, view, await dashboard.resendCode(cookieOf(request, COOKIE)), 400);
  });
}

/** The payments the overview lists: a known filter and a page number, else the first of all. */
function listingOf(query: { payments?: string; page?: string }): PaymentListing {
  const filter = PAYMENT_FILTERS.find((f) => f === query.payments) ?? "all";
  const page = Number(query.page);
  return { filter, page: Number.isInteger(page) && page > 0 ? Math.min(page, 1_000) : 1 };
}

/** What a logged-in PSU does on the overview: revoke a consent (after an "are you sure?"). */
function overviewRoutes(app: FastifyInstance, dashboard: PsuDashboard, kit: DashboardKit) {
  const { show, posted } = kit;

  app.get<{ Querystring: { consent?: string } }>(`${DASHBOARD}/revoke`, async (request, reply) => {
    const view = await dashboard.view(cookieOf(request, COOKIE));
    if (view?.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
    const { consents } = await dashboard.overview(view.session.psuId ?? "");
    const found = consents.find((c) => c.consent.id === request.query.consent
      && c.consent.status === "valid");
    if (!found) return show(reply, view, { error: "error_revoke_refused" }, 400);
    return html(reply, dashboardRevokePage(kit.frame(view), found));
  });

  app.get<{ Querystring: { payment?: string } }>(`${DASHBOARD}/receipt`,
    async (request, reply) => {
      const view = await dashboard.view(cookieOf(request, COOKIE));
      if (view?.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
      // Only the PSU's own: the overview lists no other PSU's payment.
      const { payments, accounts } = await dashboard.overview(view.session.psuId ?? "");
      const found = payments.find((p) => p.id === request.query.payment);
      if (!found) return reply.redirect(DASHBOARD, 303);
      const debtor = accounts.find((a) => a.iban === found.debtorAccount.iban) ?? null;
      return html(reply, dashboardReceiptPage(kit.frame(view), found, debtor));
    });

  app.post<{ Body: Form }>(`${DASHBOARD}/revoke`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    if (view.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
    if (await dashboard.revoke(cookieOf(request, COOKIE), field(request.body, "consent"))) {
      return reply.redirect(`${DASHBOARD}?done=revoked`, 303);
    }
    return show(reply, view, { error: "error_revoke_refused" }, 400);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/logout`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    await dashboard.logout(cookieOf(request, COOKIE));
    setCookie(reply, "", 0);
    return reply.redirect(`${DASHBOARD}?done=logged_out`, 303);
  });
}

/** The change of the trusted payees a form names, or null when it is not valid. */
function changeOf(body: Form): PayeeChange | null {
  const action = field(body, "action");
  if (action !== "add" && action !== "remove") return null;
  return readChange({ action, iban: field(body, "iban"), name: field(body, "name") });
}

/**
 * RTS art. 13: a change of the trusted payees is asked for, then confirmed with a code bound to
 * it (the dashboard's device: an SMS one gets it when asked).
 */
function trustedPayeeRoutes(app: FastifyInstance, dashboard: PsuDashboard, kit: DashboardKit) {
  const { show, posted, frame } = kit;
  const codePage = (reply: FastifyReply, view: DashboardView, change: PayeeChange,
    extra: Partial<PageFrame> = {}, status = 200) =>
    html(reply, dashboardTrustedPage(frame(view, extra), change, {
      kind: view.device?.kind ?? "totp", label: view.device?.label ?? "",
      phone: view.device?.phone ?? null,
    }), status);

  app.post<{ Body: Form }>(`${DASHBOARD}/trusted`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    if (view.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
    const change = changeOf(request.body);
    if (!change) return show(reply, view, { error: "error_trusted_payee" }, 400);
    const asked = await dashboard.trustedPayees.ask(cookieOf(request, COOKIE), change);
    if (!asked.ok) return show(reply, view, refusalError(asked), 400);
    return codePage(reply, view, change);
  });

  app.post<{ Body: Form }>(`${DASHBOARD}/trusted/confirm`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    const change = changeOf(request.body);
    if (view.session.step !== "dashboard" || !change) return reply.redirect(DASHBOARD, 303);
    const code = field(request.body, "code");
    const done = await dashboard.trustedPayees.confirm(cookieOf(request, COOKIE), change, code);
    if (done.ok) {
      const notice = change.action === "add" ? "trusted" : "distrusted";
      return reply.redirect(`${DASHBOARD}?done=${notice}`, 303);
    }
    if (done.problem === "session_expired") return reply.redirect(`${DASHBOARD}?done=expired`, 303);
    return codePage(reply, view, change, refusalError(done), 401);
  });
}

/** PSR: a standing order a provider initiated is stopped (after an "are you sure?"). */
function withdrawalRoutes(app: FastifyInstance, dashboard: PsuDashboard, kit: DashboardKit) {
  const { show, posted } = kit;

  app.get<{ Querystring: { payment?: string } }>(`${DASHBOARD}/withdraw`,
    async (request, reply) => {
      const view = await dashboard.view(cookieOf(request, COOKIE));
      if (view?.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
      const { orders } = await dashboard.overview(view.session.psuId ?? "");
      const found = orders.find((p) => p.id === request.query.payment && p.status === "ACTC");
      if (!found) return show(reply, view, { error: "error_withdraw_refused" }, 400);
      return html(reply, dashboardWithdrawPage(kit.frame(view), found));
    });

  app.post<{ Body: Form }>(`${DASHBOARD}/withdraw`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    if (view.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
    if (await dashboard.withdrawOrder(cookieOf(request, COOKIE), field(request.body, "payment"))) {
      return reply.redirect(`${DASHBOARD}?done=withdrawn`, 303);
    }
    return show(reply, view, { error: "error_withdraw_refused" }, 400);
  });
}

/** PSR art. 83 (proposal): the PSU reports one of its executed payments as fraud, once asked. */
function fraudReportRoutes(app: FastifyInstance, dashboard: PsuDashboard, kit: DashboardKit) {
  const { show, posted } = kit;
  app.get<{ Querystring: { payment?: string } }>(`${DASHBOARD}/report-fraud`,
    async (request, reply) => {
      const view = await dashboard.view(cookieOf(request, COOKIE));
      if (view?.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
      const { payments } = await dashboard.overview(view.session.psuId ?? "");
      const found = payments.find((p) => p.id === request.query.payment);
      if (!found || !isReportable(found)) {
        return show(reply, view, { error: "error_fraud_report" }, 400);
      }
      return html(reply, dashboardReportFraudPage(kit.frame(view), found));
    });

  app.post<{ Body: Form }>(`${DASHBOARD}/report-fraud`, async (request, reply) => {
    const view = await posted(request, reply);
    if (!view) return;
    if (view.session.step !== "dashboard") return reply.redirect(DASHBOARD, 303);
    const outcome = await dashboard.reportFraud(cookieOf(request, COOKIE),
      field(request.body, "payment"));
    if (outcome === "reported") return reply.redirect(`${DASHBOARD}?done=fraud_reported`, 303);
    return show(reply, view, { error: "error_fraud_report" }, 400);
  });
}
