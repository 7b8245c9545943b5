/**
 * The standing order's calendar and rules: execution dates per frequency, the month's end,
 * weekend shifts by executionRule, the end date; each refusal names its field.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Xs2aError } from "../../../src/domain/kernel/errors.js";
import type { StandingOrder } from "../../../src/domain/payment/model.js";
import {
  executionDate, validateStandingOrder, type StandingOrderInput,
} from "../../../src/domain/payment/standing-orders.js";

const order = (over: Partial<StandingOrder>): StandingOrder => ({
  startDate: "2027-01-04", endDate: null, frequency: "Monthly", dayOfExecution: null,
  executionRule: null, ...over,
});

const dates = (o: StandingOrder, count: number) =>
  Array.from({ length: count }, (_, n) => executionDate(o, n));

test("Daily, Weekly and EveryTwoWeeks step by days from startDate, weekends moved to Monday", () => {
  // 2027-01-08 is a Friday.
  assert.deepEqual(dates(order({ startDate: "2027-01-08", frequency: "Daily" }), 4),
    ["2027-01-08", "2027-01-11", "2027-01-11", "2027-01-11"]);
  assert.deepEqual(dates(order({ frequency: "Weekly" }), 3), ["2027-01-04", "2027-01-11", "2027-01-18"]);
  assert.deepEqual(dates(order({ frequency: "EveryTwoWeeks", dayOfExecution: 3 }), 2),
    ["2027-01-06", "2027-01-20"]);
});

test("Monthly on the 31st is the month's last day; preceding moves a Sunday to Friday", () => {
  assert.deepEqual(dates(order({ frequency: "Monthly", dayOfExecution: 31, executionRule: "preceding" }), 4),
    // 2027-01-31 is a Sunday, 2027-02-28 a Sunday, 2027-03-31 a Wednesday, 2027-04-30 a Friday.
    ["2027-01-29", "2027-02-26", "2027-03-31", "2027-04-30"]);
  assert.deepEqual(dates(order({ frequency: "Monthly", dayOfExecution: 31 }), 2),
    ["2027-02-01", "2027-03-01"]);
});

test("a dayOfExecution before startDate's day starts in the next period", () => {
  assert.deepEqual(dates(order({ startDate: "2027-01-20", frequency: "Quarterly", dayOfExecution: 15 }), 3),
    ["2027-04-15", "2027-07-15", "2027-10-15"]);
  assert.deepEqual(dates(order({ startDate: "2027-03-01", frequency: "Annual" }), 2), ["2027-03-01", "2028-03-01"]);
  assert.deepEqual(dates(order({ frequency: "SemiAnnual" }), 2), ["2027-01-04", "2027-07-05"]);
  assert.deepEqual(dates(order({ frequency: "EveryTwoMonths" }), 2), ["2027-01-04", "2027-03-04"]);
});

test("no execution after endDate, and none before startDate even when preceding", () => {
  const o = order({ frequency: "Weekly", endDate: "2027-01-18" });
  assert.deepEqual(dates(o, 4), ["2027-01-04", "2027-01-11", "2027-01-18", null]);
  // 2027-01-09 is a Saturday: preceding would be the 8th, before the order starts.
  assert.equal(executionDate(order({ startDate: "2027-01-09", frequency: "Daily", executionRule: "preceding" }), 0),
    "2027-01-09");
});

test("each broken rule of the schedule is a FORMAT_ERROR naming its field", () => {
  const today = "2027-01-04";
  const good: StandingOrderInput = { startDate: "2027-01-05", frequency: "Monthly" };
  const rows: [Partial<StandingOrderInput>, string][] = [
    [{ startDate: "2027-01-03" }, "startDate"],
    [{ startDate: "2027-02-30" }, "startDate"],
    [{ startDate: "2028-01-06" }, "startDate"],
    [{ endDate: "2027-01-04" }, "endDate"],
    [{ endDate: "soon" }, "endDate"],
    [{ frequency: "Hourly" }, "frequency"],
    [{ frequency: "MonthlyVariable" }, "frequency"],
    [{ dayOfExecution: "0" }, "dayOfExecution"],
    [{ dayOfExecution: "01" }, "dayOfExecution"],
    [{ dayOfExecution: "32" }, "dayOfExecution"],
    [{ frequency: "Weekly", dayOfExecution: "8" }, "dayOfExecution"],
    [{ executionRule: "latest" }, "executionRule"],
  ];
  for (const [over, path] of rows) {
    assert.throws(() => validateStandingOrder({ ...good, ...over }, today), (error: unknown) =>
      error instanceof Xs2aError && error.code === "FORMAT_ERROR" && error.path === path, JSON.stringify(over));
  }
  assert.deepEqual(validateStandingOrder({ ...good, dayOfExecution: "31", executionRule: "preceding" }, today), {
    startDate: "2027-01-05", endDate: null, frequency: "Monthly", dayOfExecution: 31, executionRule: "preceding",
  });
});
