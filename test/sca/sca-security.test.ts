/**
 * The PSU pages' defences: response headers, the session cookie, the single-use signed redirect
 * link, CSRF, step order, session fixation, blocking after failed logins, ownership, one-time
 * codes, the idle timeout, and the sandbox-only SMS outbox and TOTP helper.
 */
import assert from "node:assert/strict";
import { groupedIban } from "../../src/sca/format.js";
import { get } from "node:https";
import { decodeJwt, SignJWT } from "jose";
import { after, before, test } from "node:test";
import { manualClock, type Clock } from "../../src/lib/clock.js";
import { totpAt } from "../../src/lib/totp.js";
import { csrfOf, errorText, formOf, type BrowserClient, type Page } from "../support/browser.js";
import {
  ALICE_MAIN, BOB_MAIN, cancel, confirm, createPayment, enterCode, EXTERNAL_IBAN,
  logIn, NOK_URI, open, paymentBody,
} from "../support/flows.js";
import { codeFor, demoPsu, lastSmsCode, WRONG_CODE, wrongLogin } from "../support/psu.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const COOKIE = "__Host-psd2-sca";
const BLOCKED = "Too many failed attempts: access is blocked for up to 15 minutes. Try again later.";
const BLOCKED_2_MINUTES = BLOCKED.replace("15", "2");
const CODE_REUSED = "This code has just been used. Wait for the next code in your authenticator "
  + "app and enter it.";
const MINUTE = 60_000;

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const ownBank = startOwnBank;

const bobPayment = (tpp: TppClient) => createPayment(tpp, paymentBody({ debtorAccount: BOB_MAIN }));

/** Opens the link and logs `login` in with the demo password; returns the code page. */
async function loggedIn(browser: BrowserClient, scaRedirect: string, login: string) {
  const loginPage = await open(browser, scaRedirect);
  return browser.follow(await logIn(browser, loginPage, login, `${login}-demo`));
}

/** Enters the PSU's current code on the code page and follows on to the next page. */
async function passCode(browser: BrowserClient, codePage: Page, login: string) {
  return browser.follow(await enterCode(browser, codePage, await codeFor(browser, login)));
}

const paymentStatus = async (tpp: TppClient, paymentId: string) =>
  (await tpp.get(`/psd2/v1/payments/${paymentId}/status`)).body?.transactionStatus as unknown;


/** The session cookie a response sets, as the full Set-Cookie line, if any. */
function setCookie(page: Page): string | undefined {
  const lines = (page.headers["set-cookie"] ?? []) as string[];
  return lines.find((line) => line.startsWith(`${COOKIE}=`));
}

/** Where a page's "Back to" button leads, if it has one. */
const backOf = (page: Page) => /<a class="button" href="([^"]+)">Back to/.exec(page.html)?.[1];

const cookieValue = (page: Page) => /^[^=]+=([^;]*)/.exec(setCookie(page) ?? "")?.[1];

