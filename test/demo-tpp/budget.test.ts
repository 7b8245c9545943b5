/**
 * The demo TPP's budget asks for a period the bank serves without a fresh SCA, whatever the hour
 * and the bank's time zone: its own date is UTC's, the bank's may be a day apart.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { budgetDateFrom } from "../../src/demo-tpp/budget.js";
import {
  applyHistoryWindow, readTransactionQuery,
} from "../../src/domain/account-information/statement-query.js";
import { addDays, dateInZone } from "../../src/lib/clock.js";

/** The bank's default, the zones furthest ahead of and behind UTC, and UTC itself. */
const ZONES = ["Europe/Berlin", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"];
const NEVER_AUTHORISED = async () => null;

test("the budget's period is open without SCA at every instant, in every zone of a bank", async () => {
  const instants = fc.date({ min: new Date("2020-01-01"), max: new Date("2040-01-01"),
    noInvalidDate: true });
  await fc.assert(fc.asyncProperty(instants, fc.constantFrom(...ZONES), async (now, zone) => {
    const today = dateInZone(now, zone);
    const query = readTransactionQuery({ dateFrom: budgetDateFrom(now), bookingStatus: "booked" },
      today);
    await applyHistoryWindow(query, today, now, NEVER_AUTHORISED);
  }), { numRuns: 2_000, examples: [[new Date("2026-11-28T23:23:00Z"), "Europe/Berlin"]] });
});

test("the budget's period is 90 days, today by UTC's calendar the last of them", () => {
  const now = new Date("2026-11-28T23:23:00Z");
  assert.equal(budgetDateFrom(now), addDays("2026-11-28", -89));
});
