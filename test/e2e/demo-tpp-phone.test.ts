/**
 * The demo TPP's budgeting page on a phone, in a real chromium: nothing wider than the screen,
 * the header's title and links each on a line of their own rather than squeezed side by side.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { startDemoTpp, type DemoTpp } from "../../src/demo-tpp/server.js";
import { launchChromium, requireChromium, screenshot, type RealBrowser } from "../support/chromium.js";
import { ALICE_MAIN, CAROL_MAIN, confirm, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

await requireChromium();
let chromium!: RealBrowser;
let bank!: TestBank;
let demo!: DemoTpp;
before(async () => {
  chromium = await launchChromium();
  bank = await startBank();
  const certs = bank.certs;
  const [ca, cert, key] = await Promise.all([certs.caCert, certs.tppCert, certs.tppKey].map((f) => readFile(f)));
  demo = await startDemoTpp({
    apiUrl: bank.apiUrl, identity: { ca: ca!, cert: cert!, key: key! }, host: "127.0.0.1", port: 0,
    debtorIban: ALICE_MAIN, merchantIban: CAROL_MAIN, merchantName: "Carol Weber",
  });
});
after(async () => { await Promise.all([chromium?.close(), demo?.close(), bank?.close()]); });

interface Box { left: number; right: number }

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

test("the connected budget page fits a phone: no sideways scrolling, the header not cramped",
  async () => {
    const connect = await fetch(`${demo.url}/budget/connect`, { method: "POST", redirect: "manual" });
    const browser = bank.browser();
    const done = await confirm(browser,
      await reachReview(browser, connect.headers.get("location") ?? "", "alice"), [ALICE_MAIN]);
    const { page, context } = await chromium.context(PHONE);
    await page.goto(done.location ?? "");
    await screenshot(page, "demo-tpp-budget-phone");
    const layout = await page.evaluate(`(() => {
      const box = (selector) => document.querySelector(selector).getBoundingClientRect();
      const beyond = [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5);
      return { width: document.documentElement.scrollWidth, screen: window.innerWidth,
        beyond: beyond.map((e) => e.tagName + " " + e.textContent.slice(0, 30)),
        title: box("header h1"), nav: box("header nav"),
        linkRows: new Set([...document.querySelectorAll("header nav a")]
          .map((a) => a.getBoundingClientRect().top)).size };
    })()`) as { width: number; screen: number; beyond: string[]; title: Box; nav: Box;
      linkRows: number };
    await context.close();
    assert.ok(layout.width <= layout.screen, `the page is ${layout.width} px wide on ${layout.screen}`);
    assert.deepEqual(layout.beyond, [], "nothing reaches beyond the screen's right edge");
    assert.equal(layout.linkRows, 1, "the header's links on one line");
    const side = layout.nav.left >= layout.title.right;
    assert.ok(!side || layout.nav.left - layout.title.right >= 16,
      `title and links squeezed together: ${JSON.stringify(layout)}`);
  });