/** GET on the auth listener with only the given session cookie (an attacker's replay). */
function statusWithCookie(target: TestBank, path: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { Cookie: `${COOKIE}=${cookie}` };
    get(new URL(path, target.authUrl), { ca: target.ca, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

/** Alice's TOTP code for the time of a bank's manual clock. */
function aliceCodeAt(clock: Clock, offsetMs = 0): string {
  const { device } = demoPsu("alice");
  assert.equal(device.kind, "totp");
  return totpAt(device.kind === "totp" ? device.secret : "", clock.now().getTime() + offsetMs);
}

function assertSecureHeaders(page: Page, what: string): void {
  const csp = String(page.headers["content-security-policy"] ?? "");
  assert.match(csp, /default-src 'none'/, what);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, what);
  assert.equal(page.headers["referrer-policy"], "no-referrer", what);
  assert.equal(page.headers["cache-control"], "no-store", what);
}

test("every page, redirect and error page carries a strict CSP, no-referrer and no-store",
  async () => {
    const pages: [string, Page][] = [];
    const { scaRedirect } = await createPayment(bank.tpp);
    const browser = bank.browser();
    const entry = await browser.get(scaRedirect);
    pages.push(["entry", entry]);
    const wrong = await logIn(browser, entry, "alice", "wrong");
    pages.push(["wrong password", wrong]);
    const loggedIn = await logIn(browser, wrong, "alice", "alice-demo");
    pages.push(["login redirect", loggedIn]);
    const code = await browser.follow(loggedIn);
    pages.push(["code", code]);
    const review = await passCode(browser, code, "alice");
    pages.push(["review", review]);
    pages.push(["csrf refusal", await browser.post("/sca/confirm", { _csrf: "forged" })]);
    pages.push(["confirm", await confirm(browser, review)]);
    pages.push(["used link", await bank.browser().get(scaRedirect)]);
    pages.push(["invalid link", await bank.browser().get("/sca/payment?token=x.y.z")]);
    pages.push(["no session", await bank.browser().get("/sca/review")]);
    assert.deepEqual(pages.map(([, p]) => p.status),
      [200, 401, 303, 200, 200, 403, 200, 400, 400, 401]);
    for (const [what, page] of pages) assertSecureHeaders(page, what);
  });

/** The link's page, then the post that opens the session (a wrong password: no factor passed). */
async function entered(target: TestBank, scaRedirect: string) {
  const browser = target.browser();
  const entry = await open(browser, scaRedirect);
  return { browser, entry, first: await logIn(browser, entry, "bob", "wrong") };
}

test("the cookies are __Host-: Secure, HttpOnly, SameSite, Path=/; the session's opens on a post",
  async () => {
    const { entry, first } = await entered(bank, (await bobPayment(bank.tpp)).scaRedirect);
    assert.equal(setCookie(entry), undefined, "opening the link opens no session");
    const lines = [...(entry.headers["set-cookie"] as string[]),
      ...(first.headers["set-cookie"] as string[])];
    assert.deepEqual(lines.map((line) => line.split("=")[0]),
      ["__Host-psd2-sca-entry", COOKIE, "__Host-psd2-sca-back"]);
    for (const line of lines) {
      const attributes = line.split(";").slice(1).map((a) => a.trim().toLowerCase());
      assert.ok(attributes.includes("secure"), line);
      assert.ok(attributes.includes("httponly"), line);
      assert.ok(attributes.includes("path=/"), line);
      assert.ok(attributes.some((a) => /^samesite=(lax|strict)$/.test(a)), line);
      assert.ok(!attributes.some((a) => a.startsWith("domain=")), "a __Host- cookie has no Domain");
    }
    assert.match(cookieValue(first) ?? "", /^[\w-]{32,}$/, "the session secret is long and random");
  });

test("a link fetched by a mail scanner or a preview is not used up: the PSU's post uses it",
  async () => {
    const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
    for (let fetch = 0; fetch < 3; fetch++) {
      const preview = bank.browser();
      assert.equal((await preview.get(scaRedirect)).status, 200, "a scanner sees the login page");
      assert.equal(preview.hasSession(), false);
    }
    const psu = bank.browser();
    const code = await logIn(psu, await open(psu, scaRedirect), "bob", "bob-demo");
    assert.equal(code.location, "/sca/code", "the PSU's own opening still works");
    assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
  });

test("the link works once: after the PSU's post it is refused and sets no session", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp);
  await entered(bank, scaRedirect);
  const again = bank.browser();
  const page = await again.get(scaRedirect);
  assert.equal(page.status, 400);
  assert.match(errorText(page), /already been used/);
  assert.equal(setCookie(page), undefined);
  assert.equal(again.hasSession(), false);
  assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
});

test("a token with one character of its signature changed is refused", async () => {
  const { scaRedirect } = await createPayment(bank.tpp);
  const url = new URL(scaRedirect);
  const token = url.searchParams.get("token") ?? "";
  const at = token.lastIndexOf(".") + 5; // inside the signature, away from its padding bits
  const changed = token[at] === "A" ? "B" : "A";
  url.searchParams.set("token", token.slice(0, at) + changed + token.slice(at + 1));
  const browser = bank.browser();
  const page = await browser.get(url.toString());
  assert.equal(page.status, 400);
  assert.match(errorText(page), /not valid or has expired/);
  assert.equal(browser.hasSession(), false);
  // The genuine token was not spent by the forgery.
  assert.equal((await entered(bank, scaRedirect)).first.status, 401, "a session, at the login");
});

