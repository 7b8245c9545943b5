/**
 * The demo PSUs' second factor for tests: TOTP codes that never reuse a time step (the bank
 * refuses a spent step), and SMS codes read from the sandbox outbox.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO_PSUS } from "../../src/ledger/demo-data.js";
import { totpAt } from "../../src/lib/totp.js";
import type { BrowserClient } from "./browser.js";

const lastStep = new Map<string, number>();

/**
 * A valid code for a step this process has not used before at this bank (the bank accepts ±1
 * step). The memory is per bank: the demo secrets are the same in every bank a test starts, and a
 * step spent at one bank is still good at another.
 */
export async function nextTotp(secret: string, bankUrl: string, now: () => number = Date.now): Promise<string> {
  const key = `${bankUrl} ${secret}`;
  for (;;) {
    const current = Math.floor(now() / 30_000);
    const step = Math.max(current - 1, (lastStep.get(key) ?? -Infinity) + 1);
    if (step <= current + 1) {
      lastStep.set(key, step);
      return totpAt(secret, step * 30_000 + 1);
    }
    await sleep(1000);
  }
}

export function demoPsu(login: string) {
  const psu = DEMO_PSUS.find((p) => p.login === login);
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
  const device = DEMO_PSUS.find((p) => p.login === login)?.device;
  return device?.kind === "totp" ? nextTotp(device.secret, browser.authUrl, now) : (await lastSmsCode(browser, login)).code;
}
