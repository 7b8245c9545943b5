/** The bank's name and logo on the PSU pages come from the settings, not from code. */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { createPayment, open } from "../support/flows.js";
import { startBank } from "../support/start-app.js";

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>';

test("BANK_NAME and BANK_LOGO_FILE rebrand every page", async () => {
  const dir = await mkdtemp(join(tmpdir(), "psd2-logo-"));
  const file = join(dir, "logo.svg");
  await writeFile(file, LOGO);
  const bank = await startBank({ env: { BANK_NAME: "Sparkasse Musterstadt", BANK_LOGO_FILE: file } });
  try {
    const browser = bank.browser();
    const login = await open(browser, (await createPayment(bank.tpp)).scaRedirect);
    assert.match(login.html, /<p class="bank">Sparkasse Musterstadt<\/p>/);
    const css = await browser.get("/sca/static/style.css");
    assert.match(css.html, /header \.bank::before \{[^}]*url\(\/sca\/static\/logo\)/);
    assert.match(login.html, /<title>Authorise with Sparkasse Musterstadt<\/title>/);
    const logo = await browser.get("/sca/static/logo");
    assert.equal(logo.status, 200);
    assert.equal(logo.headers["content-type"], "image/svg+xml");
    assert.equal(logo.html, LOGO);
  } finally {
    await bank.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("without a logo file the bank ships a designed mark, not initials", async () => {
  const bank = await startBank({ env: { BANK_NAME: "Rheinische Demo Bank" } });
  try {
    const logo = await bank.browser().get("/sca/static/logo");
    assert.equal(logo.headers["content-type"], "image/svg+xml");
    assert.match(logo.html, /<path d="M32 9 /, "the portico's pediment");
    assert.doesNotMatch(logo.html, /<text/);
  } finally {
    await bank.close();
  }
});

test("a logo that is neither SVG nor PNG is a configuration error", () => {
  assert.throws(() => loadConfig({ BANK_LOGO_FILE: "logo.gif" }),
    (e) => e instanceof ConfigError && /BANK_LOGO_FILE must be an \.svg or \.png/.test(e.message));
});
