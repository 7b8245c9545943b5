/**
 * The published statistics of the dedicated interface (RTS art. 32(4), EBA/GL/2018/07 GL 2-3):
 * known requests fed with a clock the test moves, flushed into a real database, and every figure
 * the page, the CSV and the command line publish checked, a downtime window included; two
 * instances adding to the same day lose nothing.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createInterfaceRecorder } from "../../src/domain/statistics/recorder.js";
import {
  createStatisticsReport, downtimePerDay, lastFourQuarters, quarterDays, statisticsCsv,
  type DayFigures,
} from "../../src/domain/statistics/report.js";
import type { Category } from "../../src/domain/statistics/ports.js";
import { manualClock } from "../../src/lib/clock.js";
import type { Store } from "../../src/store/db.js";
import { onEachEngine, twoInstances } from "../support/engines.js";

const SECOND = 1000;
type Recorder = ReturnType<typeof createInterfaceRecorder>;

/** One request: it arrives now and is answered `ms` later with `status`. */
function request(recorder: Recorder, category: Category, status: number, ms: number): void {
  recorder.answered(recorder.arrived(category), status, ms);
}

const row = (days: readonly DayFigures[], day: string, category: Category) =>
  days.find((d) => d.day === day && d.category === category);

const near = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9,
    `${String(actual)} is not ${expected}`);

