/**
 * The embedded ledger's statements and balances, read from the entries the book-keeping wrote:
 * each balance is the balance after an entry or the account's counters, so it always equals the
 * sum of the postings a statement lists.
 */
import type {
  Balance, BookedTransaction, CoreBanking, PendingTransaction, StatementPage, StatementQuery,
} from "../domain/account-information/core-banking.js";
import { addDays, dateInZone, type Clock } from "../lib/clock.js";
import type { Tx } from "../store/db.js";
import type { LedgerRepository } from "../store/ledger.js";
import {
  pendingRepository, statementRepository as statements, type BalanceAfter,
} from "../store/statements.js";
import { availableBalance, bookedBalance } from "./book.js";

export interface StatementOptions {
  ledger: LedgerRepository;
  clock: Clock;
  timeZone: string;
  /** The store's cache (Store.cached): balances are asked for far more often than they change. */
  cached: <T>(tx: Tx, key: string, read: () => Promise<T>) => Promise<T>;
  /** True where `tx` reads only what is committed (the database, not a transaction in it). */
  committed?: (tx: Tx) => boolean;
}

/** Kept at most, per process: each is a few dozen bytes. */
const FIRST_SEQS_KEPT = 10_000;

/**
 * The first seq booked on or after a date, asked for once per account and date: once there is
 * one it never changes, since entries are only appended and their booking dates never go
 * backwards (a later entry books on the same day or a later one, also after a rollback).
 */
function firstSeqsOnce() {
  let known = new Map<string, bigint>();
  return async (tx: Tx, accountId: string, date: string): Promise<bigint | null> => {
    const key = `${accountId} ${date}`;
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const seq = await statements.firstSeqFrom(tx, accountId, date);
    if (seq === null) return null;
    if (known.size >= FIRST_SEQS_KEPT) known = new Map();
    known.set(key, seq);
    return seq;
  };
}

type FirstSeqFrom = ReturnType<typeof firstSeqsOnce>;

/** Kept at most, per process: each is about a kilobyte with its presented form (api). */
const ENTRIES_KEPT = 5_000;

/** Ranges read once and not kept, remembered at most, per process: each is a short key. */
const RANGES_SEEN = 10_000;

type Entries = Promise<BookedTransaction[]>;

/**
 * Entries fromSeq..toSeq, read from the database until a range is asked for a second time, then
 * kept: a committed entry never changes (they are only appended, never updated or deleted), so
 * the same object serves every later page that lists it, and its presented form with it. A range
 * counts as asked again on its second read, or when another page asks for it while it is being
 * read. A delta list reads each range of a long history once: keeping those entries made each
 * outlive the young generation, and collecting them was half of such a page's CPU. Only committed
 * reads are kept: an entry a transaction sees may still be rolled back and its seq given to
 * another. Concurrent pages of one range share its read: a delta list's requests of one wave all
 * ask for the same next page at once, and on PostgreSQL each read the same 100 rows before. Kept
 * by seq as a number, not its string.
 */
function entriesOnce(committed: (tx: Tx) => boolean) {
  let known = new Map<string, Map<number, BookedTransaction>>();
  let kept = 0;
  const reading = new Map<string, Entries>();
  /** The kept object of each entry read: the one kept before when another read got it first. */
  function keep(accountId: string, read: BookedTransaction[]) {
    if (kept + read.length > ENTRIES_KEPT) {
      known = new Map();
      kept = 0;
    }
    const into = known.get(accountId) ?? new Map<number, BookedTransaction>();
    known.set(accountId, into);
    return read.map((entry) => {
      const seq = Number(entry.entryReference);
      const before = into.get(seq);
      if (before) return before;
      kept += 1;
      into.set(seq, Object.freeze(entry));
      return entry;
    });
  }
  let seen = new Set<string>();
  /** True when `key` was read before; remembers it otherwise. */
  function readBefore(key: string) {
    if (seen.delete(key)) return true;
    if (seen.size >= RANGES_SEEN) seen = new Set();
    seen.add(key);
    return false;
  }
  function readShared(tx: Tx, accountId: string, from: number, to: number): Entries {
    const key = `${accountId} ${from} ${to}`;
    const pending = reading.get(key);
    if (pending) return pending.then((entries) => keep(accountId, entries));
    const again = readBefore(key);
    const read = statements.between(tx, accountId, BigInt(from), BigInt(to))
      .then((entries) => (again ? keep(accountId, entries) : entries));
    reading.set(key, read);
    const done = () => reading.delete(key);
    read.then(done, done);
    return read;
  }
  return async (tx: Tx, accountId: string, fromSeq: bigint, toSeq: bigint) => {
    if (!committed(tx)) return statements.between(tx, accountId, fromSeq, toSeq);
    const [from, to] = [Number(fromSeq), Number(toSeq)];
    const ofAccount = known.get(accountId);
    const found: BookedTransaction[] = [];
    for (let seq = from; ofAccount && seq <= to; seq++) {
      const hit = ofAccount.get(seq);
      if (!hit) break;
      found.push(hit);
    }
    const start = from + found.length;
    if (start > to) return found;
    return found.concat(await readShared(tx, accountId, start, to));
  };
}

