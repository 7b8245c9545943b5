/**
 * The TOTP helper's promise to the suite: a PSU logs in as often as a test needs without waiting
 * for the next 30-second window (the bank's refusal of a spent step has its tests in
 * sca-security.test.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { logInDashboard } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(() => bank.close());

test("five logins in a row: the bank's clock moves to the next window instead of the test waiting for it", async () => {
  const ahead = () => bank.clock.now().getTime() - Date.now();
  for (let login = 1; login <= 5; login += 1) {
    await logInDashboard(bank.browser(), "alice");
  }
  // Three steps of a window are good (the current one and its neighbours): the fourth and fifth
  // login each needed a later window, which the clock reached by moving, not the test by waiting.
  assert.ok(ahead() >= 30_000, `the bank's clock is ${ahead()} ms ahead`);
});

