/**
 * The bank app over HTTP (decoupled approach): activation only after the dashboard's two factors,
 * CSRF on every post, a wrong PIN counted with the PSU's failures on every channel until the
 * one block, and deactivation from the dashboard. The app in a real browser: e2e/app.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { csrfOf, errorText, type BrowserClient } from "../support/browser.js";
import { ALICE_MAIN, paymentBody } from "../support/flows.js";
import { logInDashboard } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
});
after(async () => { await bank.close(); });

async function activatedApp(login: string, pin: string): Promise<BrowserClient> {
  const browser = bank.browser();
  const overview = await logInDashboard(browser, login);
  const activated = await browser.post("/dashboard/app", { _csrf: csrfOf(overview.html), pin });
  assert.equal(activated.status, 303, activated.html);
  assert.equal(activated.location, "/app?done=activated");
  return browser;
}

async function decoupledPayment(login: string) {
  const res = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers",
    paymentBody({ debtorAccount: ALICE_MAIN }),
    { "PSU-IP-Address": "192.0.2.1", "TPP-Decoupled-Preferred": "true", "PSU-ID": login });
  return res.body.paymentId as string;
}

const authorisationOf = (html: string) =>
  /name="authorisation" value="([^"]+)"/.exec(html)?.[1] ?? "";

test("without activation the app only says how to activate; a post without CSRF is refused",
  async () => {
    const browser = bank.browser();
    const page = await browser.get("/app");
    assert.match(page.html, /not activated/);
    assert.doesNotMatch(page.html, /<script/);
    assert.equal((await browser.post("/app/approve", { authorisation: "x", pin: "1234" })).status,
      403);
    assert.equal((await browser.get("/app/pending")).status, 401);
    const short = await logInDashboard(browser, "carol");
    const refused = await browser.post("/dashboard/app", { _csrf: csrfOf(short.html), pin: "12" });
    assert.equal(refused.status, 400);
    assert.match(errorText(refused), /4 to 8 digits/);
  });

test("a wrong PIN counts with the failures on the pages: together they block alice", async () => {
  const app = await activatedApp("alice", "8642");
  await decoupledPayment("alice");
  const page = await app.get("/app");
  assert.match(page.headers["content-security-policy"] as string, /script-src 'self'/);
  const id = authorisationOf(page.html);
  const wrong = await app.post("/app/approve", { _csrf: csrfOf(page.html), authorisation: id,
    pin: "1111" });
  assert.match(errorText(wrong), /PIN is not correct.*: 4\./);
  const other = bank.browser();
  for (let i = 0; i < 3; i += 1) {
    const start = await other.get("/dashboard");
    await other.post("/dashboard/login",
      { _csrf: csrfOf(start.html), login: "alice", password: "wrong" });
  }
  const blocked = await app.post("/app/approve", { _csrf: csrfOf(page.html), authorisation: id,
    pin: "1111" });
  assert.match(errorText(blocked), /blocked/);
  const right = await app.post("/app/approve", { _csrf: csrfOf(page.html), authorisation: id,
    pin: "8642" });
  assert.match(errorText(right), /blocked/, "the block holds for the right PIN too");
});

test("deactivated on the dashboard, the app is no longer bound; another PSU's app is refused",
  async () => {
    const app = await activatedApp("bob", "1357");
    const dashboard = bank.browser();
    const overview = await logInDashboard(dashboard, "bob");
    const appId = /name="app" value="([^"]+)"/.exec(overview.html)?.[1] ?? "";
    const intruder = bank.browser();
    const carol = await logInDashboard(intruder, "carol");
    const stolen = await intruder.post("/dashboard/app/revoke",
      { _csrf: csrfOf(carol.html), app: appId });
    assert.equal(stolen.status, 400);
    assert.doesNotMatch((await app.get("/app")).html, /not activated/);
    const revoked = await dashboard.post("/dashboard/app/revoke",
      { _csrf: csrfOf(overview.html), app: appId });
    assert.equal(revoked.location, "/dashboard?done=app_revoked");
    assert.match((await app.get("/app")).html, /not activated/);
  });
