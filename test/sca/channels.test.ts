/**
 * The rules of the one SCA session machine (src/domain/sca/session.ts) hold on every channel:
 * the same cases run against the redirect pages of an authorisation, for each subject the PSU
 * authorises there (a payment, a consent, a funds-confirmation consent, a signing basket), the
 * pages an OAuth authorisation request leads to, and the PSU's dashboard. Failures count across
 * both factors, the limit blocks, an idle session ends, the session id changes after each
 * factor, codes can be resent only so often, and the login never tells which logins exist
 * (issue 19, "PSU login"). Then every channel (redirect pages, OAuth, embedded API, bank app)
 * with every subject (a payment, its cancellation, a consent, a funds-confirmation consent, a
 * signing basket) counts its failures with the PSU's failures elsewhere, up to the one block;
 * and an embedded session, with each subject, ends when idle as a page's does.
 */
import assert from "node:assert/strict";
import { Agent, get, request } from "node:https";
import { test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { BrowserClient, csrfOf, errorText, type Page } from "../support/browser.js";
import {
  BOB_MAIN, CREATION_HEADERS, consentBody, createConsent, createdStatus, createPayment, linkOf,
  logIn, open, paymentBody,
} from "../support/flows.js";
import { follow, oauthClient, pushRequest } from "../support/oauth-client.js";
import { lastSmsCode, logInDashboard, wrongCode, wrongLogin } from "../support/psu.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

const BLOCKED = "Too many failed attempts: access is blocked for up to 15 minutes. Try again later.";
const BANK_BLOCK = "Your access has been blocked by the bank. Please contact the bank.";
const NO_DEVICE = "No authorization device is registered for you. Please contact your bank.";
const RESEND_LIMIT = "No more codes can be sent. Please enter the last code you received.";

interface Channel {
  name: string;
  cookie: string;
  /** Where the forms post, where the code form shows, where the PSU lands after both factors. */
  paths: { login: string; code: string; resend: string; codePage: string; authenticated: string };
  /** A fresh session's login form, in a new browser. */
  start(bank: TestBank): Promise<{ browser: BrowserClient; page: Page }>;
  /** Whether an answer says the session is over. */
  ended(page: Page): boolean;
  /** Whether a page is the one after both factors. */
  authenticated(page: Page): boolean;
}

/** The redirect pages of an authorisation of one subject, whose link `linkOfSubject` makes. */
const redirectPages = (
  subject: string, linkOfSubject: (bank: TestBank) => Promise<string>,
): Channel => ({
  name: `redirect pages (${subject})`,
  cookie: "__Host-psd2-sca",
  paths: {
    login: "/sca/login", code: "/sca/code", resend: "/sca/code/resend", codePage: "/sca/code",
    authenticated: "/sca/review",
  },
  async start(bank) {
    const scaRedirect = await linkOfSubject(bank);
    const browser = bank.browser();
    return { browser, page: await open(browser, scaRedirect) };
  },
  ended: (page) => page.status === 401 && /session has ended/.test(errorText(page)),
  authenticated: (page) => page.status === 200 && /action="\/sca\/confirm"/.test(page.html),
});

/** A signing basket of one of bob's payments and one of his consents, each awaiting him. */
async function basketLink(bank: TestBank): Promise<string> {
  const explicit = { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "true" };
  const payment = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers",
    paymentBody({ debtorAccount: BOB_MAIN }), explicit);
  const consent = await bank.tpp.post("/psd2/v1/consents",
    consentBody({ access: { accounts: [BOB_MAIN] } }), explicit);
  const res = await bank.tpp.post("/psd2/v1/signing-baskets", {
    paymentIds: [payment.body.paymentId], consentIds: [consent.body.consentId],
  }, CREATION_HEADERS);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  return linkOf(bank.tpp, res.body._links.scaRedirect);
}

