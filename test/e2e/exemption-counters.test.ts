/**
 * RTS art. 16's counters survive a crash: the real CLI process (`node dist/src/psd2-bank.js start`)
 * with LOW_VALUE_EXEMPTION=count is killed with SIGKILL after three payments without a code, and
 * restarted on the same database; two more go without a code, the sixth since the last SCA needs
 * it. On both engines.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { startBankProcess } from "../support/bank-process.js";
import { freshDatabase, onEachEngine, type EngineDatabase } from "../support/engines.js";
import { BOB_MAIN } from "../support/flows.js";
import { needsCode, payExempted } from "../support/exemptions.js";

const ENV = { LOW_VALUE_EXEMPTION: "count" };

onEachEngine("SCA exemption counters under SIGKILL", (engine) => {
  let database: EngineDatabase;
  after(() => database?.remove());

  test("three low-value payments, kill -9, restart: two more without a code, then the sixth "
    + "needs it", { timeout: 120_000 }, async () => {
    database = await freshDatabase(engine);
    const crashing = await startBankProcess(database, ENV);
    for (let n = 1; n <= 3; n++) await payExempted(crashing, "bob", BOB_MAIN, "10.00");
    await crashing.stop("SIGKILL");

    const restarted = await startBankProcess(database, ENV);
    try {
      for (let n = 4; n <= 5; n++) await payExempted(restarted, "bob", BOB_MAIN, "10.00");
      await needsCode(restarted, "bob", BOB_MAIN, "10.00");
    } finally {
      assert.equal(await restarted.stop("SIGTERM"), 0);
    }
  });
});
