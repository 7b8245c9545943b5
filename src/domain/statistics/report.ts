/**
 * The published figures (EBA/GL/2018/07 guideline 3: quarterly, with daily figures) per UTC day
 * and category, read from the shared counters and the instances' windows of downtime. Days are
 * UTC, so that each is the guideline's "24 hour period starting and ending at midnight".
 */
import { addDays } from "../../lib/clock.js";
import type { StoreDeps } from "../deps.js";
import {
  CATEGORIES, interfaceOf, type Category, type DayCounts, type Downtime, type Interface,
} from "./ports.js";

const DAY_MS = 86_400_000;

export interface Figures {
  category: Category;
  requests: number;
  /** Mean time to answer; null without requests. */
  meanMs: number | null;
  /** Share of answers that were errors attributable to the bank; null without requests. */
  errorRatePercent: number | null;
  /** The category's interface: 100 % minus the share of the period it was down. */
  availabilityPercent: number;
}

export interface DayFigures extends Figures { day: string }

export interface QuarterReport {
  quarter: string;
  /** The days reported: from the first measured (or the quarter's first) to today at most. */
  days: DayFigures[];
  /** The quarter's figures over those days, per category. */
  totals: Figures[];
  /** Seconds each interface was down over those days. */
  downtimeSeconds: Record<Interface, number>;
}

const QUARTER = /^(\d{4})Q([1-4])$/;

export const isQuarter = (text: string): boolean => QUARTER.test(text);

/** The quarter's first and last day, "2026Q4" → 2026-10-01 .. 2026-12-31. */
export function quarterDays(quarter: string): { first: string; last: string } {
  const [, year = "", q = ""] = QUARTER.exec(quarter) ?? [];
  const month = String((Number(q) - 1) * 3 + 1).padStart(2, "0");
  const first = `${year}-${month}-01`;
  const next = new Date(`${first}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 3);
  return { first, last: addDays(next.toISOString().slice(0, 10), -1) };
}

export function quarterOf(day: string): string {
  return `${day.slice(0, 4)}Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;
}

/** The current quarter and the three before it, oldest first. */
export function lastFourQuarters(today: string): string[] {
  let { first } = quarterDays(quarterOf(today));
  const quarters = [quarterOf(first)];
  while (quarters.length < 4) {
    first = quarterDays(quarterOf(addDays(first, -1))).first;
    quarters.unshift(quarterOf(first));
  }
  return quarters;
}

/** Joins overlapping windows (of several instances) and adds up their milliseconds per day. */
export function downtimePerDay(
  windows: readonly Downtime[], which: Interface,
): Map<string, number> {
  const spans = windows.filter((w) => w.interface === which)
    .map((w) => [Date.parse(w.startedAt), Date.parse(w.endedAt)] as const)
    .sort((a, b) => a[0] - b[0]);
  const perDay = new Map<string, number>();
  let current: [number, number] | null = null;
  const add = ([start, end]: [number, number]) => {
    for (let from = start; from < end;) {
      const dayEnd = (Math.floor(from / DAY_MS) + 1) * DAY_MS;
      const to = Math.min(end, dayEnd);
      const day = new Date(from).toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + to - from);
      from = to;
    }
  };
  for (const [start, end] of spans) {
    if (current && start <= current[1]) current[1] = Math.max(current[1], end);
    else {
      if (current) add(current);
      current = [start, end];
    }
  }
  if (current) add(current);
  return perDay;
}

function figures(
  category: Category, counts: readonly DayCounts[], downMs: number, spanMs: number,
): Figures {
  const requests = counts.reduce((n, c) => n + c.requests, 0);
  const errors = counts.reduce((n, c) => n + c.errors, 0);
  const durationUs = counts.reduce((n, c) => n + c.durationUs, 0);
  return {
    category, requests,
    meanMs: requests === 0 ? null : durationUs / requests / 1000,
    errorRatePercent: requests === 0 ? null : (100 * errors) / requests,
    availabilityPercent: spanMs === 0 ? 100 : 100 * (1 - Math.min(downMs, spanMs) / spanMs),
  };
}

export function createStatisticsReport(
  deps: StoreDeps<"interfaceStatistics" | "db", "clock">,
) {
  const { store, clock } = deps;
  const stats = store.interfaceStatistics;

  /** The days of the quarter to report, and how much of each has passed. */
  async function reportedDays(quarter: string): Promise<{ day: string; spanMs: number }[]> {
    const now = clock.now().getTime();
    const { first, last } = quarterDays(quarter);
    const measured = await stats.firstDay(store.db);
    const days: { day: string; spanMs: number }[] = [];
    for (let day = measured && measured > first ? measured : first; day <= last;
      day = addDays(day, 1)) {
      const start = Date.parse(`${day}T00:00:00Z`);
      if (measured === null || start >= now) break;
      days.push({ day, spanMs: Math.min(DAY_MS, now - start) });
    }
    return days;
  }

  return {
    async quarter(quarter: string): Promise<QuarterReport> {
      const days = await reportedDays(quarter);
      const { first, last } = quarterDays(quarter);
      const [counts, windows] = await Promise.all([stats.counts(store.db, first, last),
        stats.downtime(store.db, `${first}T00:00:00.000Z`, `${addDays(last, 1)}T00:00:00.000Z`)]);
      const down = { dedicated: downtimePerDay(windows, "dedicated"),
        psu: downtimePerDay(windows, "psu") };
      const dayRows = days.flatMap(({ day, spanMs }) => CATEGORIES.map((category) => ({ day,
        ...figures(category, counts.filter((c) => c.day === day && c.category === category),
          down[interfaceOf(category)].get(day) ?? 0, spanMs) })));
      const span = days.reduce((n, d) => n + d.spanMs, 0);
      const downOver = (which: Interface) =>
        days.reduce((n, d) => n + (down[which].get(d.day) ?? 0), 0);
      return {
        quarter, days: dayRows,
        totals: CATEGORIES.map((category) => figures(category,
          counts.filter((c) => c.category === category), downOver(interfaceOf(category)), span)),
        downtimeSeconds: { dedicated: downOver("dedicated") / 1000, psu: downOver("psu") / 1000 },
      };
    },
  };
}

export type StatisticsReport = ReturnType<typeof createStatisticsReport>;

const CSV_HEADER = "date,category,requests,mean_response_ms,error_response_rate_percent,"
  + "availability_percent";

const fixed = (value: number | null, digits: number) => value === null ? "" : value.toFixed(digits);

/** One row a day and category (the page's download and the command line's --csv). */
export function statisticsCsv(reports: readonly QuarterReport[]): string {
  const rows = reports.flatMap((r) => r.days).map((d) => [d.day, d.category, String(d.requests),
    fixed(d.meanMs, 1), fixed(d.errorRatePercent, 3), fixed(d.availabilityPercent, 3)].join(","));
  return [CSV_HEADER, ...rows].join("\r\n") + "\r\n";
}
