/**
 * The payment lifecycle against a reference model written here, independently of the table in
 * src/domain/payment/transitions.ts: every event from every status on a real store (allowed:
 * the new status; otherwise refused and unchanged), then random event sequences (fast-check).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import {
  advanceOrder, movePayment, PAYMENT_EVENTS, type PaymentEvent,
} from "../../../src/domain/payment/transitions.js";
import type { Payment, TransactionStatus } from "../../../src/domain/payments-model.js";
import type { Store } from "../../../src/store/db.js";
import { freshStore } from "../../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";
const TPP = "PSDDE-BAFIN-000001";

const STATUSES: readonly TransactionStatus[] = [
  "RCVD", "PDNG", "ACTC", "ACCP", "ACSP", "ACSC", "ACCC", "RJCT", "CANC", "PATC", "PART",
];

/** The lifecycle as the spec and our SCA flows describe it; what is not listed is refused. */
const MODEL: Partial<Record<TransactionStatus, Partial<Record<PaymentEvent, TransactionStatus>>>> = {
  RCVD: {
    authorise: "ACTC", decline: "CANC", cancel: "CANC", expireSca: "RJCT",
    bookEntry: "ACSC", refuseEntry: "RJCT", cancelEntry: "CANC",
  },
  ACTC: {
    cancelAuthorised: "CANC", book: "ACSC", bookToClearing: "ACSP", refuseBooking: "RJCT",
    bookPartly: "PATC", runInstalment: "ACTC", completeOrder: "ACSC",
  },
  ACSP: { settle: "ACCC" },
};

const modelAfter = (status: TransactionStatus, event: PaymentEvent) => MODEL[status]?.[event];

let store: Store;
let close: () => Promise<void>;
let serial = 0;

before(async () => {
  ({ store, close } = await freshStore("sqlite"));
  await store.db.insertInto("tpps").values({ id: TPP, name: "TPP", blocked: 0, created_at: AT })
    .execute();
});
after(() => close());

function payment(status: TransactionStatus, over: Partial<Payment> = {}): Payment {
  serial += 1;
  return {
    id: `p-${serial}`, tppId: TPP, service: "payments", product: "sepa-credit-transfers", status,
    statusReason: null, psuId: null, debtorAccount: { iban: "DE96500100001000000001", currency: null },
    creditorAccount: { iban: "DE51500100002000000001", currency: null }, creditorName: "Bob",
    creditorAgent: null, creditorAddress: null, amountMinor: 100n, currency: "EUR",
    remittance: null, endToEndId: null, requestedExecutionDate: null, standingOrder: null,
    executions: 0, bulkId: null, batchBooking: null, redirectUri: "https://tpp.example/ok",
    nokRedirectUri: null, createdAt: AT, updatedAt: AT, ...over,
  };
}

async function inserted(status: TransactionStatus, over: Partial<Payment> = {}) {
  const p = payment(status, over);
  await store.payments.insert(store.db, p);
  return p;
}

const statusOf = async (id: string) => (await store.payments.find(store.db, id))?.status;

/** Applies `event` the way the domain does: a standing order's events advance its counter. */
async function apply(p: Payment, event: PaymentEvent): Promise<boolean> {
  return store.transaction(async (tx) => {
    if (event !== "runInstalment" && event !== "completeOrder") {
      return movePayment({ store }, tx, p, event, { at: AT });
    }
    const executions = (await store.payments.find(tx, p.id))?.executions ?? 0;
    const nextDate = event === "completeOrder" ? null : "2026-06-01";
    return advanceOrder({ store }, tx, { id: p.id, executions }, { at: AT, nextDate, reason: null });
  });
}

test("every event from every status: allowed moves to the model's status, else nothing", async () => {
  for (const from of STATUSES) {
    for (const event of PAYMENT_EVENTS) {
      const p = await inserted(from);
      const expected = modelAfter(from, event);
      assert.equal(await apply(p, event), expected !== undefined, `${event} from ${from}`);
      assert.equal(await statusOf(p.id), expected ?? from, `${event} from ${from}`);
    }
  }
});

test("a bulk that ends unbooked takes its payments still RCVD along; booked ones stay", async () => {
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

/** Statuses a payment never leaves; everything else moves forward only. */
const FINAL: readonly TransactionStatus[] = ["ACSC", "ACCC", "RJCT", "CANC", "PATC"];

test("random event sequences follow the model, never leave a final status", async () => {
  const events = fc.array(fc.constantFrom(...PAYMENT_EVENTS), { maxLength: 8 });
  await fc.assert(fc.asyncProperty(fc.constantFrom(...STATUSES), events, async (start, seq) => {
    const p = await inserted(start);
    let expected = start;
    for (const event of seq) {
      const next = modelAfter(expected, event);
      assert.equal(await apply(p, event), next !== undefined);
      if (FINAL.includes(expected)) assert.equal(next, undefined, `${event} left ${expected}`);
      expected = next ?? expected;
      assert.equal(await statusOf(p.id), expected);
    }
  }), { numRuns: 150 });
});

test("of two racing events allowed from the same status, exactly one wins", async () => {
  const pairs = fc.tuple(fc.constantFrom(...PAYMENT_EVENTS), fc.constantFrom(...PAYMENT_EVENTS));
  await fc.assert(fc.asyncProperty(fc.constantFrom("RCVD", "ACTC", "ACSP"), pairs,
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
