/** Login posts per client address are limited before the password is looked at or hashed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { createPayment, logIn, open } from "../support/flows.js";
import { startBank } from "../support/start-app.js";

test("past the per-address limit a login is 429 with Retry-After and never reaches the password",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startBank({ clock, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: "3" } });
    t.after(() => bank.close());
    const { scaRedirect } = await createPayment(bank.tpp);
    const browser = bank.browser();
    let page = await open(browser, scaRedirect);
    for (let attempt = 1; attempt <= 3; attempt++) {
      page = await logIn(browser, page, "nobody", "wrong");
      assert.equal(page.status, 401, `attempt ${attempt} is checked`);
    }
    // Six throttled wrong passwords: had they been checked, alice (limit 5) would now be blocked.
    for (let attempt = 1; attempt <= 6; attempt++) {
      page = await logIn(browser, page, "alice", "wrong");
      assert.equal(page.status, 429, page.html);
      assert.ok(Number(page.headers["retry-after"]) >= 1, "Retry-After in seconds");
    }
    const right = await logIn(browser, page, "alice", "alice-demo");
    assert.equal(right.status, 429, "the right password is throttled too");
    clock.advance(61_000);
    const later = await logIn(browser, right, "alice", "alice-demo");
    assert.equal(later.status, 303, later.html);
    assert.equal(later.location, "/sca/code");
  });
