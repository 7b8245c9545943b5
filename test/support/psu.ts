/**
 * The demo PSUs' second factor for tests: TOTP codes that never reuse a time step (the bank
 * refuses a spent step), and SMS codes read from the sandbox outbox.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ALL_DEMO_PSUS } from "../../src/ledger/demo-data.js";
import { totpAt } from "../../src/lib/totp.js";
import { bankClockAt } from "./bank-clock.js";
import assert from "node:assert/strict";
import { csrfOf, type BrowserClient, type Page } from "./browser.js";

const lastStep = new Map<string, number>();

/**
 * A valid code for a step this process has not used before at this bank (the bank accepts ±1
 * step). The memory is per bank: the demo secrets are the same in every bank a test starts, and a
 * step spent at one bank is still good at another. When a PSU has spent its three steps of the
 * window, a bank on a skipping clock moves on to the next window; any other bank is waited for.
 */
export async function nextTotp(secret: string, bankUrl: string, now?: () => number): Promise<string> {
  const key = `${bankUrl} ${secret}`;
  const skipping = now ? undefined : bankClockAt(bankUrl);
  const time = now ?? (skipping ? () => skipping.now().getTime() : Date.now);
  for (;;) {
    const at = time();
    const current = Math.floor(at / 30_000);
    // The previous step is good only until this window ends: not when it ends within 5 s, or a
    // slow request arrives when the bank has moved on by two steps.
    const earliest = 30_000 - (at % 30_000) > 5_000 ? current - 1 : current;
    const step = Math.max(earliest, (lastStep.get(key) ?? -Infinity) + 1);
    if (step <= current + 1) {
      lastStep.set(key, step);
      return totpAt(secret, step * 30_000 + 1);
    }
    if (skipping) skipping.skip(30_000 - (at % 30_000) + 1);
    else await sleep(1000);
  }
}

export function demoPsu(login: string) {
  const psu = ALL_DEMO_PSUS.find((p) => p.login === login);
  if (!psu) throw new Error(`no demo PSU ${login}`);
  return psu;
}

/** The code in the newest SMS a PSU "received" (sandbox outbox). */
export async function lastSmsCode(browser: BrowserClient, login: string): Promise<{ code: string; text: string }> {
  const page = await browser.get(`/sandbox/sms/${login}`);
  const [newest] = JSON.parse(page.html) as { text: string }[];
  const code = /\b(\d{6})\b/.exec(newest?.text ?? "")?.[1];
  if (!code || !newest) throw new Error(`no SMS code for ${login}: ${page.html}`);
  return { code, text: newest.text };
}

/** The second factor of a PSU: a demo PSU's device, or the SMS outbox for PSUs enrolled with SMS. */
export async function codeFor(browser: BrowserClient, login: string, now?: () => number): Promise<string> {
  const device = ALL_DEMO_PSUS.find((p) => p.login === login)?.device;
  return device?.kind === "totp" ? nextTotp(device.secret, browser.authUrl, now) : (await lastSmsCode(browser, login)).code;
}

const DASHBOARD_COOKIE = "__Host-psd2-dashboard";

/** The Set-Cookie line of the dashboard's session cookie, if the answer sets it. */
export const cookieOf = (page: Page) => ((page.headers["set-cookie"] ?? []) as string[])
  .find((line) => line.startsWith(`${DASHBOARD_COOKIE}=`));

/** Logs in on the dashboard; the overview page and the session's cookie value. */
export async function logInDashboard(browser: BrowserClient, login: string, now?: () => number) {
  const start = await browser.get("/dashboard");
  assert.equal(start.status, 200, start.html);
  const code = await browser.follow(await browser.post("/dashboard/login", {
    _csrf: csrfOf(start.html), login, password: `${login}-demo` }));
  assert.match(code.html, /name="code"/, code.html);
  const done = await browser.post("/dashboard/code",
    { _csrf: csrfOf(code.html), code: await codeFor(browser, login, now) });
  assert.equal(done.status, 303, done.html);
  const page = await browser.follow(done);
  assert.match(page.html, /action="\/dashboard\/logout"/, page.html);
  return Object.assign(page, { secret: /^[^=]+=([^;]*)/.exec(cookieOf(done) ?? "")?.[1] ?? "" });
}

const LEFT = "Attempts left before access is blocked for";
/** The refusal of a wrong password, with the failures left before a block. */
export const wrongLogin = (left: number, minutes = 15) =>
  `The login details are not correct. ${LEFT} ${minutes} minutes: ${left}.`;
/** The refusal of a wrong code, with the failures left before a block. */
export const wrongCode = (left: number, minutes = 15) =>
  `The code is not correct. ${LEFT} ${minutes} minutes: ${left}.`;
/** Either refusal, whatever the count (a shared bank's PSUs carry earlier tests' failures). */
export const WRONG_LOGIN = new RegExp(`^The login details are not correct\\. ${LEFT} \\d+ minutes: \\d+\\.$`);
export const WRONG_CODE = new RegExp(`^The code is not correct\\. ${LEFT} \\d+ minutes: \\d+\\.$`);
