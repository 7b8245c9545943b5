/**
 * The bank app of the decoupled approach in a real chromium on a phone-sized screen: activated
 * from the dashboard with both factors and an app PIN, it shows a TPP's request within two
 * seconds without a reload, confirms it with the PIN (a wrong PIN counts as a failed attempt),
 * rejects another, and passes the same axe audit as every PSU page. The TPP sees each outcome.
 * A request reads as a bank's app shows one (issue 36): what it is about in one line, the amount
 * as the headline, the payee with IBAN and the name check, the purpose, the account debited and
 * what it holds, the time left counting down; after Confirm, what became of the payment. The app
 * is installable: a manifest and the bank's own icons, nothing from a third party.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import {
  audited, launchChromium, PHONE, type RealBrowser, requireChromium,
} from "../support/chromium.js";
import { groupedIban } from "../../src/sca/format.js";
import {
  BOB_MAIN, consentBody, EXTERNAL_IBAN, linkOf, paymentBody,
} from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

await requireChromium();
let chromium: RealBrowser | undefined;
let bank!: TestBank;
before(async () => {
  chromium = await launchChromium();
  bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
});
after(async () => { await Promise.all([chromium?.close(), bank?.close()]); });

const DECOUPLED = {
  "PSU-IP-Address": "192.0.2.1", "TPP-Decoupled-Preferred": "true", "PSU-ID": "bob",
};

/** Bob activates the app on this phone: the dashboard's login, then a new app PIN. */
async function activate(page: Page, pin: string): Promise<void> {
  await page.goto(`${bank.authUrl}/app`);
  await audited(page, "app-1-not-activated-phone-en");
  await page.getByRole("link", { name: "Log in to activate" }).click();
  await page.getByLabel("Login name").fill("bob");
  await page.getByLabel("Password").fill("bob-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByLabel("Authorization code").fill((await lastSmsCode(bank.browser(), "bob")).code);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("New app PIN").fill(pin);
  await page.getByRole("button", { name: "Activate on this device" }).click();
  await page.waitForURL(/\/app\?done=activated$/);
}

/** The rows of the request's details, "Payee" → "Stadtwerke". */
const detailsOf = (page: Page) => page.evaluate(`Object.fromEntries([...document.querySelectorAll(
  ".card dt")].map((dt) => [dt.textContent, dt.nextElementSibling.innerText]))`) as
  Promise<Record<string, string>>;

/** What chromium itself makes of the app's manifest: its errors, and why it is not installable. */
async function installability(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const manifest = await cdp.send("Page.getAppManifest") as { errors: unknown[]; data?: string };
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  return { errors: manifest.errors, data: JSON.parse(manifest.data ?? "{}"),
    // A test's browser context is incognito, which no manifest can change.
    installable: installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito") };
}

/**
 * What "within two seconds" means on a loaded machine, where a 1 s timer may fire late: the app's
 * timers wait at most a second, and the first poll sent after a request was made brings it
 * (counted from the browser's requests: polls of the waiting list, then the reload).
 */
async function watchPolls(page: Page) {
  await page.addInitScript(`{ const later = window.setTimeout; window.timerDelays = [];
    window.setTimeout = (f, ms, ...rest) => { window.timerDelays.push(ms); return later(f, ms, ...rest); }; }`);
  const seen: ("poll" | "reload")[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/app/pending")) seen.push("poll");
    else if (request.isNavigationRequest()) seen.push("reload");
  });
  return {
    since: () => seen.length,
    async shownFromOnePoll(mark: number, shown: RegExp) {
      await page.getByText(shown).waitFor();
      const after = seen.slice(mark);
      const reload = after.indexOf("reload");
      assert.ok(reload === 0 || reload === 1, `one poll, then the reload: ${after.join(", ")}`);
      const delays = await page.evaluate("window.timerDelays") as number[];
      assert.ok(delays.every((ms) => ms <= 1000), `the app's timers: ${delays.join(", ")} ms`);
    },
  };
}

async function scaStatusOf(body: any): Promise<string> {
  return (await bank.tpp.get(linkOf(bank.tpp, body._links.scaStatus))).body.scaStatus;
}

test("bob's app shows a payment within 2 s, refuses a wrong PIN, confirms with the right one",
  async () => {
    const { page, context, problems } = await chromium!.context(PHONE);
    const polls = await watchPolls(page);
    await activate(page, "2468");
    assert.match(await page.locator("main").innerText(), /No requests are waiting/);
    const beforePayment = polls.since();
    const created = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers",
      paymentBody({ debtorAccount: BOB_MAIN, creditorName: "Stadtwerke" }), DECOUPLED);
    await polls.shownFromOnePoll(beforePayment, /€12\.50 to Stadtwerke/);
    assert.equal(await page.locator(".card .about strong").innerText(),
      "Pay €12.50 to Stadtwerke, asked by Demo TPP");
    assert.equal(await page.locator(".card .headline").innerText(), "€12.50");
    const details = await detailsOf(page);
    assert.equal(details.Payee, "Stadtwerke");
    assert.equal(details["Payee IBAN"], groupedIban(EXTERNAL_IBAN));
    assert.match(details["Name check"] ?? "", /./);
    assert.equal(details.Purpose, "Order 42");
    assert.equal(details["From account"], "Girokonto\nDE51 5001 0000 2000 0000 01");
    assert.match(details["Available now"] ?? "", /^€[\d,]+\.\d\d$/);
    // The time left counts down, on the app's own script (the page allows no inline script).
    const countdown = page.locator(".countdown");
    const first = await countdown.innerText();
    assert.match(first, /^\d+:\d\d$/);
    await countdown.filter({ hasNotText: first }).waitFor();
    await audited(page, "app-2-request-phone-en");
    await page.getByLabel("App PIN").fill("1111");
    await page.getByRole("button", { name: "Confirm" }).click();
    assert.match(await page.locator("#form-error").innerText(), /PIN is not correct.*: 4\./);
    await page.getByLabel("App PIN").fill("2468");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(/done=approved/);
    assert.equal(await page.locator("#outcome").innerText(), "Done\nThe payment has been made.");
    await audited(page, "app-3-outcome-phone-en");
    assert.equal(await scaStatusOf(created.body), "finalised");
    const status = await bank.tpp.get(
      `/psd2/v1/payments/sepa-credit-transfers/${created.body.paymentId}/status`);
    assert.equal(status.body.transactionStatus, "ACSC");

    const access = { accounts: [BOB_MAIN], balances: [], transactions: [] };
    const beforeConsent = polls.since();
    const consent = await bank.tpp.post("/psd2/v1/consents", consentBody({ access }), DECOUPLED);
    await polls.shownFromOnePoll(beforeConsent, /access to information about your accounts/);
    await page.getByRole("button", { name: "Reject" }).click();
    await page.waitForURL(/done=rejected/);
    assert.equal(await scaStatusOf(consent.body), "failed");
    assert.deepEqual(problems, []);
    await context.close();
  });

test("the app is installable: a manifest, the bank's own icons, full-screen on a phone",
  async () => {
    const { page, context, problems } = await chromium!.context(PHONE);
    await page.goto(`${bank.authUrl}/app`);
    const { errors, data, installable } = await installability(context, page);
    assert.deepEqual(errors, []);
    assert.deepEqual(installable, [], "chromium finds nothing against installing it");
    assert.equal(data.display, "standalone");
    assert.equal(data.start_url, "/app");
    for (const { src, sizes } of data.icons as { src: string; sizes: string }[]) {
      const icon = await page.request.get(new URL(src, bank.authUrl).href);
      assert.equal(icon.headers()["content-type"], "image/png");
      const png = await icon.body();
      assert.equal(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, sizes);
    }
    assert.deepEqual(problems, [], "no request left the bank's origin, nothing the CSP refused");
    await context.close();
  });
