/**
 * Large generated data sets for scale tests and benchmarks: many PSUs, each with one account and a
 * long booked history, from a seed. Booked through the same book-keeping as live payments, in
 * batches, so memory stays flat however many transactions are asked for.
 */
import { addDays, dateInZone, type Clock } from "../lib/clock.js";
import { makeIban } from "../lib/iban.js";
import { newUuid, orderedUuids } from "../lib/ids.js";
import type { Store, Tx } from "../store/db.js";
import type { LedgerAccountRecord } from "../store/ledger.js";
import { newLedgerAccount } from "./book.js";
import { MERCHANTS, prng } from "./demo-data.js";
import { HistoryWriter } from "./history-writer.js";

export interface DataSetRequest {
  store: Store;
  clock: Clock;
  timeZone: string;
  bankCode: string;
  bic: string;
  psus: number;
  transactions: number;
  seed: number;
  /** One password for every generated PSU, hashed once. */
  passwordHash: string;
  progress(done: number, total: number): void;
  /** Bookings per database transaction and per write within one; tests make them small. */
  batches?: { perTransaction: number; perWrite: number };
}

export interface DataSet { firstLogin: string; lastLogin: string; transactions: number }

/**
 * Commits are rare, yet the page cache holds a transaction's pages; bookings held in memory until
 * they are written die young instead of being copied by every garbage collection until the commit.
 */
const BATCHES = { perTransaction: 50_000, perWrite: 500 };
const HISTORY_DAYS = 400;

async function ledgerAccount(
  store: Store, kind: "clearing" | "equity", nowIso: string,
): Promise<LedgerAccountRecord> {
  const existing = await store.ledger.findAccountByKind(store.db, kind, "EUR");
  if (existing) return existing;
  const name = kind === "equity" ? "Equity" : "SEPA clearing";
  const created = newLedgerAccount(`${kind}-eur`, kind, { name }, nowIso);
  await store.ledger.insertAccount(store.db, created);
  return created;
}

export async function generateDataSet(request: DataSetRequest): Promise<DataSet> {
  const { store, clock, psus, transactions, seed, batches = BATCHES } = request;
  const random = prng(seed);
  const nowIso = clock.now().toISOString();
  const today = dateInZone(clock.now(), request.timeZone);
  const bankIds = [(await ledgerAccount(store, "equity", nowIso)).id,
    (await ledgerAccount(store, "clearing", nowIso)).id] as const;
  const writer = new HistoryWriter(new Map(), orderedUuids(clock.now().getTime()));
  const login = (i: number) => `s${seed}-${String(i).padStart(7, "0")}`;
  if (await store.psus.findByLogin(store.db, login(0))) {
    throw new RangeError(`a data set with seed ${seed} exists already; choose another --seed`);
  }
  const start = addDays(today, -HISTORY_DAYS);
  const days = Array.from({ length: HISTORY_DAYS + 1 }, (_, offset) => addDays(start, offset));
  let booked = 0;
  let pending: { psuId: string; login: string; accountId: string }[] = [];
  /** Inserts the pending PSUs, their accounts with final counters, and the booked history. */
  const write = async (tx: Tx) => {
    for (const { psuId, login: l, accountId } of pending) {
      const account = writer.accounts.get(accountId) as LedgerAccountRecord;
      await store.psus.insert(tx, {
        id: psuId, login: l, name: account.ownerName ?? l, passwordHash: request.passwordHash,
        status: "enabled", failedAttempts: 0, blockedUntil: null,
      }, nowIso);
      await store.ledger.insertAccount(tx, account);
      writer.accounts.delete(accountId);
    }
    await store.ledger.insertHistory(tx, writer.transfers, writer.entries);
    booked += writer.transfers.length;
    writer.transfers.length = 0;
    writer.entries.length = 0;
    pending = [];
  };
  let next = 0;
  await store.bulkLoad(async () => {
    while (next < psus) {
      await store.transaction(async (tx) => {
        // Read within the transaction, so that payments a running bank booked meanwhile stay.
        for (const id of bankIds) {
          const account = await store.ledger.getAccount(tx, id, true);
          if (account) writer.accounts.set(id, account);
        }
        const until = booked + batches.perTransaction;
        while (next < psus && booked + writer.transfers.length < until) {
          const i = next++;
          const psuId = newUuid();
          const account = scaleAccount(request, i, psuId, nowIso);
          writer.accounts.set(account.id, account);
          pending.push({ psuId, login: login(i), accountId: account.id });
          const count = Math.floor(transactions / psus) + (i < transactions % psus ? 1 : 0);
          bookHistory(writer, account.id, bankIds, count, days, random);
          if (writer.transfers.length >= batches.perWrite) await write(tx);
        }
        await write(tx);
        for (const id of bankIds) {
          await store.ledger.saveCounters(tx, writer.accounts.get(id) as LedgerAccountRecord);
        }
      });
      request.progress(booked, transactions + psus);
    }
  });
  return { firstLogin: login(0), lastLogin: login(psus - 1), transactions: booked };
}

function scaleAccount(
  request: DataSetRequest, i: number, psuId: string, nowIso: string,
): LedgerAccountRecord {
  // Account numbers 9xxxxxxxxx stay clear of the demo PSUs' and of those opened by the operator.
  const number = `9${String(request.seed % 10)}${String(i).padStart(8, "0")}`;
  return newLedgerAccount(newUuid(), "customer", {
    iban: makeIban("DE", `${request.bankCode}${number}`), psuId, product: "Girokonto",
    usage: "PRIV", bic: request.bic, ownerName: `Scale PSU ${i}`, cashAccountType: "CACC",
  }, nowIso);
}

/**
 * An opening credit on the first of `days`, then `count` card payments and transfers on random
 * later days, oldest first.
 */
function bookHistory(writer: HistoryWriter, accountId: string,
  [equityId, clearingId]: readonly [string, string], count: number, days: readonly string[],
  random: () => number): void {
  writer.book(equityId, accountId, 10_000_000n, days[0] as string,
    { name: "Kontoeroeffnung", iban: "", remittance: "Eroeffnungssaldo", code: "ACMT-MCOP-OTHR" });
  const offsets = Array.from({ length: count }, () => Math.floor(random() * HISTORY_DAYS) + 1);
  for (const offset of offsets.sort((a, b) => a - b)) {
    const day = days[offset] as string;
    const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)] ?? "Merchant";
    const iban = makeIban("DE", `7001${String(Math.floor(random() * 1e9)).padStart(14, "0")}`);
    if (random() < 0.1) {
      writer.book(clearingId, accountId, BigInt(Math.floor(10_000 + random() * 200_000)), day,
        { name: "ACME GmbH", iban, remittance: `Gutschrift ${day}`, code: "PMNT-RCDT-ESCT" });
    } else {
      writer.book(accountId, clearingId, BigInt(Math.floor(100 + random() * 8_000)), day,
        { name: merchant, iban, remittance: `Kartenzahlung ${merchant}`, code: "PMNT-CCRD-POSD" });
    }
  }
}
