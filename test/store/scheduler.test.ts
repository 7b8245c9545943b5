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

  test("an interval of the job's period takes its lease again at every tick", async () => {
    const scheduler = instance(systemClock);
    const periodMs = 100;
    const ticks = 30;
    // every()'s own timing, awaited here: a tick that comes while the last run still waits for
    // the store (a loaded machine) is left out, so only the lease can refuse one.
    const refused = await new Promise<number>((resolve) => {
      let [taken, refusals, running] = [0, 0, false];
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        void scheduler.runOnce("every tick", periodMs, async () => undefined).then((ran) => {
          running = false;
          if (ran) taken += 1; else refusals += 1;
          if (taken + refusals === ticks) { clearInterval(timer); resolve(refusals); }
        });
      }, periodMs);
    });
    assert.equal(refused, 0, `${refused} of ${ticks} ticks found the lease held`);
  });
});
