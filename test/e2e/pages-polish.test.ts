/**
 * Issue 36's polish, in a real chromium on a desktop and a phone, in English and German: an
 * invalid link's page is a whole page with a heading, the reason and a way on; no link in the
 * browser's default blue, buttons in the page's font; a database outage behind a PSU page reads
 * as the bank's own 503 page in the PSU's language, never the framework's JSON. axe at 0.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { axeViolations, screenshot, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { postgresUnavailable, setPostgresReachable } from "../support/engines.js";
import { createPayment, paymentBody } from "../support/flows.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
};
const DEFAULT_BLUE = "rgb(0, 0, 238)";

async function audited(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  assert.deepEqual(await axeViolations(page), [], `axe violations on ${name}`);
}

/** The colours of every link, and whether each button uses the body's font. */
const looks = (page: Page) => page.evaluate(`(() => {
  const body = getComputedStyle(document.body).fontFamily;
  return {
    links: [...document.querySelectorAll("a")].map((a) => getComputedStyle(a).color),
    buttons: [...document.querySelectorAll("button")]
      .map((b) => getComputedStyle(b).fontFamily === body),
  };
})()`) as Promise<{ links: string[]; buttons: boolean[] }>;

for (const [lang, options, heading, name] of [
  ["en", {}, "This request cannot go on", "error-link-invalid-en"],
  ["de", PHONE, "Dieser Auftrag kann nicht fortgesetzt werden", "error-link-invalid-phone-de"],
] as const) {
  test(`an invalid link in ${lang}${options === PHONE ? " on a phone" : ""}: a whole page with `
    + "a heading, the reason and a way on", async () => {
    const { page, context } = await chromium.context({ ...options, locale: lang });
    const answer = await page.goto(`${bank.authUrl}/sca/payment?token=not-a-token&lang=${lang}`);
    assert.equal(answer?.status(), 400);
    assert.equal(await page.locator("h1").innerText(), heading);
    assert.match(await page.getByRole("alert").innerText(), lang === "en"
      ? /This link is not valid or has expired\./ : /nicht gültig|abgelaufen/);
    assert.equal(await page.locator("main a.button").count(), 1, "a way on");
    await audited(page, name);
    await context.close();
  });
}

test("no link in the browser's default blue (site root, 404, login) and buttons in the page's "
  + "font", async () => {
  const { page, context } = await chromium.context();
  const { scaRedirect } = await createPayment(bank.tpp, paymentBody());
  for (const url of [`${bank.authUrl}/`, `${bank.authUrl}/no-such-page`, scaRedirect]) {
    await page.goto(url);
    const { links, buttons } = await looks(page);
    assert.ok(links.length > 0, url);
    assert.deepEqual(links.filter((color) => color === DEFAULT_BLUE), [], url);
    assert.ok(buttons.every(Boolean), `buttons in the body's font on ${url}`);
  }
  await audited(page, "site-404-en");
  await context.close();
});

test("a database outage behind a PSU page: the bank's 503 page in German, try again, never JSON",
  { skip: postgresUnavailable ?? false }, async (t) => {
    const own = await startOwnBank(t, { engine: "postgres" });
    const { scaRedirect } = await createPayment(own.tpp, paymentBody(),
      { "PSU-Accept-Language": "de-DE" });
    const { page, context } = await chromium.context({ ...PHONE, locale: "de-DE" });
    await setPostgresReachable(own.database.databaseUrl, false);
    const answer = await page.goto(scaRedirect);
    assert.equal(answer?.status(), 503);
    assert.match(String(answer?.headers()["content-type"]), /^text\/html/);
    assert.equal(await page.locator("h1").innerText(), "Vorübergehend nicht erreichbar");
    assert.match(await page.getByRole("alert").innerText(), /Nichts, was Sie bestätigt haben/);
    await audited(page, "error-unavailable-phone-de");
    await setPostgresReachable(own.database.databaseUrl, true);
    await page.getByRole("link", { name: "Erneut versuchen" }).click();
    assert.equal(await page.locator("#about").innerText(),
      "12,50\u00a0€ an Merchant GmbH zahlen, beauftragt von Demo TPP");
    await context.close();
  });
