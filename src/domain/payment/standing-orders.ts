/**
 * Periodic payments (standing orders): the schedule's rules and its calendar, as pure functions.
 * Execution n (from 0) falls on the n-th date of the frequency from the first date on or after
 * startDate that matches dayOfExecution; a weekend moves it by executionRule (following by
 * default, as SEPA's TARGET2 calendar does for Saturdays and Sundays).
 */
import { addDays, isIsoDate } from "../../lib/clock.js";
import { formatError } from "../kernel/errors.js";
import { FREQUENCIES, type Frequency, type StandingOrder } from "./model.js";

export interface StandingOrderInput {
  startDate: string;
  endDate?: string;
  frequency: string;
  dayOfExecution?: string;
  executionRule?: string;
}

const STEP: Record<Frequency, { days: number } | { months: number }> = {
  Daily: { days: 1 }, Weekly: { days: 7 }, EveryTwoWeeks: { days: 14 },
  Monthly: { months: 1 }, EveryTwoMonths: { months: 2 }, Quarterly: { months: 3 },
  SemiAnnual: { months: 6 }, Annual: { months: 12 },
};

/** How far ahead a standing order may start: as far as a future-dated single payment. */
const START_DAYS_MAX = 365;

function readDay(input: StandingOrderInput, frequency: Frequency): number | null {
  if (input.dayOfExecution === undefined || frequency === "Daily") return null;
  const max = "days" in STEP[frequency] ? 7 : 31;
  const day = /^[1-9]\d?$/.test(input.dayOfExecution) ? Number(input.dayOfExecution) : NaN;
  if (!(day >= 1 && day <= max)) {
    throw formatError("body", "dayOfExecution", max === 7
      ? `For ${frequency}, dayOfExecution is the weekday, 1 (Monday) to 7 (Sunday).`
      : "dayOfExecution is the day of the month, 1 to 31 (31: the month's last day),"
        + " without leading zero.");
  }
  return day;
}

/** Validates the schedule fields of a periodic payment; `today` is the bank's date. */
export function validateStandingOrder(input: StandingOrderInput, today: string): StandingOrder {
  const { startDate, endDate } = input;
  if (!isIsoDate(startDate) || startDate < today || startDate > addDays(today, START_DAYS_MAX)) {
    throw formatError("body", "startDate",
      `startDate must be a date (YYYY-MM-DD) from today up to ${START_DAYS_MAX} days ahead.`);
  }
  if (endDate !== undefined && (!isIsoDate(endDate) || endDate < startDate)) {
    throw formatError("body", "endDate",
      "endDate must be a date (YYYY-MM-DD) not before startDate.");
  }
  const frequency = FREQUENCIES.find((f) => f === input.frequency);
  if (!frequency) {
    throw formatError("body", "frequency", `frequency must be one of ${FREQUENCIES.join(", ")}.`);
  }
  const rule = input.executionRule;
  if (rule !== undefined && rule !== "following" && rule !== "preceding") {
    throw formatError("body", "executionRule", "executionRule must be following or preceding.");
  }
  return {
    startDate, endDate: endDate ?? null, frequency, dayOfExecution: readDay(input, frequency),
    executionRule: rule ?? null,
  };
}

function parts(date: string) {
  return { y: Number(date.slice(0, 4)), m: Number(date.slice(5, 7)), d: Number(date.slice(8, 10)) };
}

function isoOf(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** 1 = Monday … 7 = Sunday. */
function weekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

/** The day in month `monthIndex` (months since year 0), clamped: 31 is the month's last day. */
function dayInMonth(monthIndex: number, day: number): string {
  const y = Math.floor(monthIndex / 12);
  const m = (monthIndex % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return isoOf(y, m, Math.min(day, last));
}

/** The n-th date of the schedule before any weekend shift. */
function nominalDate(order: StandingOrder, n: number): string {
  const step = STEP[order.frequency];
  const start = order.startDate;
  if ("days" in step) {
    const shift = order.dayOfExecution === null
      ? 0 : (order.dayOfExecution - weekday(start) + 7) % 7;
    return addDays(start, shift + n * step.days);
  }
  const { y, m, d } = parts(start);
  const day = order.dayOfExecution ?? d;
  const first = y * 12 + (m - 1);
  const offset = dayInMonth(first, day) < start ? 1 : 0;
  return dayInMonth(first + (offset + n) * step.months, day);
}

/** Moves a Saturday or Sunday to the Monday after (following) or the Friday before (preceding). */
function businessDay(date: string, rule: StandingOrder["executionRule"]): string {
  const day = weekday(date);
  if (day < 6) return date;
  return rule === "preceding" ? addDays(date, 5 - day) : addDays(date, 8 - day);
}

/**
 * The date of execution n (from 0), or null when the schedule has ended. A preceding shift never
 * goes before startDate, so no execution is due before the order exists.
 */
export function executionDate(order: StandingOrder, n: number): string | null {
  const nominal = nominalDate(order, n);
  if (order.endDate !== null && nominal > order.endDate) return null;
  const shifted = businessDay(nominal, order.executionRule);
  return shifted < order.startDate ? nominal : shifted;
}
