/**
 * Model test for src/ledger/book.ts: random sequences of transfers between a handful of accounts,
 * checked after every step by an auditor that keeps its own reference model of the books
 * (architecture.md 6.6, the Guarantees in book.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { bookedBalance, postTransfer, refuseTransfer } from "../../src/ledger/book.js";
import type { EntryRecord, LedgerAccountRecord } from "../../src/store/ledger.js";

function ledgerAccount(id: string, over: Partial<LedgerAccountRecord>): LedgerAccountRecord {
  return {
    id, iban: null, psuId: null, kind: "customer", currency: "EUR", name: null, product: null,
    cashAccountType: null, status: "enabled", usage: null, bic: null, ownerName: null,
    debitsPosted: 0n, creditsPosted: 0n, debitsPending: 0n, creditsPending: 0n,
    debitsMustNotExceedCredits: true, entryCount: 0n, createdAt: "2026-01-01T00:00:00.000Z",
    corporateId: null, signaturesRequired: 1,
    ...over,
  };
}

/**
 * Equity and clearing are unflagged; the customers are flagged. One customer holds USD (so
 * currency mismatches happen) and one is blocked. Bob opens with 1,000 from equity and a pending
 * debit of 700 that the clearing account carries as a pending credit, so pending sums balance.
 */
function openingBooks(): { accounts: LedgerAccountRecord[]; entries: EntryRecord[] } {
  const accounts = [
    ledgerAccount("equity", { kind: "equity", debitsMustNotExceedCredits: false }),
    ledgerAccount("clearing", { kind: "clearing", debitsMustNotExceedCredits: false }),
    ledgerAccount("alice", {}),
    ledgerAccount("bob", {}),
    ledgerAccount("carol", {}),
    ledgerAccount("dave-usd", { currency: "USD" }),
    ledgerAccount("erin-blocked", { status: "blocked" }),
  ];
  const [equity, clearing, , bob] = accounts;
  assert.ok(equity && clearing && bob);
  const opening = postTransfer(equity, bob, 1_000n, { id: "t-open", bookingDate: "2026-01-01" });
  accounts[0] = opening.debit;
  accounts[1] = { ...clearing, creditsPending: 700n };
  accounts[3] = { ...opening.credit, debitsPending: 700n };
  return { accounts: accounts.map((a) => Object.freeze(a)), entries: [...opening.entries] };
}

const ACCOUNT_COUNT = openingBooks().accounts.length;

interface Step { debit: number; credit: number; amount: bigint }

/** Small amounts often exhaust customers; equity often pays in, so accepts happen too. */
const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  debit: fc.oneof(fc.constant(0), fc.nat({ max: ACCOUNT_COUNT - 1 })),
  credit: fc.nat({ max: ACCOUNT_COUNT - 1 }),
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 100_000n })),
});

/** The auditor's own reference: net balance per account, from accepted transfers only. */
class Auditor {
  readonly balance = new Map<string, bigint>();
  constructor(accounts: readonly LedgerAccountRecord[]) {
    for (const a of accounts) this.balance.set(a.id, bookedBalance(a));
  }

  /** What the book must answer: accept exactly when the model says the transfer is allowed. */
  shouldAccept(debit: LedgerAccountRecord, credit: LedgerAccountRecord, amount: bigint): boolean {
    if (debit.id === credit.id || debit.currency !== credit.currency) return false;
    if (debit.status !== "enabled" || credit.status !== "enabled") return false;
    const available = (this.balance.get(debit.id) ?? 0n) - debit.debitsPending;
    return !debit.debitsMustNotExceedCredits || available >= amount;
  }

  apply(debitId: string, creditId: string, amount: bigint): void {
    this.balance.set(debitId, (this.balance.get(debitId) ?? 0n) - amount);
    this.balance.set(creditId, (this.balance.get(creditId) ?? 0n) + amount);
  }
}

function sumBy(accounts: readonly LedgerAccountRecord[], currency: string,
  pick: (a: LedgerAccountRecord) => bigint): bigint {
  return accounts.filter((a) => a.currency === currency).reduce((s, a) => s + pick(a), 0n);
}

function checkGuarantees(
  accounts: readonly LedgerAccountRecord[], entries: readonly EntryRecord[],
  frozen: readonly EntryRecord[], auditor: Auditor,
): void {
  for (const currency of new Set(accounts.map((a) => a.currency))) {
    assert.equal(sumBy(accounts, currency, (a) => a.debitsPosted),
      sumBy(accounts, currency, (a) => a.creditsPosted), `posted sums in ${currency}`);
    assert.equal(sumBy(accounts, currency, (a) => a.debitsPending),
      sumBy(accounts, currency, (a) => a.creditsPending), `pending sums in ${currency}`);
  }
  for (const a of accounts) {
    if (a.debitsMustNotExceedCredits) {
      assert.ok(a.debitsPosted + a.debitsPending <= a.creditsPosted, `${a.id} overdrawn`);
    }
    const own = entries.filter((e) => e.accountId === a.id);
    assert.equal(BigInt(own.length), a.entryCount, `${a.id} entry count`);
    assert.deepEqual(own.map((e) => e.seq), own.map((_, i) => BigInt(i + 1)), `${a.id} seqs`);
    assert.equal(own.reduce((s, e) => s + e.amount, 0n), bookedBalance(a), `${a.id} sum`);
    assert.equal(own.at(-1)?.balanceAfter ?? 0n, bookedBalance(a), `${a.id} last balanceAfter`);
    assert.equal(auditor.balance.get(a.id), bookedBalance(a), `${a.id} against the auditor`);
  }
  assert.equal(entries.length, frozen.length);
  entries.forEach((e, i) => assert.deepEqual(e, frozen[i], `entry ${i} changed`));
}

test("random transfers keep every ledger guarantee after every step", () => {
  const outcomes = new Set<string>();
  fc.assert(
    fc.property(fc.array(stepArbitrary, { minLength: 1, maxLength: 60 }), (steps) => {
      const opening = openingBooks();
      let accounts = opening.accounts;
      const auditor = new Auditor(accounts);
      const entries = opening.entries.map((e) => Object.freeze(e));
      const frozen = structuredClone(entries);
      steps.forEach((step, n) => {
        const debit = accounts[step.debit];
        const credit = accounts[step.credit];
        assert.ok(debit && credit);
        const before = structuredClone(accounts);
        const refusal = refuseTransfer(debit, credit, step.amount);
        outcomes.add(refusal ?? "accepted");
        assert.equal(refusal === null, auditor.shouldAccept(debit, credit, step.amount),
          `step ${n}: book answered ${refusal}`);
        if (refusal !== null) {
          assert.deepEqual(accounts, before, "a refusal changes nothing");
        } else {
          const booking = postTransfer(debit, credit, step.amount,
            { id: `t-${n}`, bookingDate: "2026-03-15" });
          for (const entry of booking.entries) {
            entries.push(Object.freeze(entry));
            frozen.push(structuredClone(entry));
          }
          const next = new Map([booking.debit, booking.credit].map((a) => [a.id, a]));
          accounts = accounts.map((a) => Object.freeze(next.get(a.id) ?? a));
          auditor.apply(debit.id, credit.id, step.amount);
        }
        checkGuarantees(accounts, entries, frozen, auditor);
      });
    }),
    { seed: 42, numRuns: 200 },
  );
  // The workload is only worth its name if it reached every outcome.
  assert.deepEqual([...outcomes].sort(), [
    "accepted", "account_blocked", "accounts_must_be_different", "currency_mismatch",
    "exceeds_credits",
  ]);
});