const CHANNELS: readonly Channel[] = [
  redirectPages("payment", async (bank) =>
    (await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }))).scaRedirect),
  redirectPages("consent", async (bank) => (await createConsent(bank.tpp,
    consentBody({ access: { accounts: [BOB_MAIN] } }))).scaRedirect),
  redirectPages("funds-confirmation consent", async (bank) => {
    const res = await bank.tpp.post("/psd2/v1/consents/confirmation-of-funds",
      { account: { iban: BOB_MAIN } }, CREATION_HEADERS);
    assert.equal(res.status, 201, res.text);
    return linkOf(bank.tpp, res.body._links.scaRedirect);
  }),
  redirectPages("signing basket", basketLink),
  {
    ...redirectPages("payment", async () => ""),
    name: "OAuth (payment)",
    async start(bank) {
      const { paymentId } = await createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }));
      const { url } = await pushRequest(await oauthClient(bank), `PIS:${paymentId}`);
      const browser = bank.browser();
      const entry = await browser.get(url.pathname + url.search);
      return { browser, page: await follow(browser, entry) };
    },
  },
  {
    name: "dashboard",
    cookie: "__Host-psd2-dashboard",
    paths: { login: "/dashboard/login", code: "/dashboard/code", resend: "/dashboard/code/resend",
      codePage: "/dashboard", authenticated: "/dashboard" },
    async start(bank) {
      const browser = bank.browser();
      return { browser, page: await browser.get("/dashboard") };
    },
    ended: (page) => page.status === 303 && page.location === "/dashboard?done=expired",
    authenticated: (page) => /Logged in as Bob Meyer/.test(page.html),
  },
];

const ENV = { LOGIN_FAILURES_MAX: "3", LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: "1000" };

const send = (
  browser: BrowserClient, page: Page, path: string, fields: Record<string, string> = {},
) => browser.post(path, { _csrf: csrfOf(page.html), ...fields });

const bobsCode = async (browser: BrowserClient) =>
  ({ code: (await lastSmsCode(browser, "bob")).code });


/** bob's code page after his password, and the response that led there. */
async function bobAtCode(c: Channel, bank: TestBank) {
  const { browser, page } = await c.start(bank);
  const password = await logIn(browser, page, "bob", "bob-demo");
  assert.equal(password.status, 303, password.html);
  return { browser, start: page, password, code: await browser.follow(password) };
}

const cookieValue = (c: Channel, page: Page) => ((page.headers["set-cookie"] ?? []) as string[])
  .find((line) => line.startsWith(`${c.cookie}=`))?.split(";")[0]?.split("=")[1];

/** GET with only the given session cookie (an old or stolen one). */
function pageWithCookie(bank: TestBank, c: Channel, cookie: string): Promise<Page> {
  return new Promise((resolve, reject) => {
    const headers = { Cookie: `${c.cookie}=${cookie}` };
    get(new URL(c.paths.authenticated, bank.authUrl), { ca: bank.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location,
        html: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
    }).on("error", reject);
  });
}

