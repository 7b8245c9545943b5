/** Tests for src/lib/clock.ts: calendar dates in a time zone, remembered per minute. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { dateInZone } from "../../src/lib/clock.js";

const ZONES = ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "UTC"];

function uncached(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA",
    { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

test("the date turns at the zone's midnight, also just after an answer for the minute before",
  () => {
  // Berlin is UTC+1 until the switch to summer time on 29 March 2026.
  assert.equal(dateInZone(new Date("2026-03-28T22:59:59.999Z"), "Europe/Berlin"), "2026-03-28");
  assert.equal(dateInZone(new Date("2026-03-28T23:00:00.000Z"), "Europe/Berlin"), "2026-03-29");
  assert.equal(dateInZone(new Date("2026-03-28T22:59:30.000Z"), "Europe/Berlin"), "2026-03-28");
  // Kathmandu is UTC+5:45: its midnight is not on a UTC hour.
  assert.equal(dateInZone(new Date("2026-06-30T18:14:59Z"), "Asia/Kathmandu"), "2026-06-30");
  assert.equal(dateInZone(new Date("2026-06-30T18:15:00Z"), "Asia/Kathmandu"), "2026-07-01");
});

test("any sequence of instants and zones gets the dates a fresh formatter gives", () => {
  const around = Date.parse("2026-10-25T00:00:00Z");
  fc.assert(fc.property(
    fc.array(fc.tuple(fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 }),
      fc.constantFrom(...ZONES)), { minLength: 1, maxLength: 50 }),
    (calls) => {
      for (const [offset, zone] of calls) {
        const instant = new Date(around + offset);
        const at = `${instant.toISOString()} ${zone}`;
        assert.equal(dateInZone(instant, zone), uncached(instant, zone), at);
      }
    }), { seed: 10, numRuns: 200 });
});
