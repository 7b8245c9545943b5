/**
 * A real browser for the PSU pages: Debian's chromium driven by playwright-core, headless, with
 * a fresh profile and no network beyond the bank on localhost. The TPP's redirect targets are
 * answered by a stand-in page so the return to the TPP can be seen; every other request is
 * refused and recorded, as is every Content-Security-Policy violation and console error.
 */
import assert from "node:assert/strict";
import { constants } from "node:fs";
import { access, mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  chromium, type BrowserContext, type BrowserContextOptions, type Page, type Route,
} from "playwright-core";

/**
 * Each context's way back to the TPP: whether it is held, and every address of the TPP's the
 * page went to on its own, with the waiters for one.
 */
interface WayBack { held: boolean; visits: Visit[]; waiters: Array<() => void> }
interface Visit { url: string; shown: boolean }
const wayBack = new WeakMap<BrowserContext, WayBack>();

/**
 * Holds the way back to the TPP, so the result page, which forwards itself to the TPP after a
 * few seconds, stays in view while a test looks at it; leaveForTpp lets it go. While held, the
 * TPP's address answers 204 No Content, which a browser takes as "stay on this page": the page's
 * own forward is seen and recorded, and the page stays readable. (An answer kept pending instead
 * left a navigation under way, and playwright waits for one before it reads or evaluates: a slow
 * audit then hung the test.)
 */
export function holdTpp(page: Page): void {
  wayOf(page.context()).held = true;
}

function wayOf(context: BrowserContext): WayBack {
  let way = wayBack.get(context);
  if (!way) wayBack.set(context, way = { held: false, visits: [], waiters: [] });
  return way;
}

/** The page's own visit to `url`, once it has asked for it; playwright's 30 s at most. */
async function visitTo(context: BrowserContext, url: string): Promise<Visit> {
  const way = wayOf(context);
  const wanted = new URL(url).href;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const visit = way.visits.find((seen) => seen.url === wanted);
    if (visit) return visit;
    const left = deadline - Date.now();
    assert.ok(left > 0, `the page did not go to ${wanted} on its own`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      way.waiters.push(() => { clearTimeout(timer); resolve(); });
    });
  }
}

/** Debian's package; CHROMIUM_PATH names another Chromium or Chrome binary. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Where screenshot() saves: test-results/, which git ignores, so `npm test` never rewrites the
 * committed screenshots docs/psu-pages.md shows; `npm run screenshots` sets SCREENSHOTS_DIR to
 * refresh them.
 */
export function screenshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SCREENSHOTS_DIR
    ?? fileURLToPath(new URL("../../../test-results/screenshots/", import.meta.url));
}
const TPP_ORIGIN = "https://tpp.example";
const RESULT_PAGE = /\/sca\/done$/;
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export interface AxeViolation { id: string; impact: string | null; help: string; targets: string[] }

export interface TestContext { page: Page; context: BrowserContext; problems: string[] }

export interface RealBrowser {
  /** A fresh context (no cookies); `problems` collects blocked requests and CSP/console errors. */
  context(options?: BrowserContextOptions): Promise<TestContext>;
  close(): Promise<void>;
}

/**
 * Checked before anything starts, so a machine without chromium gets this one message at once
 * instead of a timeout per test.
 */
export async function requireChromium(): Promise<void> {
  try {
    await access(CHROMIUM, constants.X_OK);
  } catch {
    throw new Error(`The browser tests need chromium at ${CHROMIUM}, and there is none. Install `
      + "it (Debian/Ubuntu: apt-get install chromium, as .ci/run does) or set CHROMIUM_PATH to a "
      + "Chromium or Chrome binary.");
  }
}

/** playwright's launch() gives chromium a fresh temporary --user-data-dir of its own each time. */
export async function launchChromium(): Promise<RealBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  return {
    async context(options = {}) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, ...options });
      const problems: string[] = [];
      await context.route("**/*", async (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return route.continue();
        if (url.origin === TPP_ORIGIN) return answerAsTpp(route, wayOf(context));
        problems.push(`blocked request ${url.href}`);
        return route.abort();
      });
      const page = await context.newPage();
      // The document's own status (a 401 after a wrong password) is the page's business; any
      // failing stylesheet or image is not.
      page.on("response", (response) => {
        const type = response.request().resourceType();
        if (type !== "document" && response.status() >= 400) {
          problems.push(`${response.status()} ${response.url()}`);
        }
      });
      page.on("console", (message) => {
        const text = message.text();
        if (message.type() === "error" && !text.startsWith("Failed to load resource")) {
          problems.push(`console: ${text}`);
        }
      });
      return { page, context, problems };
    },
    async close() {
      await browser.close();
    },
  };
}

let axeSource: Promise<string> | undefined;

/** Runs axe-core in the page against WCAG 2.2 A/AA; the source is evaluated over DevTools, so
 * the page's CSP (no script at all) stays in force for the page itself. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(await axeSource);
  const only = JSON.stringify({ type: "tag", values: WCAG_TAGS });
  // The result page forwards itself to the TPP after at most 3 s (the spec's redirect, issue 34),
  // which WCAG 2.2.1 counts as a time limit; docs/psu-pages.md says why it is kept.
  const rules = RESULT_PAGE.test(page.url()) ? JSON.stringify({ "meta-refresh": { enabled: false } }) : "{}";
  return page.evaluate(`axe.run(document, { runOnly: ${only}, rules: ${rules} })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")) })))`) as Promise<AxeViolation[]>;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = screenshotDir();
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** A page step of a flow: its screenshot saved, and no axe violation on it. */
export async function audited(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  assert.deepEqual(await axeViolations(page), [], `axe violations on ${name}`);
}

/** A phone's screen, as the page tests view the pages on one. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
};

/**
 * After Confirm or Cancel: the bank's result page, what it says became of the resource, its
 * button back to the TPP as the fallback (`back` its label in the page's language), then the
 * page's own way to the TPP's address, with no click. Call holdTpp before the decision, or the
 * page may have gone on before its outcome is read.
 */
export async function leaveForTpp(page: Page, back: RegExp, tppUri: string): Promise<string> {
  await page.waitForURL(/\/sca\/done$/);
  const outcome = await page.locator("#outcome").innerText();
  assert.equal(await page.getByRole("link", { name: back }).getAttribute("href"), tppUri);
  wayOf(page.context()).held = false;
  const visit = await visitTo(page.context(), tppUri);
  if (visit.shown) await page.waitForURL(tppUri);
  return outcome;
}

/** The stand-in TPP: its page, or 204 while the way back is held; each visit recorded. */
async function answerAsTpp(route: Route, way: WayBack): Promise<void> {
  const url = new URL(route.request().url());
  const shown = !way.held;
  way.visits.push({ url: url.href, shown });
  for (const wake of way.waiters.splice(0)) wake();
  if (!shown) return route.fulfill({ status: 204 });
  const body = `<!doctype html><html lang="en"><title>TPP</title>
<h1>TPP ${url.pathname}</h1>`;
  return route.fulfill({ contentType: "text/html", body });
}