/** The seq range a query covers, from index seeks; null when it is empty. */
async function seqRange(tx: Tx, accountId: string, q: StatementQuery,
  { firstSeqFrom, lastSeq }: {
    firstSeqFrom: FirstSeqFrom; lastSeq: (dateTo: string) => Promise<bigint | null>;
  }) {
  let first = q.dateFrom === null ? 1n : await firstSeqFrom(tx, accountId, q.dateFrom);
  const last = await lastSeq(q.dateTo);
  if (first === null || last === null) return null;
  if (q.entryReferenceFrom !== null) {
    const after = BigInt(q.entryReferenceFrom) + 1n;
    if (after > first) first = after;
  }
  return first <= last ? { first, last } : null;
}

/**
 * The last seq booked on or before `dateTo`. Up to today it is the account's entry count, from
 * the account row most requests read anyway (cached): nothing is booked on a later day.
 */
async function lastSeqUntil({ ledger, clock, timeZone, cached }: StatementOptions, tx: Tx,
  accountId: string, dateTo: string): Promise<bigint | null> {
  if (dateTo < dateInZone(clock.now(), timeZone)) {
    return statements.lastSeqUntil(tx, accountId, dateTo);
  }
  const account = await cached(tx, `ledger-account:${accountId}`,
    () => ledger.getAccount(tx, accountId));
  const count = account?.entryCount ?? 0n;
  return count > 0n ? count : null;
}

export function createStatements(options: StatementOptions):
  Pick<CoreBanking, "statement" | "transaction" | "bookingOf" | "balances" | "pending"> {
  const { ledger, clock, timeZone, cached } = options;
  const firstSeqFrom = firstSeqsOnce();
  const between = entriesOnce(options.committed ?? (() => false));
  async function statement(tx: Tx, accountId: string, q: StatementQuery): Promise<StatementPage> {
    const range = await seqRange(tx, accountId, q,
      { firstSeqFrom, lastSeq: (dateTo) => lastSeqUntil(options, tx, accountId, dateTo) });
    if (!range) return { transactions: [], page: 0, pageCount: 1 };
    const size = BigInt(q.pageSize);
    const count = range.last - range.first + 1n;
    const pageCount = Number((count + size - 1n) / size);
    const page = Math.min(q.page, pageCount - 1);
    const from = range.first + BigInt(page) * size;
    const to = from + size - 1n < range.last ? from + size - 1n : range.last;
    const rows = await between(tx, accountId, from, to);
    return { transactions: rows, page, pageCount };
  }

  async function transaction(tx: Tx, accountId: string, transactionId: string) {
    return statements.byTransfer(tx, accountId, transactionId);
  }

  async function bookingOf(tx: Tx, accountId: string, bookingId: string) {
    const transferId = await ledger.transferOfPayment(tx, bookingId);
    return transferId === undefined ? undefined : transaction(tx, accountId, transferId);
  }
  /** closingBooked at the end of yesterday; interimAvailable and expected as of now. */
  async function balances(tx: Tx, accountId: string): Promise<Balance[]> {
    const today = dateInZone(clock.now(), timeZone);
    return cached(tx, `balances:${accountId}:${today}`, () => balancesOn(tx, accountId, today));
  }

  async function balancesOn(tx: Tx, accountId: string, today: string): Promise<Balance[]> {
    const account = await ledger.getAccount(tx, accountId);
    if (!account) return [];
    const yesterday = addDays(today, -1);
    const lastSeq = await statements.lastSeqUntil(tx, accountId, yesterday);
    const closing = lastSeq === null ? undefined : await statements.bySeq(tx, accountId, lastSeq);
    const latest = account.entryCount > 0n
      ? await statements.bySeq(tx, accountId, account.entryCount) : undefined;
    const of = (balanceType: Balance["balanceType"], amountMinor: bigint, referenceDate: string,
      lastChange: BalanceAfter | undefined): Balance => ({
      balanceType, amountMinor, currency: account.currency, referenceDate,
      lastChangeDateTime: lastChange?.bookedAt ?? null,
    });
    const expected = bookedBalance(account) + account.creditsPending - account.debitsPending;
    return [
      of("closingBooked", closing?.balanceAfter ?? 0n, yesterday, closing),
      of("expected", expected, today, latest),
      of("interimAvailable", availableBalance(account), today, latest),
    ];
  }

  const pending = (tx: Tx, accountId: string) => pendingOf(ledger, tx, accountId);
  return { statement, transaction, bookingOf, balances, pending };
}

/** Outgoing ones name the counterparty as creditor, incoming ones as debtor. */
async function pendingOf(
  ledger: StatementOptions["ledger"], tx: Tx, accountId: string,
): Promise<PendingTransaction[]> {
  const account = await ledger.getAccount(tx, accountId);
  return (await pendingRepository.ofAccount(tx, accountId)).map((p) => {
    const out = p.amount < 0n;
    const own = { name: account?.ownerName ?? null, iban: account?.iban ?? null };
    const other = { name: p.counterpartyName, iban: p.counterpartyIban };
    const [creditor, debtor] = out ? [other, own] : [own, other];
    return {
      transactionId: p.id, transactionDate: p.transactionDate, amountMinor: p.amount,
      currency: p.currency, creditorName: creditor.name, creditorIban: creditor.iban,
      debtorName: debtor.name, debtorIban: debtor.iban,
      remittance: p.remittance, bankTransactionCode: p.bankTransactionCode,
    };
  });
}
