/**
 * The transaction list's query parameters (Berlin Group 1.3, notes 4.1) read into a
 * StatementQuery, and the RTS art. 10a rule on history older than 90 days.
 */
import { addDays, isIsoDate } from "../../lib/clock.js";
import type { StatementQuery } from "./core-banking.js";
import { formatError, parameterNotSupported, periodInvalid } from "../kernel/errors.js";

/** information: the account's standing orders instead of transactions (Berlin Group). */
export type BookingStatus = "booked" | "pending" | "both" | "information";

/** deltaList: everything after what this consent was given last time, one page per request. */
export interface TransactionQuery extends StatementQuery {
  bookingStatus: BookingStatus; deltaList: boolean;
}

const ITEMS_PER_PAGE_MAX = 500;
const ITEMS_PER_PAGE_DEFAULT = 100;
export const OLD_HISTORY_DAYS = 90;
export const OLD_HISTORY_WINDOW_MS = 60 * 60 * 1000;

function readBookingStatus(value: string | undefined): BookingStatus {
  if (value === undefined) {
    throw formatError("query", "bookingStatus", "bookingStatus is required.");
  }
  if (value === "booked" || value === "pending" || value === "both" || value === "information") {
    return value;
  }
  if (value === "all") {
    throw parameterNotSupported("bookingStatus",
      "bookingStatus=all is not supported; use booked, pending, both or information.");
  }
  throw formatError("query", "bookingStatus",
    "bookingStatus must be booked, pending, both or information.");
}

function readDate(query: Query, name: string): string | null {
  const value = query[name];
  if (value === undefined) return null;
  if (!isIsoDate(value)) throw formatError("query", name, `${name} must be a date (YYYY-MM-DD).`);
  return value;
}

type Query = Record<string, string | undefined>;

function readCount(query: Query, name: string, min: number, max: number, fallback: number): number {
  const value = query[name];
  if (value === undefined) return fallback;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw formatError("query", name, `${name} must be an integer from ${min} to ${max}.`);
  }
  return n;
}

/** Throws FORMAT_ERROR, PARAMETER_NOT_SUPPORTED (bookingStatus) and PERIOD_INVALID. */
export function readTransactionQuery(query: Query, today: string): TransactionQuery {
  const bookingStatus = readBookingStatus(query.bookingStatus);
  if (query.deltaList !== undefined && query.deltaList !== "true" && query.deltaList !== "false") {
    throw formatError("query", "deltaList", "deltaList must be true or false.");
  }
  const deltaList = query.deltaList === "true";
  if (deltaList && (query.entryReferenceFrom !== undefined || query.dateFrom !== undefined)) {
    throw formatError("query", "deltaList",
      "Use deltaList alone, without entryReferenceFrom or dateFrom.");
  }
  const entryReferenceFrom = query.entryReferenceFrom ?? null;
  if (entryReferenceFrom !== null && !/^\d{1,18}$/.test(entryReferenceFrom)) {
    throw formatError("query", "entryReferenceFrom",
      "entryReferenceFrom must be an entryReference of this account.");
  }
  const dateFrom = readDate(query, "dateFrom");
  if (dateFrom === null && entryReferenceFrom === null && !deltaList) {
    throw formatError("query", "dateFrom",
      "dateFrom is required unless entryReferenceFrom or deltaList is given.");
  }
  const dateTo = readDate(query, "dateTo") ?? today;
  if (dateFrom !== null && dateFrom > today) {
    throw periodInvalid("dateFrom lies in the future.");
  }
  if (dateFrom !== null && dateTo < dateFrom) {
    throw formatError("query", "dateTo", "dateTo must not be before dateFrom.");
  }
  return {
    bookingStatus, deltaList, dateFrom, dateTo, entryReferenceFrom,
    page: readCount(query, "pageIndex", 0, 1_000_000_000, 0),
    pageSize: readCount(query, "itemsPerPage", 1, ITEMS_PER_PAGE_MAX, ITEMS_PER_PAGE_DEFAULT),
  };
}

/**
 * RTS art. 10a: history older than 90 days only within an hour of the PSU's authentication.
 * An explicit older dateFrom after that hour is refused; a delta read (entryReferenceFrom
 * without dateFrom) is cut at 90 days instead, so it keeps working for the consent's lifetime.
 * `authorisedAt` is asked for only when the query reaches back further than 90 days.
 */
export async function applyHistoryWindow<Q extends StatementQuery>(q: Q, today: string, now: Date,
  authorisedAt: () => Promise<string | null>): Promise<Q> {
  const oldest = addDays(today, -OLD_HISTORY_DAYS);
  if (q.dateFrom !== null && q.dateFrom >= oldest) return q;
  const at = await authorisedAt();
  if (at !== null && now.getTime() - Date.parse(at) <= OLD_HISTORY_WINDOW_MS) return q;
  if (q.dateFrom === null) return { ...q, dateFrom: oldest };
  throw periodInvalid(`Transactions older than ${OLD_HISTORY_DAYS} days are available only`
    + " within one hour after the PSU's authentication.");
}

const LIST_ONLY = ["deltaList", "entryReferenceFrom", "pageIndex", "itemsPerPage"] as const;

/** A statement file's query (camt, MT940): a range of days from dateFrom, whole, unpaged. */
export function readFileQuery(query: Query, today: string): TransactionQuery {
  const listOnly = LIST_ONLY.find((name) => query[name] !== undefined);
  if (listOnly) {
    throw parameterNotSupported(listOnly,
      `${listOnly} applies to the JSON list; a statement file covers its whole range.`);
  }
  if (query.dateFrom === undefined) {
    throw formatError("query", "dateFrom", "dateFrom is required for a statement file.");
  }
  const parsed = readTransactionQuery(query, today);
  if (parsed.bookingStatus === "information") {
    throw parameterNotSupported("bookingStatus",
      "Standing orders are listed in JSON only; use booked, pending or both.");
  }
  return parsed;
}