test("the success and failure URLs in the link do not decide where the browser goes", async () => {
  const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
  const url = new URL(scaRedirect);
  url.searchParams.set("successUrl", "https://evil.example/ok");
  url.searchParams.set("failureUrl", "https://evil.example/nok");
  const browser = bank.browser();
  const login = await open(browser, url.toString());
  assert.doesNotMatch(String(login.headers["content-security-policy"]), /evil/);
  assert.equal((await cancel(browser, login)).location, NOK_URI);
  assert.equal(await paymentStatus(bank.tpp, paymentId), "CANC");
});

test("tokens of another algorithm, audience, type or without signature are refused", async () => {
  const { scaRedirect } = await createPayment(bank.tpp);
  const url = new URL(scaRedirect);
  const claims = decodeJwt(url.searchParams.get("token") ?? "");
  const { store } = bank.app;
  const key = Buffer.from(await store.secrets.getOrCreate(store.db, "sca-token-key", "unused"), "base64url");
  const signed = (alg: string, typ: string, aud: string) =>
    new SignJWT({ ...claims, aud }).setProtectedHeader({ alg, typ }).sign(key);
  const unsigned = [
    Buffer.from(JSON.stringify({ alg: "none", typ: "sca-redirect+jwt" })).toString("base64url"),
    Buffer.from(JSON.stringify(claims)).toString("base64url"), "",
  ].join(".");
  const forged = {
    "alg none": unsigned,
    "HS512, not on the allow-list": await signed("HS512", "sca-redirect+jwt", "psd2-bank-sca"),
    "another audience": await signed("HS256", "sca-redirect+jwt", "psd2-bank-api"),
    "another type": await signed("HS256", "JWT", "psd2-bank-sca"),
  };
  for (const [what, token] of Object.entries(forged)) {
    url.searchParams.set("token", token);
    const browser = bank.browser();
    const page = await browser.get(url.toString());
    assert.equal(page.status, 400, what);
    assert.equal(browser.hasSession(), false, what);
  }
  // The same claims under the genuine header and key are accepted: the refusals above are real.
  url.searchParams.set("token", await signed("HS256", "sca-redirect+jwt", "psd2-bank-sca"));
  assert.equal((await bank.browser().get(url.toString())).status, 200);
});

test("HSTS is sent when the pages are served under a real host name, not on localhost", async (t) => {
  const own = await ownBank(t, { env: { PUBLIC_AUTH_URL: "https://auth.bank.example" } });
  const page = await own.browser().get((await createPayment(own.tpp)).scaRedirect);
  assert.match(String(page.headers["strict-transport-security"]), /max-age=31536000/);
  const local = await bank.browser().get((await createPayment(bank.tpp)).scaRedirect);
  assert.equal(local.headers["strict-transport-security"], undefined);
});

test("a TPP's name from its certificate is shown HTML-escaped", async () => {
  const name = `Evil <img src=x onerror=alert(1)> "TPP"`;
  const evil = await bank.tppWith({ name, organizationIdentifier: "PSDDE-BAFIN-666666" });
  const { scaRedirect } = await bobPayment(evil);
  const login = await open(bank.browser(), scaRedirect);
  assert.ok(login.html.includes("Evil &#60;img src=x onerror=alert(1)&#62; &#34;TPP&#34;"),
    login.html);
  assert.doesNotMatch(login.html, /<img/);
});

test("a redirect link opened more than 10 minutes after its creation is refused", async (t) => {
  const clock = manualClock(new Date());
  const own = await ownBank(t, { clock });
  const early = await createPayment(own.tpp);
  const late = await createPayment(own.tpp);
  clock.advance(9 * MINUTE);
  assert.equal((await own.browser().get(early.scaRedirect)).status, 200, "valid after 9 minutes");
  clock.advance(2 * MINUTE);
  const browser = own.browser();
  const page = await browser.get(late.scaRedirect);
  assert.equal(page.status, 400);
  assert.match(errorText(page), /not valid or has expired/);
  assert.equal(browser.hasSession(), false);
  assert.equal(backOf(page), NOK_URI, "not a dead end: the way back to the TPP");
  const forged = new URL(late.scaRedirect);
  forged.searchParams.set("token", `${forged.searchParams.get("token")}x`);
  assert.equal(backOf(await browser.get(forged.toString())), undefined, "only a genuine link's");
});

