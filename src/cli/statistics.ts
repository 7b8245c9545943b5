/**
 * `psd2-bank statistics`: the published statistics of the dedicated interface, the same figures
 * as {auth}/statistics and its CSV, read from the database.
 */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import {
  isQuarter, lastFourQuarters, statisticsCsv, type QuarterReport,
} from "../domain/statistics/report.js";
import { print, table, usageEntry } from "./output.js";

export const STATISTICS_USAGE = [
  usageEntry("statistics [--quarter 2026Q4] [--csv]",
    "interface statistics per day and category (RTS art. 32(4)); default: the last four "
    + "quarters; --csv: the page's CSV"),
].join("\n");

const fixed = (value: number | null, digits: number, unit: string) =>
  value === null ? "-" : `${value.toFixed(digits)} ${unit}`;

function listed(reports: readonly QuarterReport[]): string {
  return table(["date", "category", "requests", "mean", "errors", "availability"],
    reports.flatMap((r) => r.days).map((d) => [d.day, d.category, String(d.requests),
      fixed(d.meanMs, 1, "ms"), fixed(d.errorRatePercent, 3, "%"),
      fixed(d.availabilityPercent, 3, "%")]));
}

export async function statisticsCommand(admin: Administration, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: {
    quarter: { type: "string" }, csv: { type: "boolean" }, json: { type: "boolean" },
  } });
  const quarter = values.quarter;
  if (quarter !== undefined && !isQuarter(quarter)) {
    throw new OperatorError(`--quarter takes a quarter such as 2026Q4, not "${quarter}"`);
  }
  const quarters = quarter ? [quarter]
    : lastFourQuarters(new Date().toISOString().slice(0, 10));
  const reports = await Promise.all(quarters.map((q) => admin.statistics.quarter(q)));
  if (values.csv) return void process.stdout.write(statisticsCsv(reports));
  print(values.json, reports, () => listed(reports));
}
