/**
 * The PSU's pages on the auth listener: the scaRedirect entry, login, authorisation code, review,
 * confirm and cancel. GET renders, POST acts and redirects (303). Every POST checks the session's
 * CSRF token; every page carries a strict CSP and is never cached (plugin.ts). Never
 * tppMessages here.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  backToTpp, type Authorisations, type EntryView, type PageView, type RedirectClaims,
  type ScaProblem,
} from "../domain/sca/authorisation.js";
import { newSecret } from "../lib/ids.js";
import type { ScaStep } from "../domain/sca/model.js";
import type { SubjectView } from "../domain/sca/subject.js";
import type { RateLimit } from "../lib/rate-limit.js";
import { pickLanguage, translator } from "./messages/index.js";
import { aboutLine } from "./about.js";
import type { BankLogo } from "./logo.js";
import { problemMessage, refusalError } from "./problems.js";
import {
  contentSecurityPolicy, cookieOf, field, LANG_COOKIE, rememberLanguage, requestLanguage, sameText,
  type Form, type FormRequest,
} from "./plugin.js";
import type { ScaRedirects } from "./redirect.js";
import { basketReviewPage } from "./basket-views.js";
import { DASHBOARD } from "./dashboard-views.js";
import { oauthPages, type OAuthPagesOptions } from "./oauth-pages.js";
import { resultPage } from "./result-view.js";
import { stylesheet } from "./style.js";
import { introKind } from "./views.js";
import {
  blockMinutes, codePage, consentReviewPage, devicePage, loginPage, messagePage,
  paymentReviewPage, sitePage, unavailablePage,
  type BankLinks, type ConsentChoice, type PageFrame,
} from "./views.js";

const COOKIE = "__Host-psd2-sca";
/** The authorisation a browser last opened a session for: the way back once that session ends. */
const BACK_COOKIE = "__Host-psd2-sca-back";
/** The entry form's CSRF value (double submit): set by the link's page, which opens no session. */
const ENTRY_COOKIE = "__Host-psd2-sca-entry";
/** A browser the PSU passed SCA in: a known device for RTS art. 18 (transaction risk). */
const DEVICE_COOKIE = "__Host-psd2-device";
const DEVICE_COOKIE_MAX_AGE = `; Max-Age=${180 * 86_400}`;
const secretOf = (request: FastifyRequest) => cookieOf(request, COOKIE);

export interface ScaPagesOptions {
  authorisations: Authorisations;
  redirects: ScaRedirects;
  bankName: string;
  logo: BankLogo;
  sandbox: boolean;
  /** Login posts per client address, checked before any password is hashed (argon2 is costly). */
  loginThrottle: RateLimit;
  /** How long failed logins block a PSU, as the block message says. */
  loginBlockSeconds: number;
  /** SCA_SESSION_IDLE_SECONDS: when the pages tell the PSU its session is about to end. */
  idleSeconds: number;
  links: BankLinks;
  /** The bank's time zone, for the date and time on a receipt. */
  timeZone?: string;
  /** The OAuth authorisation server's interaction, where the bank offers it. */
  oauth?: OAuthPagesOptions;
}

const STEP_PATH: Record<ScaStep, string> = {
  login: "/sca/login", device: "/sca/device", code: "/sca/code", review: "/sca/review",
  done: "/sca/done",
};

/** Where a page's forms may lead: the TPP's two addresses. */
type Targets = Pick<PageView, "redirectUri" | "nokRedirectUri">;

function render(reply: FastifyReply, view: Targets, body: string, status = 200) {
  contentSecurityPolicy(reply, [view.redirectUri, view.nokRedirectUri ?? view.redirectUri]);
  return reply.code(status).type("text/html; charset=utf-8").send(body);
}

function setCookie(reply: FastifyReply, secret: string, name = COOKIE, maxAge = ""): void {
  reply.header("Set-Cookie", `${name}=${secret}; Path=/; Secure; HttpOnly; SameSite=Lax${maxAge}`);
}