test("a form post without or with a wrong _csrf is refused with 403 and changes nothing",
  async () => {
    const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
    const browser = bank.browser();
    const entry = await open(browser, scaRedirect);
    const { action, hidden } = formOf(entry.html, /name="password"/);
    const credentials = { login: "bob", password: "bob-demo", token: hidden.token ?? "" };
    for (const csrf of [{}, { _csrf: "forged" }] as Record<string, string>[]) {
      const page = await browser.post(action, { ...csrf, ...credentials });
      assert.equal(page.status, 403);
      assert.equal(errorText(page), "The form has expired. Please try again.");
      assert.equal(browser.hasSession(), false, "the link is not used by a forged post");
    }
    const login = await logIn(browser, entry, "bob", "wrong");
    for (const csrf of [{}, { _csrf: "forged" }] as Record<string, string>[]) {
      const page = await browser.post("/sca/login", { ...csrf, ...credentials });
      assert.equal(page.status, 403);
    }
    assert.equal((await browser.get("/sca/login")).status, 200, "still on the login step");
    const code = await browser.follow(await logIn(browser, login, "bob", "bob-demo"));
    const review = await passCode(browser, code, "bob");
    for (const action of ["/sca/confirm", "/sca/cancel"]) {
      assert.equal((await browser.post(action, {})).status, 403, action);
      assert.equal((await browser.post(action, { _csrf: csrfOf(code.html) })).status, 403,
        `${action} with the token of an earlier step`);
    }
    assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
    assert.equal((await browser.get("/sca/review")).status, 200, "still on the review");
    assert.equal((await cancel(browser, review)).location, NOK_URI);
  });

test("a confirm posted before the code step does not confirm", async () => {
  const { paymentId, scaRedirect } = await bobPayment(bank.tpp);
  const { browser, first: login } = await entered(bank, scaRedirect);
  const early = await browser.post("/sca/confirm", { _csrf: csrfOf(login.html) });
  assert.equal(early.status, 303);
  assert.equal(early.location, "/sca/login");
  const code = await browser.follow(await logIn(browser, login, "bob", "bob-demo"));
  const skipped = await browser.post("/sca/confirm", { _csrf: csrfOf(code.html) });
  assert.equal(skipped.status, 303);
  assert.equal(skipped.location, "/sca/code");
  assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
  assert.equal((await browser.get("/sca/review")).location, "/sca/code");
});

test("the session cookie and CSRF token are renewed after login and after the code", async () => {
  const { scaRedirect } = await bobPayment(bank.tpp);
  const { browser, first: login } = await entered(bank, scaRedirect);
  const loggedIn = await logIn(browser, login, "bob", "bob-demo");
  const code = await browser.follow(loggedIn);
  const verified = await enterCode(browser, code, await codeFor(browser, "bob"));
  const review = await browser.follow(verified);
  const cookies = [login, loggedIn, verified].map(cookieValue);
  assert.ok(cookies.every((c) => c !== undefined && c.length > 0), String(cookies));
  assert.equal(new Set(cookies).size, 3, "a new session id after each factor");
  assert.equal(new Set([login, code, review].map((p) => csrfOf(p.html))).size, 3);
  const [beforeLogin = "", beforeCode = "", current = ""] = cookies;
  assert.equal(await statusWithCookie(bank, "/sca/review", beforeLogin), 401);
  assert.equal(await statusWithCookie(bank, "/sca/review", beforeCode), 401);
  assert.equal(await statusWithCookie(bank, "/sca/review", current), 200);
});

