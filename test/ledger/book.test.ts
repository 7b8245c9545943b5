/** Tests for src/ledger/book.ts: the refusal precedence table and the shape of a booking. */
import assert from "node:assert/strict";
import { AssertionError } from "node:assert";
import { describe, test } from "node:test";
import {
  availableBalance, bookedBalance, postTransfer, refuseTransfer, type TransferRefusal,
} from "../../src/ledger/book.js";
import type { LedgerAccountRecord } from "../../src/store/ledger.js";

function ledgerAccount(id: string, over: Partial<LedgerAccountRecord> = {}): LedgerAccountRecord {
  return {
    id, iban: null, psuId: null, kind: "customer", currency: "EUR", name: null, product: null,
    cashAccountType: null, status: "enabled", usage: null, bic: null, ownerName: null,
    debitsPosted: 0n, creditsPosted: 0n, debitsPending: 0n, creditsPending: 0n,
    debitsMustNotExceedCredits: true, entryCount: 0n, createdAt: "2026-01-01T00:00:00.000Z",
    corporateId: null, signaturesRequired: 1,
    ...over,
  };
}

interface Pair { debit: LedgerAccountRecord; credit: LedgerAccountRecord; amount: bigint }

/** A transfer every rule accepts: a funded, flagged debtor paying less than it holds. */
function acceptedPair(): Pair {
  return {
    debit: ledgerAccount("debit", { creditsPosted: 10_000n, debitsPosted: 2_000n, entryCount: 2n }),
    credit: ledgerAccount("credit", { creditsPosted: 500n, entryCount: 1n }),
    amount: 3_000n,
  };
}

/** Descending precedence, as TigerBeetle tests its errors: each row breaks exactly one rule. */
const PRECEDENCE: { name: string; expected: TransferRefusal; breakRule: (p: Pair) => Pair }[] = [
  {
    name: "debit and credit are the same account",
    expected: "accounts_must_be_different",
    breakRule: (p) => ({ ...p, credit: { ...p.credit, id: p.debit.id } }),
  },
  {
    name: "the credit account holds another currency",
    expected: "currency_mismatch",
    breakRule: (p) => ({ ...p, credit: { ...p.credit, currency: "USD" } }),
  },
  {
    name: "the debit account is blocked",
    expected: "account_blocked",
    breakRule: (p) => ({ ...p, debit: { ...p.debit, status: "blocked" } }),
  },
  {
    name: "the credit account is deleted",
    expected: "account_blocked",
    breakRule: (p) => ({ ...p, credit: { ...p.credit, status: "deleted" } }),
  },
  {
    name: "the amount exceeds the flagged debit account's available balance",
    expected: "exceeds_credits",
    breakRule: (p) => ({ ...p, amount: availableBalance(p.debit) + 1n }),
  },
];