function list(form: Form | undefined, name: string): string[] {
  const value = form?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A `?lang=` from the switcher is remembered in a cookie and outranks the session's language. */
function withChosenLanguage(
  request: FastifyRequest, reply: FastifyReply, view: PageView,
): PageView {
  const asked = rememberLanguage(request, reply);
  const lang = pickLanguage(asked, cookieOf(request, LANG_COOKIE), view.session.lang);
  return { ...view, session: { ...view.session, lang } };
}

/** What a page's frame shows of an authorisation, with or without a session yet. */
type FramedView = Pick<PageView, "tppName" | "authorisation"> & {
  session?: { csrf: string }; resource?: SubjectView;
};

/** Before the review (login, device, code): the line saying what the PSU authorises. */
function aboutOf(view: FramedView | undefined, frame: PageFrame): string | undefined {
  return view?.resource && frame.step && frame.step < 3
    ? aboutLine(frame, view.resource) : undefined;
}

/** The page builders every route shares. */
function pageKit(bankName: string, blockMinutes: string, links: BankLinks, timeZone?: string) {
  const frame = (
    view: FramedView | undefined, lang: string, extra: Partial<PageFrame> = {},
  ): PageFrame => {
    const f: PageFrame = {
      lang, t: translator(lang), bankName, links, timeZone, tppName: view?.tppName,
      tppId: view?.authorisation.tppId,
      csrf: view?.session?.csrf, ...extra,
      errorValues: { minutes: blockMinutes, ...extra.errorValues },
    };
    return { ...f, about: aboutOf(view, f) };
  };

  const problemPage = (
    reply: FastifyReply, lang: string, problem: ScaProblem, status: number, back?: string,
  ) => reply.code(status).type("text/html; charset=utf-8").send(messagePage(
    frame(undefined, lang, { error: problemMessage(problem), back,
      errorValues: { tpp: translator(lang)("unknown_tpp") } })));

  const codeView = (
    reply: FastifyReply, view: PageView, error?: Pick<PageFrame, "error" | "errorValues">,
    status = 200,
  ) =>
    render(reply, view, codePage(
      frame(view, view.session.lang, { step: 2, ...error }), introKind(view.resource), {
        kind: view.device?.kind ?? "totp", label: view.device?.label ?? "",
        phone: view.device?.phone ?? null,
      }), status);

  const reviewView = (
    reply: FastifyReply, view: PageView, problem?: ScaProblem, status = 200,
    chosen?: ConsentChoice,
  ) => {
    const review = view.review;
    const shown = problem ?? review?.problem;
    const { resource } = view;
    // A basket's consent naming accounts not the PSU's is refused alone; the rest goes on.
    const refusesAll = resource.type !== "basket" && Boolean(review?.foreign.length);
    const { exemption } = view.authorisation;
    const f = frame(view, view.session.lang, {
      step: 3, error: shown ? problemMessage(shown)
        : refusesAll ? "error_foreign_accounts" : undefined,
      errorValues: { tpp: view.tppName, ibans: review?.foreign.join(", ") ?? "" },
      ...(exemption && { notice: "notice_exempted", noticeDetail: `exemption_${exemption}` }),
    });
    const canConfirm = !review?.problem && !refusesAll;
    const body = resource.type === "payment"
      ? paymentReviewPage(f, resource, review, canConfirm)
      : resource.type === "basket" ? basketReviewPage(f, resource, review, canConfirm)
        : consentReviewPage(f, resource.consent, review?.accounts ?? [], canConfirm, chosen);
    return render(reply, view, body, status);
  };

  return { frame, problemPage, codeView, reviewView };
}

/** pageKit plus the session checks every step's GET and POST make first. */
function scaKit(options: ScaPagesOptions) {
  const { authorisations } = options;
  const pages = pageKit(
    options.bankName, blockMinutes(options.loginBlockSeconds), options.links, options.timeZone);
  const { frame, problemPage } = pages;

  /** No session: a dead end no more, the page leads back to the TPP of the last one opened. */
  async function ended(
    request: FastifyRequest, reply: FastifyReply, problem: ScaProblem, status: number,
  ) {
    const back = await authorisations.wayBack(cookieOf(request, BACK_COOKIE));
    return problemPage(reply, requestLanguage(request), problem, status, back);
  }

  /**
   * The session for a page at `step`; otherwise answers itself (problem page or the right step).
   */
  async function session(request: FastifyRequest, reply: FastifyReply, step: ScaStep) {
    const view = await authorisations.view(secretOf(request));
    if (typeof view === "string") {
      return void await ended(request, reply, view, view === "session_expired" ? 401 : 400);
    }
    // After the decision every page, a reload or a second click, leads to its result.
    if (view.session.step !== step) {
      void reply.redirect(STEP_PATH[view.session.step], 303);
      return undefined;
    }
    return withChosenLanguage(request, reply, view);
  }

  /** As session(), for a POST: the form must carry the session's CSRF token. */
  async function posted(request: FormRequest, reply: FastifyReply, step: ScaStep | null) {
    const found = step
      ? await session(request, reply, step) : await authorisations.view(secretOf(request));
    if (typeof found === "string") return void await ended(request, reply, found, 401);
    const view = step || !found ? found : withChosenLanguage(request, reply, found);
    if (view && !sameText(field(request.body, "_csrf"), view.session.csrf)) {
      const page = messagePage(frame(view, view.session.lang, { error: "error_csrf" }));
      void render(reply, view, page, 403);
      return undefined;
    }
    return view;
  }

  return { ...pages, session, posted };
}

/** scaKit plus the password step, which the login page and a link's first post both take. */
function loginKit(options: ScaPagesOptions) {
  const kit = scaKit(options);
  const { authorisations } = options;

  /** Too many login posts from this address: says when to retry, and answers true. */
  function throttled(request: FastifyRequest, reply: FastifyReply): boolean {
    const retryAfter = options.loginThrottle.take(request.ip);
    if (retryAfter > 0) reply.header("Retry-After", String(retryAfter));
    return retryAfter > 0;
  }

  /** The password step on session `secret`: on to the code, or the login again with why not. */
  async function submitLogin(
    request: FormRequest, reply: FastifyReply, secret: string, view: PageView,
  ) {
    const loginName = field(request.body, "login");
    const result = await authorisations.login(secret, loginName, field(request.body, "password"),
      cookieOf(request, DEVICE_COOKIE));
    if (result.ok) {
      setCookie(reply, result.secret);
      return reply.redirect(STEP_PATH.code, 303);
    }
    const f = kit.frame(view, view.session.lang, { step: 1, ...refusalError(result), loginName });
    return render(reply, view, loginPage(f, introKind(view.resource)), 401);
  }

  return { ...kit, throttled, submitLogin };
}

/** loginKit plus the link's own page, which opens no session until the PSU posts it. */
function entryKit(options: ScaPagesOptions) {
  const kit = loginKit(options);
  const { authorisations, redirects } = options;
  const { throttled, submitLogin } = kit;

  /** The link's claims and what it is for; otherwise answers why not, with the way back. */
  async function linkEntry(
    request: FastifyRequest, reply: FastifyReply, type: LinkEntry["type"], token: string,
  ): Promise<LinkEntry | undefined> {
    const lang = requestLanguage(request);
    const claims = await redirects.verify(token);
    if (!claims) {
      const back = await authorisations.wayBack(await redirects.expiredFor(token));
      return void kit.problemPage(reply, lang, "link_invalid", 400, back);
    }
    const state = await authorisations.examineLink(claims);
    if (!state.ok) return void kit.problemPage(reply, lang, state.problem, 400, state.back);
    return { type, token, claims, view: state.entry };
  }

  /** The link's login page, its forms carrying the token and a double-submit CSRF value. */
  function entryPage(
    request: FastifyRequest, reply: FastifyReply, link: LinkEntry,
    extra: Partial<PageFrame> = {}, status = 200,
  ) {
    const lang = requestLanguage(request);
    let nonce = cookieOf(request, ENTRY_COOKIE);
    if (!nonce) setCookie(reply, nonce = newSecret(), ENTRY_COOKIE);
    const f = kit.frame(link.view, lang, {
      step: 1, csrf: nonce, path: `/sca/${link.type}?token=${link.token}`,
      entry: { action: `/sca/${link.type}?lang=${lang}`, token: link.token },
      loginName: link.view.authorisation.namedPsu ?? undefined, ...extra,
    });
    return render(reply, link.view, loginPage(f, introKind(link.view.resource)), status);
  }

  /** The PSU acted on the link's page: the link is used up now, and its session opens. */
  async function enter(request: FormRequest, reply: FastifyReply, link: LinkEntry) {
    if (!sameText(field(request.body, "_csrf"), cookieOf(request, ENTRY_COOKIE) ?? "")) {
      return entryPage(request, reply, link, { error: "error_csrf" }, 403);
    }
    const cancelling = field(request.body, "cancel") === "yes";
    if (!cancelling && throttled(request, reply)) {
      return entryPage(request, reply, link, { error: "error_psu_blocked" }, 429);
    }
    const lang = requestLanguage(request);
    const opened = await authorisations.openSession(link.claims, lang);
    if (!opened.ok) {
      const back = "back" in opened ? opened.back : undefined;
      return kit.problemPage(reply, lang, opened.problem, 400, back);
    }
    setCookie(reply, opened.secret);
    setCookie(reply, link.claims.authorisationId, BACK_COOKIE, "; Max-Age=86400");
    const view = await authorisations.view(opened.secret);
    if (typeof view === "string") return kit.problemPage(reply, lang, view, 400);
    if (!cancelling) return submitLogin(request, reply, opened.secret, view);
    const result = await authorisations.decide(opened.secret, { confirm: false, ibans: [] });
    return result.ok ? reply.redirect(STEP_PATH.done, 303)
      : kit.problemPage(reply, lang, result.problem, 409);
  }

  return { ...kit, linkEntry, entryPage, enter };
}

type ScaKit = ReturnType<typeof entryKit>;

export function scaPages(app: FastifyInstance, options: ScaPagesOptions): void {
  const kit = entryKit(options);

  app.get("/sca/static/style.css", async (_request, reply) => reply.type("text/css; charset=utf-8")
    .header("Cache-Control", "public, max-age=3600").send(stylesheet(options.idleSeconds)));

  app.get("/sca/static/logo", async (_request, reply) => reply.type(options.logo.contentType)
    .header("Cache-Control", "public, max-age=3600").send(options.logo.body));

  failurePages(app, kit, options.authorisations);
  siteRoutes(app, kit);
  entryRoutes(app, kit);
  loginRoutes(app, options, kit);
  codeRoutes(app, options.authorisations, kit);
  decisionRoutes(app, options.authorisations, kit);
  if (options.sandbox) sandboxRoutes(app, options.authorisations, kit);
  if (options.oauth) {
    oauthPages(app, options.oauth, {
      setSession: (reply, secret) => setCookie(reply, secret), secretOf,
      problemPage: kit.problemPage,
    });
  }
}

/**
 * A failure on any page of this listener a browser asked for (HTML), a database timeout say:
 * 503 with the bank's page; nothing is lost, since each action is one database transaction.
 * Anything else (a TPP's script, the sandbox's JSON) keeps Fastify's answer.
 */
function failurePages(app: FastifyInstance, kit: ScaKit, authorisations: Authorisations): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500 || !/text\/html/.test(request.headers.accept ?? "")) throw error;
    request.log.error({ err: error }, "a PSU page failed");
    const back = await authorisations.wayBack(cookieOf(request, BACK_COOKIE))
      .catch(() => undefined);
    const f = kit.frame(undefined, requestLanguage(request), { back });
    return reply.code(503).header("Retry-After", "5").type("text/html; charset=utf-8")
      .send(unavailablePage(f, request.method === "GET" ? request.url : "/"));
  });
}

