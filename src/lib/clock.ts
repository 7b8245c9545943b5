/**
 * The one clock. Code that needs the time receives a Clock, so tests can move time (day
 * boundaries, expiry) without waiting, and nothing reads Date.now() behind the tests' back.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock the caller moves by hand, for tests and simulations. */
export function manualClock(
  start: Date,
): Clock & { advance(ms: number): void; set(d: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => { current += ms; },
    set: (d) => { current = d.getTime(); },
  };
}

/**
 * Building a formatter costs far more than formatting, and formatting more than the reads that
 * ask for the date; a bank has one or two time zones. Since 1972 every offset is whole minutes,
 * so one instant's date holds for its whole minute.
 */
const zones = new Map<string, { formatter: Intl.DateTimeFormat; minute: number; date: string }>();

/** The calendar date (YYYY-MM-DD) of an instant in an IANA time zone, e.g. the bank's. */
export function dateInZone(instant: Date, timeZone: string): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  let zone = zones.get(timeZone);
  if (zone?.minute === minute) return zone.date;
  if (!zone) {
    const formatter = new Intl.DateTimeFormat("en-CA",
      { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    zone = { formatter, minute, date: "" };
    zones.set(timeZone, zone);
  }
  const parts = zone.formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  zone.minute = minute;
  zone.date = `${get("year")}-${get("month")}-${get("day")}`;
  return zone.date;
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date in YYYY-MM-DD form (rejects 2025-02-30). */
export function isIsoDate(text: string): boolean {
  const m = DATE_PATTERN.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
