/**
 * Large generated data sets for scale tests and benchmarks: many PSUs, each with one account and a
 * long booked history, from a seed. Booked through the same book-keeping as live payments, in
 * batches, so memory stays flat however many transactions are asked for.
 */
import { addDays, dateInZone, type Clock } from "../lib/clock.js";
import { makeIban } from "../lib/iban.js";
import { newUuid } from "../lib/ids.js";
import type { Store } from "../store/db.js";
import type { LedgerAccountRecord } from "../store/ledger.js";
import { newLedgerAccount } from "./book.js";
import { HistoryWriter, MERCHANTS, prng } from "./demo-data.js";

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
}

export interface DataSet { firstLogin: string; lastLogin: string; transactions: number }

const PSUS_PER_BATCH = 25;
const HISTORY_DAYS = 400;

async function ledgerAccount(store: Store, kind: "clearing" | "equity", nowIso: string): Promise<LedgerAccountRecord> {
  const existing = await store.ledger.findAccountByKind(store.db, kind, "EUR");
  if (existing) return existing;
  const created = newLedgerAccount(`${kind}-eur`, kind, { name: kind === "equity" ? "Equity" : "SEPA clearing" }, nowIso);
  await store.ledger.insertAccount(store.db, created);
  return created;
}

export async function generateDataSet(request: DataSetRequest): Promise<DataSet> {
  const { store, clock, psus, transactions, seed } = request;
  const random = prng(seed);
  const nowIso = clock.now().toISOString();
  const today = dateInZone(clock.now(), request.timeZone);
  const equity = await ledgerAccount(store, "equity", nowIso);
  const clearing = await ledgerAccount(store, "clearing", nowIso);
  const writer = new HistoryWriter(new Map([[equity.id, equity], [clearing.id, clearing]]));
  const login = (i: number) => `s${seed}-${String(i).padStart(7, "0")}`;
  if (await store.psus.findByLogin(store.db, login(0))) {
    throw new RangeError(`a data set with seed ${seed} exists already; choose another --seed`);
  }
  let booked = 0;
  for (let first = 0; first < psus; first += PSUS_PER_BATCH) {
    const batch: { psuId: string; login: string; account: LedgerAccountRecord }[] = [];
    for (let i = first; i < Math.min(psus, first + PSUS_PER_BATCH); i++) {
      const psuId = newUuid();
      const account = newLedgerAccount(newUuid(), "customer", {
        // Account numbers 9xxxxxxxxx stay clear of the demo PSUs' and of those opened by the operator.
        iban: makeIban("DE", `${request.bankCode}9${String(seed % 10)}${String(i).padStart(8, "0")}`), psuId,
        product: "Girokonto", usage: "PRIV", bic: request.bic, ownerName: `Scale PSU ${i}`, cashAccountType: "CACC",
      }, nowIso);
      writer.accounts.set(account.id, account);
      batch.push({ psuId, login: login(i), account });
      const count = Math.floor(transactions / psus) + (i < transactions % psus ? 1 : 0);
      bookHistory(writer, account.id, clearing.id, equity.id, count, today, random);
    }
    await store.transaction(async (tx) => {
      for (const { psuId, login: l, account } of batch) {
        await store.psus.insert(tx, { id: psuId, login: l, name: account.ownerName ?? l, passwordHash: request.passwordHash,
          status: "enabled", failedAttempts: 0, blockedUntil: null }, nowIso);
        await store.ledger.insertAccount(tx, writer.accounts.get(account.id) ?? account);
      }
      await store.ledger.insertHistory(tx, writer.transfers, writer.entries);
      for (const id of [equity.id, clearing.id]) {
        const current = writer.accounts.get(id);
        if (current) await store.ledger.saveCounters(tx, current);
      }
    });
    booked += writer.transfers.length;
    writer.transfers.length = 0;
    writer.entries.length = 0;
    for (const { account } of batch) writer.accounts.delete(account.id);
    request.progress(booked, transactions + psus);
  }
  return { firstLogin: login(0), lastLogin: login(psus - 1), transactions: booked };
}

/** An opening credit, then `count` card payments and transfers on random days, oldest first. */
function bookHistory(writer: HistoryWriter, accountId: string, clearingId: string, equityId: string, count: number,
  today: string, random: () => number): void {
  const start = addDays(today, -HISTORY_DAYS);
  writer.book(equityId, accountId, 10_000_000n, start, { name: "Kontoeroeffnung", iban: "", remittance: "Eroeffnungssaldo",
    code: "ACMT-MCOP-OTHR" });
  const days = Array.from({ length: count }, () => Math.floor(random() * HISTORY_DAYS) + 1).sort((a, b) => a - b);
  for (const offset of days) {
    const day = addDays(start, offset);
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