/** The site root and unknown paths: a page in the PSU's language, never the framework's JSON. */
function siteRoutes(app: FastifyInstance, kit: ScaKit): void {
  const site = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const lang = requestLanguage(request);
    const error = status === 404 ? "error_not_found" as const : undefined;
    return reply.code(status).type("text/html; charset=utf-8")
      .send(sitePage(kit.frame(undefined, lang, { error }), DASHBOARD));
  };
  app.get("/", async (request, reply) => site(request, reply, 200));
  app.setNotFoundHandler(async (request, reply) => site(request, reply, 404));
}

/** A link's verified claims and what it is for, with the type and token of its address. */
interface LinkEntry {
  type: "payment" | "consent" | "basket"; token: string; claims: RedirectClaims; view: EntryView;
}

/**
 * The scaRedirect links. Opening one shows its login page and uses up nothing, since mail
 * scanners and link previews fetch links too; the PSU's first post from that page (log in, or
 * cancel) uses the link up and opens the session.
 */
function entryRoutes(app: FastifyInstance, kit: ScaKit): void {
  for (const type of ["payment", "consent", "basket"] as const) {
    const path = `/sca/${type}`;
    app.get<{ Querystring: Record<string, string | undefined> }>(path, async (request, reply) => {
      const link = await kit.linkEntry(request, reply, type, request.query.token ?? "");
      if (link) return kit.entryPage(request, reply, link);
    });
    app.post<{ Body: Form }>(path, async (request, reply) => {
      const link = await kit.linkEntry(request, reply, type, field(request.body, "token"));
      if (link) return kit.enter(request, reply, link);
    });
  }
}

