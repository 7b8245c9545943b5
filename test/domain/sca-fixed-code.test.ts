/**
 * The sandbox's test PSUs (code always 123456) against a real store: the fixed code passes only
 * in sandbox mode; a bank in production mode refuses it and counts the failure, as any wrong code.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Deps } from "../../src/domain/deps.js";
import { createScaFactors, SANDBOX_FIXED_CODE } from "../../src/domain/sca/factors.js";
import type { Psu, ScaDevice } from "../../src/domain/sca/model.js";
import { systemClock } from "../../src/lib/clock.js";
import type { Store } from "../../src/store/db.js";
import { freshStore } from "../support/engines.js";

let store: Store;
let close: () => Promise<void>;
before(async () => { ({ store, close } = await freshStore("sqlite")); });
after(() => close());

const AT = "2026-05-01T10:00:00.000Z";
const SETTINGS = { loginFailuresMax: 5, loginBlockSeconds: 900, smsCodeTtlSeconds: 300 };

function factorsIn(sandbox: boolean) {
  const deps = { store, clock: systemClock, settings: { ...SETTINGS, sandbox } };
  return createScaFactors(deps as unknown as Deps);
}

async function testPsu(login: string): Promise<{ psu: Psu; device: ScaDevice }> {
  const psu: Psu = { id: `psu-${login}`, login, name: login, passwordHash: "x", status: "enabled",
    failedAttempts: 0, blockedUntil: null, sandbox: "fixed_code" };
  const device: ScaDevice = { id: `device-${login}`, psuId: psu.id, kind: "totp",
    label: "Authenticator app", secret: "JBSWY3DPEHPK3PXP", phone: null, lastTotpStep: null };
  await store.psus.insert(store.db, psu, AT);
  await store.psus.insertDevice(store.db, device);
  return { psu, device };
}

test("the fixed code passes in sandbox mode, every time", async () => {
  const target = await testPsu("tester-sandbox");
  for (const session of ["s1", "s2"]) {
    const outcome = await store.transaction((tx) =>
      factorsIn(true).verifyCode(tx, session, "binding", target, SANDBOX_FIXED_CODE));
    assert.equal(outcome, "ok");
  }
});

test("in production mode the fixed code is refused and counted as a failure", async () => {
  const target = await testPsu("tester-production");
  const outcome = await store.transaction((tx) =>
    factorsIn(false).verifyCode(tx, "s3", "binding", target, SANDBOX_FIXED_CODE));
  assert.deepEqual(outcome, { problem: "code_invalid", attemptsLeft: 4 });
  assert.equal((await store.psus.find(store.db, target.psu.id))?.failedAttempts, 1);
});