test("five wrong passwords block the PSU, and then even the right password fails", async (t) => {
  const own = await ownBank(t);
  const { scaRedirect } = await createPayment(own.tpp);
  const browser = own.browser();
  let page = await open(browser, scaRedirect);
  for (let attempt = 1; attempt <= 5; attempt++) {
    page = await logIn(browser, page, "alice", `wrong-${attempt}`);
    assert.equal(page.status, 401);
    assert.equal(errorText(page), attempt < 5 ? wrongLogin(5 - attempt) : BLOCKED,
      `attempt ${attempt}`);
  }
  const right = await logIn(browser, page, "alice", "alice-demo");
  assert.equal(right.status, 401);
  assert.equal(errorText(right), BLOCKED);
  // Blocking is per PSU, not per session: a new authorisation is blocked too, bob is not.
  const other = own.browser();
  const fresh = await loggedIn(other, (await createPayment(own.tpp)).scaRedirect, "alice");
  assert.equal(errorText(fresh), BLOCKED);
  const bob = own.browser();
  const bobsCode = await loggedIn(bob, (await bobPayment(own.tpp)).scaRedirect, "bob");
  assert.match(bobsCode.html, /name="code"/, "another PSU is not blocked");
});

test("the block lasts LOGIN_BLOCK_SECONDS: still blocked just before its end, lifted after", async (t) => {
  const clock = manualClock(new Date());
  const own = await ownBank(t, { clock, env: { LOGIN_BLOCK_SECONDS: "120" } });
  const browser = own.browser();
  let page = await open(browser, (await createPayment(own.tpp)).scaRedirect);
  for (let attempt = 1; attempt <= 5; attempt++) page = await logIn(browser, page, "alice", `wrong-${attempt}`);
  assert.equal(errorText(page), BLOCKED_2_MINUTES, "the message says how long");
  clock.advance(119_000);
  const early = await loggedIn(own.browser(), (await createPayment(own.tpp)).scaRedirect, "alice");
  assert.equal(errorText(early), BLOCKED_2_MINUTES);
  clock.advance(2_000);
  const later = await loggedIn(own.browser(), (await createPayment(own.tpp)).scaRedirect, "alice");
  assert.match(later.html, /name="code"/, later.html);
});

test("carol cannot authorise alice's payment: told right after her password, before any code",
  async () => {
    const { paymentId, scaRedirect } = await createPayment(bank.tpp);
    const browser = bank.browser();
    const atLogin = await loggedIn(browser, scaRedirect, "carol");
    const notYours = "This payment is to be made from an account that is not yours.";
    assert.equal(atLogin.status, 401);
    assert.equal(errorText(atLogin), notYours);
    assert.doesNotMatch(atLogin.html, /name="code"/, "no code asked, none spent");
    assert.doesNotMatch(atLogin.html, /from your account/, "no 'your account' about alice's");
    const forced = await browser.post("/sca/confirm", { _csrf: csrfOf(atLogin.html) });
    assert.equal(forced.location, "/sca/login", "a confirm here only leads back to the login");
    assert.equal(await paymentStatus(bank.tpp, paymentId), "RCVD");
    // The account's owner can still authorise it from the same link's session.
    const alice = await browser.follow(await logIn(browser, atLogin, "alice", "alice-demo"));
    assert.match(alice.html, /name="code"/, alice.html);
  });

/** Bob logged in on a fresh payment of his: the code page, and the code his SMS brought. */
async function bobAtCode(target: TestBank) {
  const { paymentId, scaRedirect } = await bobPayment(target.tpp);
  const browser = target.browser();
  const code = await loggedIn(browser, scaRedirect, "bob");
  return { paymentId, browser, code, sms: await lastSmsCode(browser, "bob") };
}

test("an SMS code works only for the payment it was sent for", async () => {
  const first = await bobAtCode(bank);
  const second = await bobAtCode(bank);
  assert.notEqual(first.sms.code, second.sms.code);
  const swappedA = await enterCode(first.browser, first.code, second.sms.code);
  assert.equal(swappedA.status, 401);
  assert.match(errorText(swappedA), WRONG_CODE);
  const swappedB = await enterCode(second.browser, second.code, first.sms.code);
  assert.equal(swappedB.status, 401);
  for (const [{ browser, sms }, page] of [[first, swappedA], [second, swappedB]] as const) {
    assert.equal((await enterCode(browser, page, sms.code)).location, "/sca/review");
  }
});