/** The first factor (login and password) and the choice of device for the second. */
function loginRoutes(app: FastifyInstance, options: ScaPagesOptions, kit: ScaKit): void {
  const { authorisations } = options;
  const { frame, session, posted } = kit;

  app.get("/sca/login", async (request, reply) => {
    const view = await session(request, reply, "login");
    if (!view) return;
    // The PSU the TPP named is filled in; another PSU is refused right after its password.
    const loginName = view.authorisation.namedPsu ?? undefined;
    const f = frame(view, view.session.lang, { step: 1, loginName });
    return render(reply, view, loginPage(f, introKind(view.resource)));
  });

  app.post<{ Body: Form }>("/sca/login", async (request, reply) => {
    const view = await posted(request, reply, "login");
    if (!view) return;
    if (kit.throttled(request, reply)) {
      const f = frame(view, view.session.lang, { step: 1, error: "error_psu_blocked" });
      return render(reply, view, loginPage(f, introKind(view.resource)), 429);
    }
    return kit.submitLogin(request, reply, secretOf(request) ?? "", view);
  });

  app.get("/sca/device", async (request, reply) => {
    const view = await session(request, reply, "device");
    if (!view) return;
    const f = frame(view, view.session.lang, { step: 2, path: STEP_PATH.device });
    return render(reply, view, devicePage(f, introKind(view.resource), view.devices));
  });

  app.post<{ Body: Form }>("/sca/device", async (request, reply) => {
    const view = await posted(request, reply, "device");
    if (!view) return;
    const device = field(request.body, "device");
    const result = await authorisations.chooseDevice(secretOf(request), device);
    if (!result.ok) {
      const error = problemMessage(result.problem);
      const f = frame(view, view.session.lang, { step: 2, path: STEP_PATH.device, error });
      return render(reply, view, devicePage(f, introKind(view.resource), view.devices), 400);
    }
    return reply.redirect(STEP_PATH.code, 303);
  });
}

