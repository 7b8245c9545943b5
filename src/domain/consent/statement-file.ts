/**
 * An account's booked entries over a whole range at once, for the files banks hand out
 * (camt.053/052, MT940): read page by page in a bounded loop, with the booked balance at each
 * end taken from the ledger's running balance (balanceAfter), never summed anew.
 */
import { addDays } from "../../lib/clock.js";
import type {
  BookedTransaction, PendingTransaction, StatementPage, StatementQuery,
} from "../account-information/core-banking.js";
import { formatError } from "../kernel/errors.js";
import type { TransactionQuery } from "../account-information/statement-query.js";

export interface StatementFile<A> {
  account: A;
  dateFrom: string;
  dateTo: string;
  /** Oldest first, as the ledger booked them. */
  booked: BookedTransaction[];
  pending: PendingTransaction[];
  /** The booked balance before the first day's first entry, and after the last day's last. */
  openingMinor: bigint;
  closingMinor: bigint;
  /** The range reaches today: a report of what is booked so far, pending included. */
  current: boolean;
}

type Read = (q: StatementQuery) => Promise<StatementPage>;

const PAGE_SIZE = 500;
/** A file holds at most this many entries; a longer range is asked for in parts. */
export const FILE_ENTRIES_MAX = 50_000;

/** The last entry booked before `date`, if any: its balanceAfter is the balance that day opens. */
async function lastBefore(read: Read, date: string): Promise<BookedTransaction | undefined> {
  const before = { dateFrom: null, dateTo: addDays(date, -1), entryReferenceFrom: null };
  const count = await read({ ...before, page: 0, pageSize: 1 });
  if (count.transactions.length === 0) return undefined;
  return (await read({ ...before, page: count.pageCount - 1, pageSize: 1 })).transactions[0];
}

async function bookedBetween(read: Read, dateFrom: string, dateTo: string) {
  const booked: BookedTransaction[] = [];
  const pagesMax = FILE_ENTRIES_MAX / PAGE_SIZE;
  for (let page = 0; page < pagesMax; page++) {
    const found = await read(
      { dateFrom, dateTo, entryReferenceFrom: null, page, pageSize: PAGE_SIZE });
    booked.push(...found.transactions);
    if (page + 1 >= found.pageCount) return booked;
  }
  throw formatError("query", "dateFrom", `More than ${FILE_ENTRIES_MAX} entries in this range: `
    + "ask for fewer days at a time.");
}

/** The range's booked entries (none for bookingStatus=pending) and its two booked balances. */
export async function wholeStatement(read: Read, q: TransactionQuery) {
  const dateFrom = q.dateFrom ?? q.dateTo;
  const opening = (await lastBefore(read, dateFrom))?.balanceAfterMinor ?? 0n;
  const all = await bookedBetween(read, dateFrom, q.dateTo);
  const closingMinor = all.at(-1)?.balanceAfterMinor ?? opening;
  const booked = q.bookingStatus === "pending" ? [] : all;
  return { dateFrom, dateTo: q.dateTo, booked, openingMinor: opening, closingMinor };
}