test("an SMS code is bound to the payee it named: changed afterwards, it is refused", async () => {
  const { paymentId, browser, code, sms } = await bobAtCode(bank);
  assert.ok(sms.text.includes(groupedIban(EXTERNAL_IBAN)), sms.text);
  await bank.app.store.db.updateTable("payments").set({ creditor_iban: ALICE_MAIN })
    .where("id", "=", paymentId).execute();
  const refused = await enterCode(browser, code, sms.code);
  assert.equal(refused.status, 401);
  assert.match(errorText(refused), WRONG_CODE);
});

test("an SMS code names the amount and the payee, and is refused once the amount changes", async () => {
  const { paymentId, browser, code, sms } = await bobAtCode(bank);
  assert.match(sms.text, /€12\.50 to Merchant GmbH \(DE89 3704 0044 0532 0130 00\)/, sms.text);
  await bank.app.store.db.updateTable("payments").set({ amount: 1251 }).where("id", "=", paymentId).execute();
  const refused = await enterCode(browser, code, sms.code);
  assert.equal(refused.status, 401);
  assert.match(errorText(refused), WRONG_CODE);
});

test("an SMS code is replaced by a resent one and is accepted only once", async () => {
  const { browser, code, sms } = await bobAtCode(bank);
  const resent = await browser.post("/sca/code/resend", { _csrf: csrfOf(code.html) });
  assert.equal(resent.location, "/sca/code");
  const fresh = await lastSmsCode(browser, "bob");
  assert.notEqual(fresh.code, sms.code);
  const stale = await enterCode(browser, code, sms.code);
  assert.equal(stale.status, 401, "the replaced code no longer works");
  const twice = await Promise.all([0, 1].map(() => enterCode(browser, stale, fresh.code)));
  const accepted = twice.filter((p) => p.location === "/sca/review" && setCookie(p) !== undefined);
  assert.equal(accepted.length, 1, twice.map((p) => `${p.status} ${p.location}`).join(", "));
});

test("a TOTP code's time step cannot be used twice, and a reuse is said and not counted", async (t) => {
  const clock = manualClock(new Date("2030-01-15T09:00:05Z"));
  const own = await ownBank(t, { clock });
  const atCode = async () => {
    const { scaRedirect } = await createPayment(own.tpp);
    const browser = own.browser();
    return { browser, page: await loggedIn(browser, scaRedirect, "alice") };
  };
  const first = await atCode();
  const second = await atCode();
  const code = aliceCodeAt(clock);
  assert.equal((await enterCode(first.browser, first.page, code)).location, "/sca/review");
  // Said as what it is, and never counted: five of them would otherwise block alice.
  let reused = second.page;
  for (let attempt = 1; attempt <= 5; attempt++) {
    reused = await enterCode(second.browser, reused, code);
    assert.equal(reused.status, 401);
    assert.equal(errorText(reused), CODE_REUSED, `attempt ${attempt}`);
  }
  assert.equal((await enterCode(second.browser, reused, aliceCodeAt(clock, 30_000))).location,
    "/sca/review", "the next time step works");
});

test("an SMS code expires after 5 minutes even while the session is active; a new one works", async (t) => {
  const clock = manualClock(new Date());
  const own = await ownBank(t, { clock });
  const { browser, code, sms } = await bobAtCode(own);
  clock.advance(4 * MINUTE);
  assert.equal((await browser.get("/sca/code")).status, 200, "activity keeps the session alive");
  clock.advance(MINUTE + 1000);
  const late = await enterCode(browser, code, sms.code);
  assert.equal(late.status, 401);
  assert.equal(errorText(late), "The code has expired. Request a new code.");
  await browser.post("/sca/code/resend", { _csrf: csrfOf(late.html) });
  const fresh = await lastSmsCode(browser, "bob");
  assert.equal((await enterCode(browser, late, fresh.code)).location, "/sca/review");
});