/** The second factor: the code, and sending it again. */
function codeRoutes(app: FastifyInstance, authorisations: Authorisations, kit: ScaKit): void {
  const { session, posted, codeView } = kit;

  app.get("/sca/code", async (request, reply) => {
    const view = await session(request, reply, "code");
    if (view) return codeView(reply, view);
  });

  app.post<{ Body: Form }>("/sca/code", async (request, reply) => {
    const view = await posted(request, reply, "code");
    if (!view) return;
    const result = await authorisations.verifyCode(secretOf(request), field(request.body, "code"));
    if (!result.ok) return codeView(reply, view, refusalError(result), 401);
    setCookie(reply, result.secret);
    const device = cookieOf(request, DEVICE_COOKIE) ?? newSecret();
    await authorisations.rememberDevice(result.secret, device);
    setCookie(reply, device, DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE);
    return reply.redirect(STEP_PATH.review, 303);
  });

  app.post<{ Body: Form }>("/sca/code/resend", async (request, reply) => {
    const view = await posted(request, reply, "code");
    if (!view) return;
    const result = await authorisations.resendCode(secretOf(request));
    // Only the limit is worth saying: any other refusal leads back to the right step.
    if (!result.ok && result.problem === "resend_limit") {
      return codeView(reply, view, { error: problemMessage(result.problem) }, 400);
    }
    return reply.redirect(STEP_PATH.code, 303);
  });
}

