/**
 * The public statistics page in a real chromium: on a desktop in English and on a phone in
 * German, with figures in it, a chart per quarter drawn without script, nothing the CSP refuses,
 * no console error, axe at 0.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { audited, PHONE, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { CREATION_HEADERS, paymentBody } from "../support/flows.js";
import type { TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));


for (const [lang, options, heading, name] of [
  ["en", {}, "How available and fast our interface for providers is", "statistics-en"],
  ["de", PHONE, "Wie verfügbar und schnell unsere Schnittstelle für Drittanbieter ist",
    "statistics-phone-de"],
] as const) {
  test(`the statistics in ${lang}${options === PHONE ? " on a phone" : ""}: four quarters, a `
    + "chart drawn without script, axe at 0", async () => {
    const created = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(),
      CREATION_HEADERS);
    assert.ok(created.status < 300, created.text);
    await bank.app.flushStatistics();
    const { page, context, problems } = await chromium.context({ ...options, locale: lang });
    const answer = await page.goto(`${bank.authUrl}/statistics?lang=${lang}`);
    assert.equal(answer?.status(), 200);
    assert.equal(await page.locator("h1").innerText(), heading);
    assert.equal(await page.locator("section h2").count(), 4);
    const chart = page.locator("svg.chart").first();
    assert.ok(await chart.isVisible());
    const overflow = await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth") as number;
    assert.equal(overflow, 0, "the page, chart and table included, fits the screen's width");
    assert.equal(await chart.locator("rect").count(), 4, "a bar per category");
    assert.equal(await page.locator("script").count(), 0);
    await audited(page, name);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
