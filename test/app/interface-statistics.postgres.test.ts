/**
 * The interface statistics are the bank's, not an instance's: two instances on one PostgreSQL
 * database add their requests to the same day's rows, flushing at the same moment, and an
 * instance that closes adds what it had not flushed yet, so a restart loses nothing.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { postgresUnavailable } from "../support/engines.js";
import { startBank, type TestBank } from "../support/start-app.js";

/** Requests to the accounts (AIS) on one instance; they are refused (no consent), not failed. */
async function reads(bank: TestBank, count: number): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count },
    () => bank.tpp.get("/psd2/v1/accounts")));
  for (const answer of answers) assert.ok(answer.status < 500, answer.text);
}

/** Both instances' clock, so that the day cannot turn during the test. */
const clock = manualClock(new Date());

async function aisRequestsToday(bank: TestBank): Promise<string | undefined> {
  const today = clock.now().toISOString().slice(0, 10);
  const csv = (await bank.browser().get("/statistics.csv")).html;
  return csv.split("\r\n").find((line) => line.startsWith(`${today},AIS,`))?.split(",")[2];
}

describe("interface statistics of two instances on one PostgreSQL database",
  { skip: postgresUnavailable ?? false }, () => {
    test("both add to the same day, at the same moment; a closing one flushes first", async () => {
      const first = await startBank({ engine: "postgres", clock });
      let second: TestBank | undefined;
      try {
        second = await startBank({ sharing: first, clock });
        await Promise.all([reads(first, 7), reads(second, 5)]);
        await Promise.all([first.app.flushStatistics(), second.app.flushStatistics()]);
        assert.equal(await aisRequestsToday(second), "12");
        await Promise.all([reads(first, 2), reads(second, 3)]);
        await Promise.all([first.app.flushStatistics(), second.app.flushStatistics()]);
        await reads(second, 4);
        const closing = second;
        second = undefined;
        await closing.close();
        assert.equal(await aisRequestsToday(first), "21");
      } finally {
        await second?.close();
        await first.close();
      }
    });
  });