/** The review, and the PSU's decision: confirm, or cancel at any step. */
function decisionRoutes(app: FastifyInstance, authorisations: Authorisations, kit: ScaKit): void {
  const { frame, session, posted, reviewView } = kit;

  app.get("/sca/review", async (request, reply) => {
    const view = await session(request, reply, "review");
    if (view) return reviewView(reply, view);
  });

  app.get("/sca/done", async (request, reply) => {
    const view = await session(request, reply, "done");
    if (!view) return;
    const f = frame(view, view.session.lang, { back: backToTpp(view), path: STEP_PATH.done });
    const { resource, authorisation, receipt } = view;
    return render(reply, view, resultPage(f, resource, authorisation.scaStatus, receipt));
  });

  app.post<{ Body: Form }>("/sca/confirm", async (request, reply) => {
    const view = await posted(request, reply, "review");
    if (!view) return;
    const chosen = {
      accounts: list(request.body, "account"), balances: list(request.body, "balances"),
      transactions: list(request.body, "transactions"),
    };
    const result = await authorisations.decide(secretOf(request), {
      confirm: true, ibans: chosen.accounts, ...chosen,
      acknowledgedNoMatch: request.body.vop_acknowledged === "yes",
    });
    return result.ok ? reply.redirect(STEP_PATH.done, 303)
      : reviewView(reply, view, result.problem, 400, chosen);
  });

  // Cancel works at every step, so it checks the session but not the step.
  app.post<{ Body: Form }>("/sca/cancel", async (request, reply) => {
    const view = await posted(request, reply, null);
    if (!view) return;
    const result = await authorisations.decide(secretOf(request), { confirm: false, ibans: [] });
    if (result.ok) return reply.redirect(STEP_PATH.done, 303);
    const f = frame(view, view.session.lang, { error: problemMessage(result.problem) });
    return render(reply, view, messagePage(f), 409);
  });
}

function sandboxRoutes(app: FastifyInstance, authorisations: Authorisations, kit: ScaKit): void {
  app.get<{ Params: { login: string } }>("/sandbox/sms/:login", async (request) =>
    authorisations.sandboxSms(request.params.login));
  app.get<{ Params: { login: string } }>("/sandbox/totp/:login", async (request, reply) =>
    await authorisations.sandboxTotp(request.params.login)
      ?? reply.code(404).send({ message: "no authenticator app registered for this login" }));
  // A stand-in TPP page for the README's curl walkthrough, so the browser lands somewhere real.
  app.get<{ Params: { result: string }; Querystring: { lang?: string } }>("/sandbox/tpp/:result",
    async (request, reply) => {
      const lang = requestLanguage(request);
      const key = request.params.result === "ok" ? "sandbox_back_ok" : "sandbox_back_nok";
      return reply.type("text/html; charset=utf-8")
        .send(messagePage(kit.frame(undefined, lang, { notice: key })));
    });
}