describe("refuseTransfer", () => {
  test("accepts a transfer that breaks no rule", () => {
    const { debit, credit, amount } = acceptedPair();
    assert.equal(refuseTransfer(debit, credit, amount), null);
  });

  for (const row of PRECEDENCE) {
    test(`refuses with ${row.expected} when ${row.name}`, () => {
      const { debit, credit, amount } = row.breakRule(acceptedPair());
      assert.equal(refuseTransfer(debit, credit, amount), row.expected);
    });
  }

  test("reports the first broken rule when every later rule is broken as well", () => {
    PRECEDENCE.forEach((row, i) => {
      // Apply the later rows first so that this row's break is the one left standing.
      const later = PRECEDENCE.slice(i).reverse();
      const { debit, credit, amount } = later.reduce((p, r) => r.breakRule(p), acceptedPair());
      assert.equal(refuseTransfer(debit, credit, amount), row.expected, row.name);
    });
  });

  test("accepts a transfer of exactly the available balance", () => {
    const { debit, credit } = acceptedPair();
    assert.equal(refuseTransfer(debit, credit, availableBalance(debit)), null);
  });

  test("counts pending debits against the available balance", () => {
    const { credit } = acceptedPair();
    const debit = ledgerAccount("debit", { creditsPosted: 1_000n, debitsPending: 400n });
    assert.equal(refuseTransfer(debit, credit, 600n), null);
    assert.equal(refuseTransfer(debit, credit, 601n), "exceeds_credits");
  });

  test("lets a flagged account use exactly its overdraft, not a cent more", () => {
    const { credit } = acceptedPair();
    const debit = ledgerAccount("debit", { creditsPosted: 1_000n, debitsPending: 400n });
    assert.equal(refuseTransfer(debit, credit, 650n, 50n), null);
    assert.equal(refuseTransfer(debit, credit, 651n, 50n), "exceeds_credits");
    const transfer = { id: "t", bookingDate: "2026-01-02", overdraft: 50n };
    assert.equal(availableBalance(postTransfer(debit, credit, 650n, transfer).debit), -50n);
    assert.throws(() => postTransfer(debit, credit, 651n, transfer), AssertionError);
  });

  test("lets an unflagged account go below zero", () => {
    const { credit } = acceptedPair();
    const equity = ledgerAccount("equity", { kind: "equity", debitsMustNotExceedCredits: false });
    assert.equal(refuseTransfer(equity, credit, 1_000_000n), null);
  });

  test("asserts that the amount is positive", () => {
    const { debit, credit } = acceptedPair();
    assert.throws(() => refuseTransfer(debit, credit, 0n), AssertionError);
    assert.throws(() => refuseTransfer(debit, credit, -1n), AssertionError);
  });
});

describe("postTransfer", () => {
  const transfer = { id: "t-1", bookingDate: "2026-03-15" };

  test("produces two entries with opposite amounts, the new balances and the next seq", () => {
    const { debit, credit, amount } = acceptedPair();
    const booking = postTransfer(debit, credit, amount, transfer);
    const [debitEntry, creditEntry] = booking.entries;
    assert.deepEqual(debitEntry, {
      accountId: "debit", seq: 3n, transferId: "t-1", amount: -3_000n,
      balanceAfter: 5_000n, bookingDate: "2026-03-15",
    });
    assert.deepEqual(creditEntry, {
      accountId: "credit", seq: 2n, transferId: "t-1", amount: 3_000n,
      balanceAfter: 3_500n, bookingDate: "2026-03-15",
    });
    assert.equal(debitEntry.amount + creditEntry.amount, 0n);
  });

  test("returns new snapshots with the counters moved and leaves its inputs untouched", () => {
    const { debit, credit, amount } = acceptedPair();
    const [debitBefore, creditBefore] = [structuredClone(debit), structuredClone(credit)];
    const booking = postTransfer(Object.freeze(debit), Object.freeze(credit), amount, transfer);
    assert.deepEqual(debit, debitBefore);
    assert.deepEqual(credit, creditBefore);
    assert.deepEqual(booking.debit, { ...debit, debitsPosted: 5_000n, entryCount: 3n });
    assert.deepEqual(booking.credit, { ...credit, creditsPosted: 3_500n, entryCount: 2n });
    assert.equal(bookedBalance(booking.debit), booking.entries[0].balanceAfter);
    assert.equal(bookedBalance(booking.credit), booking.entries[1].balanceAfter);
  });

  test("starts an account's entries at seq 1", () => {
    const equity = ledgerAccount("equity", { kind: "equity", debitsMustNotExceedCredits: false });
    const customer = ledgerAccount("customer");
    const booking = postTransfer(equity, customer, 250n, transfer);
    const seqAndBalance = booking.entries.map((e) => [e.seq, e.balanceAfter]);
    assert.deepEqual(seqAndBalance, [[1n, -250n], [1n, 250n]]);
  });

  for (const row of PRECEDENCE) {
    test(`asserts when called after a refusal: ${row.expected} (${row.name})`, () => {
      const { debit, credit, amount } = row.breakRule(acceptedPair());
      assert.throws(() => postTransfer(debit, credit, amount, transfer), AssertionError);
    });
  }
});