for (const c of CHANNELS) {
  test(`${c.name}: failures count across password and code; the limit blocks`, async (t) => {
    const bank = await startOwnBank(t, { env: ENV });
    const { browser, page } = await c.start(bank);
    const wrong = await logIn(browser, page, "bob", "wrong");
    assert.equal(errorText(wrong), wrongLogin(2));
    const code = await browser.follow(await logIn(browser, wrong, "bob", "bob-demo"));
    const first = await send(browser, code, c.paths.code, { code: "000000" });
    assert.equal(first.status, 401);
    assert.equal(errorText(first), wrongCode(1), "the password's failure still counts");
    const second = await send(browser, first, c.paths.code, { code: "000001" });
    assert.equal(errorText(second), BLOCKED, "the third failure, the second with a code, blocks");
    const again = await c.start(bank);
    assert.equal(errorText(await logIn(again.browser, again.page, "bob", "bob-demo")), BLOCKED);
  });

  test(`${c.name}: a session idle for longer than SCA_SESSION_IDLE_SECONDS ends`, async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock, env: { ...ENV, SCA_SESSION_IDLE_SECONDS: "120" } });
    const { browser, code } = await bobAtCode(c, bank);
    clock.advance(119_000);
    const active = await browser.get(c.paths.codePage);
    assert.match(active.html, /name="code"/, "activity keeps it alive");
    clock.advance(121_000);
    const late = await send(browser, code, c.paths.code, await bobsCode(browser));
    assert.ok(c.ended(late), `${late.status} ${late.location ?? ""} ${errorText(late)}`);
  });

  test(`${c.name}: the session id changes after each factor; old ids open nothing`, async (t) => {
    const bank = await startOwnBank(t, { env: ENV });
    const { browser, start, password, code } = await bobAtCode(c, bank);
    const first = cookieValue(c, start) ?? "";
    const second = cookieValue(c, password) ?? "";
    assert.notEqual(second, "");
    assert.notEqual(second, first);
    const done = await send(browser, code, c.paths.code, await bobsCode(browser));
    const third = cookieValue(c, done) ?? "";
    assert.ok(third !== "" && third !== second);
    assert.ok(c.authenticated(await pageWithCookie(bank, c, third)));
    for (const old of [first, second].filter((v) => v !== "")) {
      assert.ok(!c.authenticated(await pageWithCookie(bank, c, old)), "an old id is authenticated");
    }
  });

  test(`${c.name}: a code can be sent five times per session, then no more`, async (t) => {
    const bank = await startOwnBank(t, { env: ENV });
    const { browser, code } = await bobAtCode(c, bank);
    let page = code;
    for (let resend = 1; resend <= 4; resend++) {
      const sent = await send(browser, page, c.paths.resend);
      assert.equal(sent.status, 303, `resend ${resend}: ${errorText(sent)}`);
      page = await browser.follow(sent);
    }
    const last = await lastSmsCode(browser, "bob");
    const refused = await send(browser, page, c.paths.resend);
    assert.equal(refused.status, 400);
    assert.equal(errorText(refused), RESEND_LIMIT);
    assert.equal((await lastSmsCode(browser, "bob")).text, last.text, "no further SMS");
    const done = await send(browser, refused, c.paths.code, { code: last.code });
    assert.ok(c.authenticated(await browser.follow(done)), "the last code sent still works");
  });

  test(`${c.name}: an unknown login is answered as a known one, block included`, async (t) => {
    const bank = await startOwnBank(t, { env: ENV });
    const answers = async (login: string) => {
      const { browser, page } = await c.start(bank);
      const seen: string[] = [];
      let current = page;
      for (let attempt = 1; attempt <= 4; attempt++) {
        current = await logIn(browser, current, login, `wrong-${attempt}`);
        seen.push(`${current.status} ${errorText(current)}`);
      }
      const right = await logIn(browser, current, login, `${login}-demo`);
      return [...seen, `${right.status} ${errorText(right)}`];
    };
    const known = await answers("bob");
    assert.deepEqual(known, [
      `401 ${wrongLogin(2)}`, `401 ${wrongLogin(1)}`, `401 ${BLOCKED}`, `401 ${BLOCKED}`,
      `401 ${BLOCKED}`,
    ]);
    assert.deepEqual(await answers("nobody-at-this-bank"), known);
  });

  test(`${c.name}: the PSU's state (bank's block, no device) shows after the right password only`,
    async (t) => {
      const bank = await startOwnBank(t, { env: ENV });
      for (const [login, afterRight] of [["erik", BANK_BLOCK], ["finn", NO_DEVICE]] as const) {
        const { browser, page } = await c.start(bank);
        const wrong = await logIn(browser, page, login, "wrong");
        assert.equal(`${wrong.status} ${errorText(wrong)}`, `401 ${wrongLogin(2)}`, login);
        const right = await logIn(browser, wrong, login, `${login}-demo`);
        assert.equal(errorText(right), afterRight, login);
      }
    });
}

/** Form posts over one kept-alive connection: no TLS handshake in the times measured. */
function keptAlivePoster(bank: TestBank, cookie: string) {
  const agent = new Agent({ ca: bank.ca, keepAlive: true, maxSockets: 1 });
  const post = (path: string, fields: Record<string, string>) => new Promise<number>((
    resolve, reject,
  ) => {
    const body = new URLSearchParams(fields).toString();
    const headers = { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" };
    const started = performance.now();
    request(new URL(path, bank.authUrl), { method: "POST", agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(performance.now() - started));
    }).on("error", reject).end(body);
  });
  return { post, close: () => agent.destroy() };
}

test("an unknown login takes as long as a known one's wrong password (dummy hash)", async (t) => {
  const bank = await startOwnBank(t, { env: ENV });
  const dashboard = CHANNELS.find((c) => c.name === "dashboard");
  assert.ok(dashboard);
  const { page } = await dashboard.start(bank);
  const poster = keptAlivePoster(bank, `${dashboard.cookie}=${cookieValue(dashboard, page) ?? ""}`);
  t.after(() => poster.close());
  const timed = (login: string) =>
    poster.post(dashboard.paths.login, { _csrf: csrfOf(page.html), login, password: "wrong" });
  // The first unknown login makes the dummy hash; it is not what a login costs afterwards.
  await timed("warm-up");
  // Pairs taken one right after the other, so the machine's load weighs on both alike; two
  // wrong passwords each keep every PSU below its block (LOGIN_FAILURES_MAX 3).
  const known = ["alice", "bob", "carol", "dora", "gina"];
  const ratios: number[] = [];
  for (let i = 0; i < 2 * known.length; i++) {
    const knownMs = await timed(known[i % known.length] ?? "");
    ratios.push((await timed(`nobody-${i}`)) / knownMs);
  }
  const median = ratios.sort((a, b) => a - b)[ratios.length / 2] ?? 0;
  t.diagnostic(`unknown / known login time: median ${median.toFixed(2)} of ${ratios.length} pairs`);
  assert.ok(median > 0.5 && median < 2, `median ratio ${median}`);
});