test("a session idle for more than 5 minutes is over", async (t) => {
  const clock = manualClock(new Date());
  const own = await ownBank(t, { clock });
  const { paymentId, scaRedirect } = await createPayment(own.tpp);
  const browser = own.browser();
  const login = await logIn(browser, await open(browser, scaRedirect), "alice", "wrong");
  clock.advance(5 * MINUTE - 1000);
  assert.equal((await browser.get("/sca/login")).status, 200, "activity keeps the session alive");
  clock.advance(5 * MINUTE + 1000);
  const ended = await browser.get("/sca/login");
  assert.equal(ended.status, 401);
  assert.match(errorText(ended), /session has ended/);
  assert.equal(backOf(ended), NOK_URI, "not a dead end: the way back to the TPP");
  assert.equal(backOf(await own.browser().get("/sca/login")), undefined,
    "a browser that opened no link has no way back to offer");
  const late = await logIn(browser, login, "alice", "alice-demo");
  assert.equal(late.status, 401);
  assert.notEqual(late.location, "/sca/code");
  assert.equal(await paymentStatus(own.tpp, paymentId), "RCVD");
});

test("the sandbox's /sandbox/totp/{login} answers the app's current code, which passes the step",
  async (t) => {
    const clock = manualClock(new Date("2030-01-15T09:00:05Z"));
    const own = await ownBank(t, { clock });
    const browser = own.browser();
    const helper = await browser.get("/sandbox/totp/alice");
    assert.equal(helper.status, 200, helper.html);
    assert.deepEqual(JSON.parse(helper.html), { code: aliceCodeAt(clock), validForSeconds: 25 });
    const { scaRedirect } = await createPayment(own.tpp);
    const page = await loggedIn(browser, scaRedirect, "alice");
    const { code } = JSON.parse(helper.html) as { code: string };
    assert.equal((await enterCode(browser, page, code)).location, "/sca/review");
    for (const login of ["bob", "finn", "nobody"]) {
      assert.equal((await browser.get(`/sandbox/totp/${login}`)).status, 404, login);
    }
  });

test("in German: attempts left, the block's length, a code just used, another PSU refused",
  async (t) => {
    const clock = manualClock(new Date("2030-01-15T09:00:05Z"));
    const own = await ownBank(t, { clock, env: { LOGIN_BLOCK_SECONDS: "120" } });
    const german = { "PSU-Accept-Language": "de-DE" };
    const atLogin = async (headers: Record<string, string> = german) => {
      const { scaRedirect } = await createPayment(own.tpp, paymentBody(), headers);
      const browser = own.browser();
      return { browser, page: await open(browser, scaRedirect) };
    };
    const named = await atLogin({ ...german, "PSU-ID": "alice" });
    const other = await logIn(named.browser, named.page, "bob", "bob-demo");
    assert.equal(errorText(other), "Diese Freigabe wurde für einen anderen Kunden der Bank "
      + "angefragt. Nur der vom Anbieter genannte Kunde kann sie abschließen.");
    const atCode = async () => {
      const { browser, page } = await atLogin();
      return { browser, page: await browser.follow(await logIn(browser, page, "alice",
        "alice-demo")) };
    };
    const [first, second] = [await atCode(), await atCode()];
    const code = aliceCodeAt(clock);
    assert.equal((await enterCode(first.browser, first.page, code)).location, "/sca/review");
    assert.equal(errorText(await enterCode(second.browser, second.page, code)), "Dieser Code "
      + "wurde gerade schon verwendet. Warten Sie auf den nächsten Code in Ihrer "
      + "Authenticator-App und geben Sie ihn ein.");
    let { browser, page } = await atLogin();
    for (let attempt = 1; attempt <= 5; attempt++) {
      page = await logIn(browser, page, "alice", `wrong-${attempt}`);
      assert.equal(errorText(page), attempt < 5
        ? "Die Anmeldedaten sind nicht korrekt. Verbleibende Versuche, bevor der Zugang für 2 "
          + `Minuten gesperrt wird: ${5 - attempt}.`
        : "Zu viele Fehlversuche: Der Zugang ist für bis zu 2 Minuten gesperrt. Bitte später "
          + "erneut versuchen.", `attempt ${attempt}`);
    }
  });
