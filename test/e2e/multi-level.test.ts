/**
 * Multi-level SCA in a real chromium: a company user's dashboard lists the payment waiting for
 * their signature, the review says how many signatures it has, the result that one more is
 * needed, and a user who may only see the account gets the review with the reason and no
 * Confirm. Every page passes the same axe audit as every PSU page.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeViolations, holdTpp, type RealBrowser } from "../support/chromium.js";
import { chromiumAndBank } from "../support/browser-bank.js";
import { CREATION_HEADERS, ibanOf, linkOf, paymentBody } from "../support/flows.js";
import { demoPsu, lastSmsCode, nextTotp } from "../support/psu.js";
import type { TestBank } from "../support/start-app.js";

let bank!: TestBank;
let chromium!: RealBrowser;
await chromiumAndBank((started) => ({ bank, chromium } = started));

const SCT = "/psd2/v1/payments/sepa-credit-transfers";

async function audited(page: Page, name: string): Promise<string> {
  assert.deepEqual(await axeViolations(page), [], `axe violations on ${name}`);
  return page.locator("main").innerText();
}

/** A Nordwind payment and the link of one user's authorisation, started by the TPP. */
async function nordwindLink(): Promise<{ id: string; link: () => Promise<string> }> {
  const res = await bank.tpp.post(SCT, paymentBody({ debtorAccount: ibanOf("8500000001") }),
    { ...CREATION_HEADERS, "PSU-Corporate-ID": "nordwind" });
  const start = linkOf(bank.tpp, res.body._links.startAuthorisation);
  return {
    id: res.body.paymentId,
    link: async () => linkOf(bank.tpp, (await bank.tpp.post(start, {}, CREATION_HEADERS))
      .body._links.scaRedirect),
  };
}

async function codeOf(login: string): Promise<string> {
  const { device } = demoPsu(login);
  return device.kind === "totp" ? nextTotp(device.secret, bank.authUrl)
    : (await lastSmsCode(bank.browser(), login)).code;
}

/** Logs in on the page (the link's, or the dashboard's) and enters the code. */
async function logIn(page: Page, login: string): Promise<void> {
  await page.getByLabel("Login name").fill(login);
  await page.getByLabel("Password").fill(`${login}-demo`);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByLabel("Authorization code").fill(await codeOf(login));
  await page.getByRole("button", { name: "Continue" }).click();
}

test("karl sees the payment waiting on his dashboard, signs it first; lea cannot sign",
  async () => {
    const { id, link } = await nordwindLink();
    const { page } = await chromium.context();
    holdTpp(page);
    await page.goto(`${bank.authUrl}/dashboard`);
    await logIn(page, "karl");
    await page.waitForURL(/\/dashboard$/);
    assert.match(await audited(page, "dashboard"), /Waiting for your signature[\s\S]*0 of 2/);

    await page.goto(await link());
    await logIn(page, "karl");
    await page.waitForURL(/\/sca\/review/);
    assert.match(await audited(page, "review"), /Signatures\s+0 of 2/);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(/\/sca\/done/);
    assert.match(await audited(page, "result"), /once everyone who must sign has signed/);
    const status = await bank.tpp.get(`${SCT}/${id}/status`);
    assert.equal(status.body.transactionStatus, "PATC");

    const viewer = (await chromium.context()).page;
    await viewer.goto(await link());
    await logIn(viewer, "lea");
    await viewer.waitForURL(/\/sca\/review/);
    assert.match(await audited(viewer, "refused review"), /You may not sign for this account/);
    assert.equal(await viewer.getByRole("button", { name: "Confirm" }).count(), 0);
  });
