/**
 * Fraud signals and payee checks in a real chromium, each page audited by axe: the PSU reports a
 * payment as fraud from its dashboard after an "are you sure?"; the review of a payment to a
 * flagged payee warns before Confirm, and one to a payee no scheme reaches says that the name
 * could not be checked.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { audited, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { BOB_MAIN, confirm, createPayment, paymentBody, reachReview } from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import type { TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const FLAGGED = "NL91ABNA0417164300";
const OUTSIDE_SEPA = "TR330006100519786457841326";

/** Bob's login with password and SMS code, from the page the link or the dashboard opened. */
async function logInBob(page: Page): Promise<void> {
  await page.getByLabel("Login name").fill("bob");
  await page.getByLabel("Password").fill("bob-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByLabel("Authorization code").fill((await lastSmsCode(bank.browser(), "bob")).code);
  await page.getByRole("button", { name: "Continue" }).click();
}

const payTo = (iban: string) => paymentBody({
  debtorAccount: BOB_MAIN, creditorAccount: iban, creditorName: "Bakker Bloemen B.V.",
  instructedAmount: { currency: "EUR", amount: "3.00" },
});

test("bob reports a payment as fraud from his dashboard, after an 'are you sure?'", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, payTo("DE89370400440532013000"));
  const http = bank.browser();
  await confirm(http, await reachReview(http, scaRedirect, "bob"));
  const { page, context, problems } = await chromium.context();
  await page.goto(`${bank.authUrl}/dashboard`);
  await logInBob(page);
  await audited(page, "fraud-0-dashboard-en");
  const report = page.locator(`form:has(input[value="${paymentId}"]) button`);
  assert.equal(await report.innerText(), "Report this payment as fraud");
  await report.click();
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(),
    "Report this payment as fraud?");
  await audited(page, "fraud-1-report-confirm-en");
  await page.getByRole("button", { name: "Yes, report it as fraud" }).click();
  assert.match(await page.getByRole("status").innerText(), /Your report has been recorded/);
  await audited(page, "fraud-2-reported-en");
  assertRefused(runOperator(bank.app.config.dataDir, ["payment", "report-fraud", paymentId],
    bank.app.config.databaseUrl), /was reported as fraud already/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the review warns of a flagged payee, and says when no scheme could check the name",
  async () => {
    const file = join(bank.app.config.dataDir, "shared.json");
    await writeFile(file, JSON.stringify({ format: "psd2-bank/fraud-signals", version: 1,
      provider: "Other Bank", identifiers: [{ type: "IBAN", value: FLAGGED }] }));
    jsonOf(runOperator(bank.app.config.dataDir, ["fraud", "import", file, "--json"],
      bank.app.config.databaseUrl));
    const { page, context, problems } = await chromium.context();
    for (const [iban, name] of [[FLAGGED, "fraud-3-review-flagged-en"],
      [OUTSIDE_SEPA, "fraud-4-review-not-possible-en"]] as const) {
      const { scaRedirect } = await createPayment(bank.tpp, payTo(iban));
      await page.goto(scaRedirect);
      await logInBob(page);
      await page.waitForURL(/\/sca\/review/);
      const alert = page.locator("dt:text-is('Fraud warning') + dd [role=alert]");
      if (iban === FLAGGED) {
        assert.match(await alert.innerText(), /^Customers of this bank have reported payments/);
      } else {
        assert.equal(await alert.count(), 0);
        assert.match(await page.locator("dt:text-is('Name check') + dd").innerText(),
          /could not check the name/);
      }
      await audited(page, name);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
