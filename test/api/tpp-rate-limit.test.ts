/** A per-TPP request limit (TPP_REQUESTS_PER_MINUTE): 429 ACCESS_EXCEEDED with Retry-After beyond it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { startBank } from "../support/start-app.js";

const STATUS = "/psd2/v1/payments/00000000000000000000000000000000/status";

test("past its per-minute limit a TPP gets 429 with Retry-After on every instance; others do not",
  async (t) => {
    const clock = manualClock(new Date("2026-11-23T10:00:10Z"));
    const env = { TPP_REQUESTS_PER_MINUTE: "3" };
    const bank = await startBank({ clock, env });
    const second = await startBank({ clock, env, sharing: bank });
    t.after(async () => { await second.close(); await bank.close(); });
    for (const instance of [bank, second, bank]) assert.equal((await instance.tpp.get(STATUS)).status, 404);
    const refused = await second.tpp.get(STATUS);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.tppMessages[0].code, "ACCESS_EXCEEDED");
    assert.equal(refused.headers["retry-after"], "50", "seconds until the next minute's window");
    const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-610001" });
    assert.equal((await other.get(STATUS)).status, 404, "another TPP has its own allowance");
    clock.advance(60_000);
    assert.equal((await bank.tpp.get(STATUS)).status, 404, "a new minute, a new allowance");
  });
