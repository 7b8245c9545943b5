/**
 * A page of transactions answered from kept bytes (api/page-body.ts): a page asked for again with
 * the same kept entries is the same buffer, any change to the page or its entries a new one.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import Fastify from "fastify";
import type { BookedTransaction } from "../../src/domain/account-information/core-banking.js";
import type { TransactionsView } from "../../src/domain/consent/accounts.js";
import { pageBodies } from "../../src/api/page-body.js";

const entrySchema = {
  type: "object",
  properties: { entryReference: { type: "string" }, remittance: { type: ["string", "null"] } },
};

const pageSchema = {
  type: "object",
  properties: {
    transactions: {
      type: "object",
      properties: { booked: { type: "array", items: entrySchema }, page: { type: "integer" } },
    },
  },
};

function entry(seq: number): BookedTransaction {
  return {
    transactionId: `t${seq}`, entryReference: String(seq), endToEndId: null, bookingDate: "2026-11-27",
    valueDate: "2026-11-27", amountMinor: 100n, currency: "EUR", creditorName: null, creditorIban: null,
    debtorName: null, debtorIban: null, remittance: `entry ${seq}`, bankTransactionCode: null,
    balanceAfterMinor: 100n * BigInt(seq),
  };
}

const view = (transactions: BookedTransaction[], page = 0) =>
  ({ page: { transactions, page, pageCount: 2 } }) as unknown as TransactionsView;

/** A route answering the views given in turn; the bodies it returned, as they were returned. */
async function answering(views: TransactionsView[]) {
  const app = Fastify();
  const pageBody = pageBodies(entrySchema,
    (t) => ({ entryReference: t.entryReference, remittance: t.remittance }));
  const bodies: unknown[] = [];
  let turn = 0;
  app.get("/", { schema: { response: { 200: pageSchema } } }, async (_request, reply) => {
    const shown = views[turn++]!;
    const body = pageBody(reply, shown, (v) => ({
      transactions: { booked: v.page.transactions.map((t) => ({ entryReference: t.entryReference,
        remittance: t.remittance })), page: v.page.page },
    }));
    bodies.push(body);
    return body;
  });
  const texts: string[] = [];
  for (let i = 0; i < views.length; i++) texts.push((await app.inject("/")).body);
  await app.close();
  return { bodies, texts };
}

test("a page asked for again with the same kept entries is answered with the same bytes", async () => {
  const kept = [entry(1), entry(2)].map((t) => Object.freeze(t));
  const { bodies, texts } = await answering([view(kept), view([...kept]), view(kept, 1)]);
  assert.ok(Buffer.isBuffer(bodies[0]));
  assert.equal(bodies[1], bodies[0], "kept whole");
  assert.notEqual(bodies[2], bodies[0], "another page's text");
  assert.deepEqual(texts.map((t) => JSON.parse(t)), [0, 0, 1].map((page) => ({
    transactions: { booked: [{ entryReference: "1", remittance: "entry 1" },
      { entryReference: "2", remittance: "entry 2" }], page },
  })));
});

test("a page of other entries, or of entries not kept, is joined anew", async () => {
  const kept = [entry(1), entry(2)].map((t) => Object.freeze(t));
  const other = [kept[0]!, Object.freeze(entry(3))];
  const loose = [entry(1), entry(2)];
  const { bodies, texts } = await answering([view(kept), view(other), view(loose), view(loose)]);
  assert.notEqual(bodies[1], bodies[0], "another entry");
  assert.notEqual(bodies[3], bodies[2], "entries not kept are not kept whole");
  assert.equal(texts[2], texts[0]);
  assert.match(texts[1]!, /"entryReference":"3"/);
});
