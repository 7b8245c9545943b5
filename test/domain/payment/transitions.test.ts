/**
 * The payment lifecycle against a reference model written here, independently of the table in
 * src/domain/payment/transitions.ts: every event from every status on a real store (allowed:
 * the new status; otherwise refused and unchanged), then random event sequences (fast-check).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  advanceOrder, movePayment, PAYMENT_EVENTS, PAYMENT_TRANSITIONS, type PaymentEvent,
} from "../../../src/domain/payment/transitions.js";
import type { Payment, TransactionStatus } from "../../../src/domain/payment/model.js";
import {
  AT, followsModel, storedPayment, storeWithTpp, walkEveryEvent, type Machine,
} from "../../support/lifecycle.js";

const STATUSES: readonly TransactionStatus[] = [
  "RCVD", "PDNG", "ACTC", "ACCP", "ACSP", "ACSC", "ACCC", "RJCT", "CANC", "PATC", "PART",
  "RCVC", "RVCM", "RVNC",
];

/** The lifecycle as the spec and our SCA flows describe it; what is not listed is refused. */
type Model = Partial<Record<TransactionStatus, Partial<Record<PaymentEvent, TransactionStatus>>>>;

const RECEIVED = {
  authorise: "ACTC", signPartly: "PATC", decline: "CANC", cancel: "CANC", expireSca: "RJCT",
  refuseSca: "RJCT", bookEntry: "ACSC", refuseEntry: "RJCT", cancelEntry: "CANC",
} as const;

const MODEL: Model = {
  // Received, with the Verification of Payee's outcome in the status or not, or signed by some
  // of the users who must sign (multi-level SCA): the same events; a close or no match the TPP
  // was told of (RVCM) also waits for its creditor confirmation (VOP 1.1), received again.
  RCVD: RECEIVED, RCVC: RECEIVED, RVCM: { ...RECEIVED, confirmCreditor: "RCVD" }, RVNC: RECEIVED,
  PATC: RECEIVED,
  ACTC: {
    cancelAuthorised: "CANC", withdraw: "CANC", book: "ACSC", bookToClearing: "ACSP", refuseBooking: "RJCT",
    bookPartly: "PART", runInstalment: "ACTC", completeOrder: "ACSC",
  },
  ACSP: { settle: "ACCC" },
};

const modelAfter = (status: TransactionStatus, event: PaymentEvent) => MODEL[status]?.[event];

const storeOf = storeWithTpp();
let serial = 0;

function payment(status: TransactionStatus, over: Partial<Payment> = {}): Payment {
  serial += 1;
  return storedPayment(`p-${serial}`, status, over);
}

async function inserted(status: TransactionStatus, over: Partial<Payment> = {}) {
  const p = payment(status, over);
  await storeOf().payments.insert(storeOf().db, p);
  return p;
}

const statusOf = async (id: string) => (await storeOf().payments.find(storeOf().db, id))?.status;

/** Applies `event` the way the domain does: a standing order's events advance its counter. */
async function apply(p: Pick<Payment, "id" | "service" | "bulkId">, event: PaymentEvent) {
  const store = storeOf();
  return store.transaction(async (tx) => {
    if (event !== "runInstalment" && event !== "completeOrder") {
      return movePayment({ store }, tx, p, event, { at: AT });
    }
    const executions = (await store.payments.find(tx, p.id))?.executions ?? 0;
    const nextDate = event === "completeOrder" ? null : "2026-06-01";
    const change = { at: AT, nextDate, reason: null };
    return advanceOrder({ store }, tx, { id: p.id, executions }, change);
  });
}

const machine: Machine<TransactionStatus, PaymentEvent> = {
  statuses: STATUSES, events: PAYMENT_EVENTS, model: modelAfter,
  insert: async (status) => (await inserted(status)).id,
  apply: (id, event) => apply({ id, service: "payments", bulkId: null }, event),
  statusOf,
};

test("every event from every status: allowed moves to the model's status, else nothing", () =>
  walkEveryEvent(machine));

test("a bulk ending unbooked takes its payments still RCVD along; booked ones stay", async () => {
  for (const [event, to] of [["cancel", "CANC"], ["expireSca", "RJCT"]] as const) {
    const bulk = await inserted("RCVD", { service: "bulk-payments" });
    const waiting = await inserted("RCVD", { service: "bulk-payments", bulkId: bulk.id });
    const booked = await inserted("ACSC", { service: "bulk-payments", bulkId: bulk.id });
    assert.ok(await apply(bulk, event));
    assert.equal(await statusOf(waiting.id), to);
    assert.equal(await statusOf(booked.id), "ACSC");
  }
  const single = await inserted("RCVD");
  const notAnEntry = await inserted("RCVD", { bulkId: null });
  assert.ok(await apply(single, "cancel"));
  assert.equal(await statusOf(notAnEntry.id), "RCVD");
});

test("a partly booked bulk is PART; only a partial signature leads to PATC", () => {
  assert.equal(PAYMENT_TRANSITIONS.bookPartly.to, "PART");
  assert.deepEqual(PAYMENT_EVENTS.filter((e) =>
    (PAYMENT_TRANSITIONS[e].to as TransactionStatus) === "PATC"), ["signPartly"]);
});

/** Statuses a payment never leaves; everything else moves forward only. */
const FINAL: readonly TransactionStatus[] = ["ACSC", "ACCC", "RJCT", "CANC", "PART"];

test("random event sequences follow the model, never leave a final status", () =>
  followsModel(machine, FINAL, 150));

test("of two racing events allowed from the same status, exactly one wins", async () => {
  const pairs = fc.tuple(fc.constantFrom(...PAYMENT_EVENTS), fc.constantFrom(...PAYMENT_EVENTS));
  await fc.assert(fc.asyncProperty(fc.constantFrom("RCVD", "PATC", "ACTC", "ACSP"), pairs,
    async (start, [a, b]) => {
      const p = await inserted(start);
      const wins = await Promise.all([apply(p, a), apply(p, b)]);
      const [first, second] = [modelAfter(start, a), modelAfter(start, b)];
      const final = await statusOf(p.id);
      if (wins[0] && wins[1]) {
        // Both may win only when the first leaves the payment where the second may act.
        assert.ok(first && modelAfter(first, b) !== undefined || second && modelAfter(second, a));
      } else {
        assert.equal(final, wins[0] ? first : wins[1] ? second : start);
      }
    }), { numRuns: 100 });
});