onEachEngine("interface statistics", (engine) => {
  let store: Store;
  let other: Store;
  let close: () => Promise<void>;
  before(async () => ({ store, other, close } = await twoInstances(engine)));
  after(() => close());

  test("a day's requests per category: count, mean time and the rate of the bank's errors; "
    + "a downtime window from the first of five unanswered requests", async () => {
    const clock = manualClock(new Date("2026-11-10T08:00:00.000Z"));
    const recorder = createInterfaceRecorder({ store, clock });
    request(recorder, "AIS", 200, 10);
    request(recorder, "AIS", 400, 20); // the TPP's mistake: no error of the bank
    request(recorder, "AIS", 503, 30);
    request(recorder, "PIS", 201, 100);
    request(recorder, "PIIS", 200, 5);
    request(recorder, "PIIS", 200, 15);
    request(recorder, "PSU", 200, 40);
    request(recorder, "PSU", 302, 60);
    await recorder.flush();

    // The next day five AIS requests, a second apart, are never answered ...
    clock.set(new Date("2026-11-11T10:00:00.000Z"));
    for (let i = 0; i < 5; i += 1) {
      recorder.arrived("AIS");
      clock.advance(SECOND);
    }
    // ... a PSU page answers meanwhile: the pages are another interface.
    request(recorder, "PSU", 200, 50);
    clock.set(new Date("2026-11-11T10:00:34.000Z"));
    await recorder.flush();
    assert.equal(recorder.isDown("dedicated"), false, "the fifth is not 30 s old yet");
    clock.advance(SECOND);
    await recorder.flush();
    assert.equal(recorder.isDown("dedicated"), true);
    assert.equal(recorder.isDown("psu"), false);
    // Five minutes after the first, a request is answered in time: the interface is up again.
    clock.set(new Date("2026-11-11T10:05:00.000Z"));
    request(recorder, "PIS", 201, 0);
    assert.equal(recorder.isDown("dedicated"), false);
    await recorder.flush();

    clock.set(new Date("2026-11-12T00:00:00.000Z"));
    const report = await createStatisticsReport({ store, clock }).quarter("2026Q4");
    assert.deepEqual([...new Set(report.days.map((d) => d.day))], ["2026-11-10", "2026-11-11"],
      "from the first measured day to the last whole one");
    const first = (category: Category) => row(report.days, "2026-11-10", category);
    assert.deepEqual(first("AIS"), { day: "2026-11-10", category: "AIS", requests: 3,
      meanMs: 20, errorRatePercent: 100 / 3, availabilityPercent: 100 });
    assert.deepEqual(first("PIS"), { day: "2026-11-10", category: "PIS", requests: 1,
      meanMs: 100, errorRatePercent: 0, availabilityPercent: 100 });
    assert.deepEqual(first("PIIS"), { day: "2026-11-10", category: "PIIS", requests: 2,
      meanMs: 10, errorRatePercent: 0, availabilityPercent: 100 });
    assert.deepEqual(first("PSU"), { day: "2026-11-10", category: "PSU", requests: 2,
      meanMs: 50, errorRatePercent: 0, availabilityPercent: 100 });

    // 300 s down: from 10:00:00 (the first unanswered) to 10:05:00 (the answer in time).
    const down = 100 * (1 - 300 / 86_400);
    const second = (category: Category) => row(report.days, "2026-11-11", category);
    assert.deepEqual(second("AIS"), { day: "2026-11-11", category: "AIS", requests: 5,
      meanMs: 30_000, errorRatePercent: 100, availabilityPercent: down });
    assert.deepEqual(second("PIS"), { day: "2026-11-11", category: "PIS", requests: 1,
      meanMs: 0, errorRatePercent: 0, availabilityPercent: down });
    assert.deepEqual(second("PIIS"), { day: "2026-11-11", category: "PIIS", requests: 0,
      meanMs: null, errorRatePercent: null, availabilityPercent: down });
    assert.deepEqual(second("PSU"), { day: "2026-11-11", category: "PSU", requests: 1,
      meanMs: 50, errorRatePercent: 0, availabilityPercent: 100 });

    assert.deepEqual(report.downtimeSeconds, { dedicated: 300, psu: 0 });
    const totals = Object.fromEntries(report.totals.map((t) => [t.category, t]));
    near(totals.AIS?.meanMs, (60 + 5 * 30_000) / 8);
    near(totals.AIS?.errorRatePercent, 100 * 6 / 8);
    near(totals.AIS?.availabilityPercent, 100 * (1 - 300 / (2 * 86_400)));
    near(totals.PSU?.availabilityPercent, 100);
    assert.equal(totals.PIIS?.requests, 2);

    assert.equal(statisticsCsv([report]), [
      "date,category,requests,mean_response_ms,error_response_rate_percent,availability_percent",
      "2026-11-10,AIS,3,20.0,33.333,100.000", "2026-11-10,PIS,1,100.0,0.000,100.000",
      "2026-11-10,PIIS,2,10.0,0.000,100.000", "2026-11-10,PSU,2,50.0,0.000,100.000",
      "2026-11-11,AIS,5,30000.0,100.000,99.653", "2026-11-11,PIS,1,0.0,0.000,99.653",
      "2026-11-11,PIIS,0,,,99.653", "2026-11-11,PSU,1,50.0,0.000,100.000", "",
    ].join("\r\n"));
  });

  test("four unanswered requests, or five with an answer in time between them, are no downtime",
    async () => {
      const clock = manualClock(new Date("2026-08-03T09:00:00.000Z"));
      const recorder = createInterfaceRecorder({ store, clock });
      const hanging = () => { recorder.arrived("PIS"); clock.advance(SECOND); };
      for (let i = 0; i < 4; i += 1) hanging();
      request(recorder, "AIS", 200, 10);
      hanging();
      clock.advance(60 * SECOND);
      await recorder.flush();
      assert.equal(recorder.isDown("dedicated"), false);
      // An answer in time that came after a hanging request still stands between them.
      const slow = recorder.arrived("AIS");
      for (let i = 0; i < 3; i += 1) hanging();
      request(recorder, "PIS", 500, 5);
      clock.advance(40 * SECOND);
      recorder.answered(slow, 200, 31_000);
      await recorder.flush();
      assert.equal(recorder.isDown("dedicated"), true, "a 5xx and an answer after 30 s fail too");
      const report = await createStatisticsReport({ store, clock }).quarter("2026Q3");
      const aisDay = row(report.days, "2026-08-03", "AIS");
      assert.deepEqual([aisDay?.requests, aisDay?.errorRatePercent], [2, 50]);
    });

  test("a request whose client left before the answer counts nowhere, unless it had waited 30 s",
    async () => {
      const clock = manualClock(new Date("2026-06-08T09:00:00.000Z"));
      const recorder = createInterfaceRecorder({ store, clock });
      const left = Array.from({ length: 5 }, () => recorder.arrived("PIS"));
      const answeredAfter = recorder.arrived("AIS");
      clock.advance(SECOND);
      for (const mark of left) recorder.abandoned(mark);
      recorder.answered(answeredAfter, 200, 1000);
      recorder.answered(left[0]!, 201, 1000); // its answer, too late for the client: not counted
      const waited = recorder.arrived("PIS");
      clock.advance(31 * SECOND);
      recorder.abandoned(waited);
      clock.advance(60 * SECOND);
      await recorder.flush();
      assert.equal(recorder.isDown("dedicated"), false);
      clock.set(new Date("2026-06-09T00:00:00.000Z"));
      const report = await createStatisticsReport({ store, clock }).quarter("2026Q2");
      const day = (category: Category) => row(report.days, "2026-06-08", category);
      assert.deepEqual([day("AIS")?.requests, day("AIS")?.errorRatePercent], [1, 0]);
      assert.deepEqual([day("PIS")?.requests, day("PIS")?.meanMs, day("PIS")?.errorRatePercent],
        [1, 30_000, 100]);
      assert.equal(report.downtimeSeconds.dedicated, 0);
    });

  test("windows of several instances overlap once, and a window past midnight splits", () => {
    const windows = [
      { interface: "dedicated" as const, startedAt: "2026-05-01T23:59:00.000Z",
        endedAt: "2026-05-02T00:01:00.000Z" },
      { interface: "dedicated" as const, startedAt: "2026-05-02T00:00:00.000Z",
        endedAt: "2026-05-02T00:02:00.000Z" },
      { interface: "psu" as const, startedAt: "2026-05-02T00:00:00.000Z",
        endedAt: "2026-05-02T01:00:00.000Z" },
    ];
    assert.deepEqual([...downtimePerDay(windows, "dedicated")],
      [["2026-05-01", 60_000], ["2026-05-02", 120_000]]);
  });

  test("two instances flushing the same day at once add up, and a restart adds on", async () => {
    const clock = manualClock(new Date("2026-02-02T12:00:00.000Z"));
    const instances = [createInterfaceRecorder({ store, clock }),
      createInterfaceRecorder({ store: other, clock })];
    for (let round = 0; round < 5; round += 1) {
      for (const recorder of instances) {
        for (let i = 0; i < 10; i += 1) request(recorder, "PIS", i === 0 ? 500 : 201, 2);
      }
      await Promise.all(instances.map((r) => r.flush()));
    }
    const restarted = createInterfaceRecorder({ store, clock });
    request(restarted, "PIS", 201, 2);
    await restarted.flush();
    clock.set(new Date("2026-02-03T00:00:00.000Z"));
    const report = await createStatisticsReport({ store: other, clock }).quarter("2026Q1");
    const day = row(report.days, "2026-02-02", "PIS");
    assert.deepEqual([day?.requests, day?.meanMs, day?.errorRatePercent], [101, 2, 1000 / 101]);
  });
});

test("quarters: their days, and the last four ending with today's", () => {
  assert.deepEqual(quarterDays("2026Q4"), { first: "2026-10-01", last: "2026-12-31" });
  assert.deepEqual(quarterDays("2028Q1"), { first: "2028-01-01", last: "2028-03-31" });
  assert.deepEqual(lastFourQuarters("2026-02-14"), ["2025Q2", "2025Q3", "2025Q4", "2026Q1"]);
});
