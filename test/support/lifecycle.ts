/**
 * Checks a status machine on a real store against a reference model the test writes itself:
 * every event from every status, and random event sequences (fast-check).
 */
import assert from "node:assert/strict";
import { after, before } from "node:test";
import fc from "fast-check";
import type { Payment, TransactionStatus } from "../../src/domain/payment/model.js";
import type { Store } from "../../src/store/db.js";
import { freshStore } from "./engines.js";

export const AT = "2026-05-01T10:00:00.000Z";
export const TPP = "PSDDE-BAFIN-000001";

/** A single payment of TPP at `status`, created at AT, for tests of the store. */
export function storedPayment(
  id: string, status: TransactionStatus, over: Partial<Payment> = {},
): Payment {
  return {
    id, tppId: TPP, service: "payments", product: "sepa-credit-transfers", status,
    statusReason: null, psuId: null,
    debtorAccount: { iban: "DE96500100001000000001", currency: null },
    creditorAccount: { iban: "DE51500100002000000001", currency: null }, creditorName: "Bob",
    creditorAgent: null, creditorAddress: null, amountMinor: 100n, currency: "EUR",
    remittance: null, endToEndId: null, requestedExecutionDate: null, standingOrder: null,
    executions: 0, bulkId: null, batchBooking: null, redirectUri: "https://tpp.example/ok",
    nokRedirectUri: null, createdAt: AT, updatedAt: AT, vop: null, vopOverriddenAt: null, ...over,
  };
}

/** A fresh SQLite store with one TPP, for the file's tests; the getter answers once it is open. */
export function storeWithTpp(): () => Store {
  let store: Store | undefined;
  let close: () => Promise<void> = async () => undefined;
  before(async () => {
    ({ store, close } = await freshStore("sqlite"));
    await store.db.insertInto("tpps").values({ id: TPP, name: "TPP", blocked: 0, created_at: AT })
      .execute();
  });
  after(() => close());
  return () => {
    assert.ok(store, "the store opens before the tests");
    return store;
  };
}

export interface Machine<S extends string, E extends string> {
  statuses: readonly S[];
  events: readonly E[];
  /** The reference model: the status `event` leads to, undefined when it must be refused. */
  model(status: S, event: E): S | undefined;
  /** A new resource in `status`; answers its id. */
  insert(status: S): Promise<string>;
  /** Applies `event` through the code under test; answers whether it changed the status. */
  apply(id: string, event: E): Promise<boolean>;
  statusOf(id: string): Promise<S | undefined>;
}

/** Every event from every status: allowed moves to the model's status, else nothing changes. */
export async function walkEveryEvent<S extends string, E extends string>(m: Machine<S, E>) {
  for (const from of m.statuses) {
    for (const event of m.events) {
      const id = await m.insert(from);
      const expected = m.model(from, event);
      assert.equal(await m.apply(id, event), expected !== undefined, `${event} from ${from}`);
      assert.equal(await m.statusOf(id), expected ?? from, `${event} from ${from}`);
    }
  }
}

/** Random event sequences follow the model, and a status in `final` is never left. */
export async function followsModel<S extends string, E extends string>(
  m: Machine<S, E>, final: readonly S[], numRuns: number,
) {
  const events = fc.array(fc.constantFrom(...m.events), { maxLength: 8 });
  await fc.assert(fc.asyncProperty(fc.constantFrom(...m.statuses), events, async (start, seq) => {
    const id = await m.insert(start);
    let expected = start;
    for (const event of seq) {
      const next = m.model(expected, event);
      assert.equal(await m.apply(id, event), next !== undefined, `${event} from ${expected}`);
      if (final.includes(expected)) assert.equal(next, undefined, `${event} left ${expected}`);
      expected = next ?? expected;
      assert.equal(await m.statusOf(id), expected);
    }
  }), { numRuns });
}