type Approach = "redirect" | "embedded" | "decoupled";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const PSU_HEADERS: Record<Approach, Record<string, string>> = {
  redirect: CREATION_HEADERS,
  embedded: { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-Preferred": "false", "PSU-ID": "bob" },
  decoupled: { "PSU-IP-Address": "192.0.2.1", "TPP-Decoupled-Preferred": "true", "PSU-ID": "bob" },
};

/** A subject awaiting bob: the TPP's answer (its _links) and the resource's id. */
interface Created { body: any; id: string }

interface Subject {
  name: string;
  /** The OAuth scope's service naming it; none: no scope names it. */
  scope?: "PIS" | "AIS" | "PIIS";
  create(bank: TestBank, headers: Record<string, string>): Promise<Created>;
}

async function created(
  res: { status: number; body: any; text: string }, id: string, status: number,
): Promise<Created> {
  assert.equal(res.status, status, res.text);
  return { body: res.body, id: res.body[id] as string };
}

/**
 * A standing order of bob's, authorised in his app (the sandbox's), then cancelled; its
 * redirect URIs are where a cancellation on the redirect pages goes back to.
 */
async function cancellation(bank: TestBank, headers: Record<string, string>): Promise<Created> {
  const path = "/psd2/v1/periodic-payments/sepa-credit-transfers";
  const startDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const order = await bank.tpp.post(path, paymentBody({ debtorAccount: BOB_MAIN, startDate,
    frequency: "Monthly" }), { ...CREATION_HEADERS, ...PSU_HEADERS.decoupled });
  assert.equal(order.status, createdStatus(bank.tpp), order.text);
  const approved = await bank.browser().post("/sandbox/app/bob/approve", {});
  assert.equal(approved.status, 200, approved.html);
  const { paymentId } = order.body;
  const res = await bank.tpp.call("DELETE", `${path}/${paymentId}`, { headers });
  return { ...(await created(res, "paymentId", 202)), id: paymentId };
}

const SUBJECTS: readonly Subject[] = [
  { name: "payment", scope: "PIS", create: async (bank, headers) => created(
    await bank.tpp.post(SCT, paymentBody({ debtorAccount: BOB_MAIN }), headers), "paymentId",
    createdStatus(bank.tpp)) },
  { name: "payment cancellation", create: cancellation },
  { name: "consent", scope: "AIS", create: async (bank, headers) => created(await bank.tpp.post(
    "/psd2/v1/consents", consentBody({ access: { accounts: [BOB_MAIN] } }), headers),
  "consentId", createdStatus(bank.tpp)) },
  { name: "funds-confirmation consent", scope: "PIIS", create: async (bank, headers) =>
    created(await bank.tpp.post("/psd2/v1/consents/confirmation-of-funds",
      { account: { iban: BOB_MAIN } }, headers), "consentId", 201) },
  { name: "signing basket", create: async (bank, headers) => {
    const explicit = { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "true" };
    const payment = await bank.tpp.post(SCT, paymentBody({ debtorAccount: BOB_MAIN }), explicit);
    const consent = await bank.tpp.post("/psd2/v1/consents",
      consentBody({ access: { accounts: [BOB_MAIN] } }), explicit);
    return created(await bank.tpp.post("/psd2/v1/signing-baskets", {
      paymentIds: [payment.body.paymentId], consentIds: [consent.body.consentId],
    }, headers), "basketId", createdStatus(bank.tpp));
  } },
];

/** A channel's two tries for bob on a subject: a wrong factor, then the right one. */
interface TryingChannel {
  name: string;
  approach: Approach;
  /** What the channel needs before the subject is created (the bank app: its activation). */
  prepare?(bank: TestBank): Promise<BrowserClient>;
  /** Undefined where the channel cannot reach the subject. */
  reaches?(subject: Subject): boolean;
  tries(bank: TestBank, subject: Subject, made: Created, app?: BrowserClient):
    Promise<[string, string]>;
}

/** A wrong, then the right password on a login page of the redirect pages. */
async function pageTries(browser: BrowserClient, page: Page): Promise<[string, string]> {
  const wrong = await logIn(browser, page, "bob", "wrong");
  const right = await logIn(browser, wrong, "bob", "bob-demo");
  return [errorText(wrong), errorText(right)];
}

/**
 * bob's password for an embedded authorisation: an update of the one its creation started, or
 * the start of one (a cancellation's) with it.
 */
function embeddedPassword(bank: TestBank, made: Created, password: string) {
  const links = made.body._links;
  const update = links.updatePsuAuthentication ?? links.startAuthorisationWithPsuAuthentication;
  const body = { psuData: { password } };
  const to = linkOf(bank.tpp, update);
  return links.updatePsuAuthentication ? bank.tpp.call("PUT", to, { body })
    : bank.tpp.post(to, body, { "PSU-ID": "bob" });
}

const apiText = (res: { body: any; text: string }) =>
  String(res.body?.tppMessages?.[0]?.text ?? res.text);

const TRYING_CHANNELS: readonly TryingChannel[] = [
  { name: "redirect pages", approach: "redirect", async tries(bank, _subject, made) {
    const browser = bank.browser();
    return pageTries(browser, await open(browser, linkOf(bank.tpp, made.body._links.scaRedirect)));
  } },
  { name: "OAuth", approach: "redirect", reaches: (subject) => subject.scope !== undefined,
    async tries(bank, subject, made) {
      const { url } = await pushRequest(await oauthClient(bank), `${subject.scope}:${made.id}`);
      const browser = bank.browser();
      const entry = await browser.get(url.pathname + url.search);
      return pageTries(browser, await follow(browser, entry));
    } },
  { name: "embedded API", approach: "embedded", async tries(bank, _subject, made) {
    const wrong = await embeddedPassword(bank, made, "wrong");
    assert.equal(wrong.status, 401, wrong.text);
    return [apiText(wrong), apiText(await embeddedPassword(bank, made, "bob-demo"))];
  } },
  { name: "bank app", approach: "decoupled",
    async prepare(bank) {
      const app = bank.browser();
      const overview = await logInDashboard(app, "bob");
      const activated = await app.post("/dashboard/app", { _csrf: csrfOf(overview.html),
        pin: "2468" });
      assert.equal(activated.status, 303, activated.html);
      return app;
    },
    async tries(_bank, _subject, _made, app) {
      assert.ok(app);
      const page = await app.get("/app");
      const authorisation = /name="authorisation" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
      const approve = (pin: string) =>
        app.post("/app/approve", { _csrf: csrfOf(page.html), authorisation, pin });
      return [errorText(await approve("1111")), errorText(await approve("2468"))];
    } },
];

for (const c of TRYING_CHANNELS) {
  for (const subject of SUBJECTS) {
    const reached = c.reaches?.(subject) ?? true;
    const skip = !reached && "no OAuth scope names it";
    test(`${c.name}, ${subject.name}: a failure counts with bob's failures elsewhere; the block `
      + "holds for the right factor", { skip }, async (t) => {
      const bank = await startOwnBank(t, { env: ENV });
      const app = await c.prepare?.(bank);
      const made = await subject.create(bank, PSU_HEADERS[c.approach]);
      const elsewhere = bank.browser();
      let page = await elsewhere.get("/dashboard");
      for (const left of [2, 1]) {
        page = await logIn(elsewhere, page, "bob", "wrong");
        assert.equal(errorText(page), wrongLogin(left));
      }
      const [wrong, right] = await c.tries(bank, subject, made, app);
      assert.match(wrong, /blocked/, "the third failure, the first on this channel, blocks");
      assert.match(right, /blocked/, "the block holds for the right factor");
    });
  }
}

for (const subject of SUBJECTS) {
  test(`embedded API, ${subject.name}: a session idle for longer than SCA_SESSION_IDLE_SECONDS `
    + "ends", async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock, env: { ...ENV, SCA_SESSION_IDLE_SECONDS: "120" } });
    const made = await subject.create(bank, PSU_HEADERS.embedded);
    const authenticated = await embeddedPassword(bank, made, "bob-demo");
    assert.equal(authenticated.status, 200, authenticated.text);
    const code = linkOf(bank.tpp, authenticated.body._links.authoriseTransaction);
    clock.advance(121_000);
    const body = { scaAuthenticationData: (await lastSmsCode(bank.browser(), "bob")).code };
    const late = await bank.tpp.call("PUT", code, { body });
    assert.equal(late.status, 400, late.text);
    assert.match(apiText(late), /idle too long/);
  });
}
