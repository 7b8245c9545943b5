/**
 * Property test of the embedded core over a real SQLite file: random sequences of payments
 * (between customers, to other banks, replays of earlier ids), with an overdraft and a daily
 * limit, checked after every step: debits equal credits, no account below its limit, postings
 * never change, a replayed id books nothing, every booked payment has exactly one transfer.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import type { CoreBanking, PaymentOrder } from "../../src/domain/core-banking.js";
import { availableBalance } from "../../src/ledger/book.js";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { seedDemoData } from "../../src/ledger/demo-data.js";
import { manualClock } from "../../src/lib/clock.js";
import { newPaymentId } from "../../src/lib/ids.js";
import { hashPassword } from "../../src/sca/passwords.js";
import { openStore, type Store } from "../../src/store/db.js";
import type { LedgerAccountRecord } from "../../src/store/ledger.js";

const TIME_ZONE = "Europe/Berlin";
const OVERDRAFT = 5_000n;
const DAILY_LIMIT = 2_000_000n;
const EXTERNAL_IBAN = "FR1420041010050500013M02606";

let dir: string;
let store: Store;
let core: CoreBanking;
const clock = manualClock(new Date("2026-03-16T09:00:00.000Z"));

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "psd2-bank-property-"));
  store = await openStore({ dataDir: dir, databaseUrl: "" });
  await seedDemoData({ store, clock, timeZone: TIME_ZONE, bic: "DEMODEFFXXX", hashPassword });
  core = createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: TIME_ZONE, bankCode: "50010000", bic: "DEMODEFFXXX",
    limits: { overdraftMinor: OVERDRAFT, dailyPaymentLimitMinor: DAILY_LIMIT },
  });
});
after(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

type Step =
  | { kind: "pay"; debtor: number; creditor: number; amount: bigint }
  | { kind: "replay"; which: number }
  | { kind: "nextDay" };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    kind: fc.constant("pay" as const), debtor: fc.nat(5), creditor: fc.nat(6),
    amount: fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 1n, max: 3_000_000n })),
  }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("replay" as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "nextDay" as const }) },
);

async function customers(): Promise<LedgerAccountRecord[]> {
  return (await store.ledger.allAccounts(store.db)).filter((a) => a.kind === "customer");
}

async function allEntries() {
  return store.db.selectFrom("entries").selectAll().orderBy("account_id").orderBy("seq").execute();
}

/** The books as an auditor sees them after a step. */
async function audit(seen: Map<string, string>, booked: Set<string>) {
  const accounts = await store.ledger.allAccounts(store.db);
  const debits = accounts.reduce((sum, a) => sum + a.debitsPosted, 0n);
  const credits = accounts.reduce((sum, a) => sum + a.creditsPosted, 0n);
  assert.equal(debits, credits, "debits differ from credits");
  for (const a of accounts) {
    if (!a.debitsMustNotExceedCredits) continue;
    assert.ok(availableBalance(a) >= -OVERDRAFT, `${a.id} below its limit`);
  }
  for (const entry of await allEntries()) {
    const key = `${entry.account_id}#${entry.seq}`;
    const text = JSON.stringify(entry, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    const earlier = seen.get(key);
    if (earlier !== undefined) assert.equal(text, earlier, `posting ${key} changed`);
    seen.set(key, text);
  }
  const transfers = await store.db.selectFrom("transfers").select("payment_id")
    .where("payment_id", "is not", null).execute();
  const ids = transfers.map((t) => String(t.payment_id));
  assert.equal(new Set(ids).size, ids.length, "a payment was booked twice");
  assert.deepEqual(new Set(ids), booked);
}

async function run(steps: Step[], seen: Map<string, string>, booked: Set<string>) {
  const orders: PaymentOrder[] = [];
  for (const step of steps) {
    if (step.kind === "nextDay") clock.advance(86_400_000);
    if (step.kind === "replay" && orders.length > 0) {
      const order = orders[step.which % orders.length];
      assert.ok(order);
      const outcome = await store.transaction((tx) => core.executePayment(tx, order));
      assert.notEqual(outcome.status, "booked", "a replayed payment id was booked again");
    }
    if (step.kind === "pay") {
      const accounts = await customers();
      const debtor = accounts[step.debtor % accounts.length];
      const creditor = accounts[step.creditor % accounts.length];
      assert.ok(debtor && creditor);
      const order: PaymentOrder = {
        paymentId: newPaymentId(), debtorAccountId: debtor.id, debtorName: debtor.ownerName,
        creditorIban: step.creditor === 6 ? EXTERNAL_IBAN : creditor.iban ?? EXTERNAL_IBAN,
        creditorName: "Payee", amountMinor: step.amount, currency: "EUR",
        remittance: null, endToEndId: null,
      };
      orders.push(order);
      const outcome = await store.transaction((tx) => core.executePayment(tx, order));
      if (outcome.status === "booked") booked.add(order.paymentId);
    }
    await audit(seen, booked);
  }
}

test("random payments, replays and day changes keep the books exact after every step",
  async () => {
    const seen = new Map<string, string>();
    const booked = new Set<string>();
    await audit(seen, booked);
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 15 }),
        (steps) => run(steps, seen, booked)),
      { numRuns: 12 },
    );
    assert.ok(booked.size > 0, "no payment was ever booked: the property tested nothing");
  });
