/**
 * Idempotency answers and used redirect tokens are kept only for their retention
 * (IDEMPOTENCY_RETENTION_HOURS; a token's expiry): a retry within it gets its first answer, and
 * under a steady load the tables stop growing. The audit log is pruned past AUDIT_RETENTION_DAYS
 * once a day across instances, by the scheduler.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { createAuditLog } from "../../src/domain/kernel/audit.js";
import { manualClock } from "../../src/lib/clock.js";
import { onEachEngine } from "../support/engines.js";
import {
  CREATION_HEADERS, createdStatus, createPayment, logIn, open, paymentBody,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SCT = "/psd2/v1/payments/sepa-credit-transfers";

async function rows(bank: TestBank, table: "idempotency" | "used_tokens"): Promise<number> {
  const row = await bank.app.store.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A payment whose PSU opens the link and logs in: one answer kept, one token used. */
async function initiateAndLogIn(bank: TestBank): Promise<void> {
  const { scaRedirect } = await createPayment(bank.tpp);
  const browser = bank.browser();
  await logIn(browser, await open(browser, scaRedirect), "alice", "alice-demo");
}

onEachEngine("retention of idempotency answers and used tokens", (engine) => {
  test("a retry within the retention gets its first answer; a steady load stops growing them",
    async (t) => {
      const clock = manualClock(new Date("2026-11-02T09:00:00Z"));
      const bank = await startOwnBank(t, { engine, clock });
      const headers = { ...CREATION_HEADERS, "X-Request-ID": randomUUID() };
      const first = await bank.tpp.post(SCT, paymentBody(), headers);
      assert.equal(first.status, createdStatus(bank.tpp), first.text);
      clock.advance(23 * HOUR);
      await bank.app.pruneRetained();
      const retry = await bank.tpp.post(SCT, paymentBody(), headers);
      assert.equal(retry.status, first.status, retry.text);
      assert.deepEqual(retry.body, first.body);

      const sizes: string[] = [];
      for (let round = 0; round < 5; round += 1) {
        await initiateAndLogIn(bank);
        await initiateAndLogIn(bank);
        clock.advance(12 * HOUR);
        await bank.app.pruneRetained();
        sizes.push(`${await rows(bank, "idempotency")} answers, ${await rows(bank, "used_tokens")} tokens`);
      }
      // Two payments every 12 hours: the last 24 hours' four answers stay; tokens expire in 10 min.
      assert.deepEqual(sizes.slice(2), Array(3).fill("4 answers, 0 tokens"), sizes.join("; "));
    });

  test("the audit log is pruned once a day across instances: on start unless one did that day",
    async (t) => {
      const clock = manualClock(new Date("2026-11-05T09:00:00Z"));
      const env = { AUDIT_RETENTION_DAYS: "1" };
      const instances = [await startBank({ engine, clock, env })];
      t.after(async () => { for (const bank of instances.reverse()) await bank.close(); });
      const [first] = instances as [TestBank];
      const past = manualClock(new Date(clock.now().getTime() - 2 * DAY));
      await createAuditLog({ store: first.app.store, clock: past, retentionDays: 1 }).record({
        tppId: "PSDDE-BAFIN-1", requestId: null, psuIp: null, method: "GET", path: "/two-days-ago",
        resourceId: null, status: 200, ms: 1,
      });
      const kept = async () => (await first.app.store.db.selectFrom("audit_log").select("path")
        .where("path", "=", "/two-days-ago").execute()).length;
      clock.advance(HOUR);
      instances.push(await startBank({ clock, env, sharing: first }));
      assert.equal(await kept(), 1, "the first instance pruned within the day; the second not");
      clock.advance(DAY - HOUR);
      instances.push(await startBank({ clock, env, sharing: first }));
      assert.equal(await kept(), 0, "a day later an instance starting prunes");
    });
});
