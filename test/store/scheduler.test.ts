/**
 * Scheduled jobs run once across instances: a lease row per job, taken by one conditional upsert.
 * Two schedulers (two instances) on one database race for the same job.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createScheduler, leaseSlackMs } from "../../src/domain/kernel/scheduler.js";
import { manualClock, systemClock, type Clock } from "../../src/lib/clock.js";
import type { Store } from "../../src/store/db.js";
import { freshStore, onEachEngine } from "../support/engines.js";

const MINUTE = 60_000;

onEachEngine("scheduled jobs", (engine) => {
  let store: Store;
  let close: () => Promise<void>;
  before(async () => ({ store, close } = await freshStore(engine)));
  after(() => close());

  const failOnError = (job: string, error: unknown) => assert.fail(`${job}: ${String(error)}`);
  const instance = (clock: Clock) => createScheduler({ store, clock }, failOnError);

  test("of many instances racing for one period, exactly one runs the job", async () => {
    const clock = manualClock(new Date("2026-05-01T10:00:00.000Z"));
    const instances = Array.from({ length: 8 }, () => instance(clock));
    let runs = 0;
    const work = async () => { runs += 1; };
    const ran = await Promise.all(instances.map((s) => s.runOnce("sweep", MINUTE, work)));
    assert.equal(ran.filter(Boolean).length, 1);
    assert.equal(runs, 1);
  });

  test("within the period (less its slack) nobody runs it again, the runner included; then one does", async () => {
    const clock = manualClock(new Date("2026-05-02T10:00:00.000Z"));
    const [one, two] = [instance(clock), instance(clock)];
    const work = async () => undefined;
    assert.equal(leaseSlackMs(MINUTE), 1_000);
    assert.equal(await one.runOnce("periodic", MINUTE, work), true);
    clock.advance(MINUTE - leaseSlackMs(MINUTE) - 1);
    assert.equal(await one.runOnce("periodic", MINUTE, work), false);
    assert.equal(await two.runOnce("periodic", MINUTE, work), false);
    clock.advance(1);
    assert.equal(await two.runOnce("periodic", MINUTE, work), true);
    assert.equal(await one.runOnce("periodic", MINUTE, work), false);
  });

  test("one instance runs its job at every tick of its interval, none lost to its own lease", async () => {
    const scheduler = instance(systemClock);
    const periodMs = 100;
    const wanted = 30;
    // The same interval on this instance alone counts the ticks; both fire from one timer list.
    let ticks = 0;
    scheduler.everyHere("tick counter", periodMs, async () => { ticks += 1; });
    await new Promise<void>((resolve) => {
      let runs = 0;
      scheduler.every("every tick", periodMs, async () => { if (++runs === wanted) resolve(); });
    });
    scheduler.stop();
    assert.ok(ticks <= wanted + 1, `${wanted} runs took ${ticks} ticks`);
  });
});
