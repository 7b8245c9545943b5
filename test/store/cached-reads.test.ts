/**
 * The read cache as a decorator over the repositories (src/store/cached-reads.ts): the reads
 * every request repeats are answered from the cache outside a transaction, read afresh inside
 * one, and read again once anything changed the database.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { AT, storeWithTpp, TPP } from "../support/lifecycle.js";

const storeOf = storeWithTpp();

const consent = (id: string) => ({
  id, tppId: TPP, status: "received" as const, psuId: null,
  access: {
    accounts: [], balances: [], transactions: [], availableAccounts: null,
    availableAccountsWithBalance: null, allPsd2: "allAccounts",
  },
  recurringIndicator: true, validUntil: "2026-12-31", frequencyPerDay: 4,
  combinedServiceIndicator: false, redirectUri: "https://tpp.example/ok", nokRedirectUri: null,
  createdAt: AT, updatedAt: AT, authorisedAt: null,
});

test("outside a transaction a repeated read is the cached answer, until the database changes",
  async () => {
    const store = storeOf();
    await store.consents.insert(store.db, consent("c-cached"));
    const first = await store.consents.findForTpp(store.db, "c-cached", TPP);
    assert.ok(first && Object.isFrozen(first));
    assert.equal(await store.consents.findForTpp(store.db, "c-cached", TPP), first);
    assert.equal(await store.consents.findForTpp(store.db, "c-cached", "PSDDE-OTHER"), undefined);
    const inside = await store.transaction((tx) => store.consents.findForTpp(tx, "c-cached", TPP));
    assert.ok(inside && inside !== first && !Object.isFrozen(inside));
    await store.consents.transition(store.db, "c-cached", ["received"], "valid", { at: AT });
    assert.equal((await store.consents.findForTpp(store.db, "c-cached", TPP))?.status, "valid");
    assert.equal(await store.tpps.isBlocked(store.db, TPP), false);
  });

test("a consent with its grants is one read, of this TPP's consent only", async () => {
  const store = storeOf();
  await store.consents.insert(store.db, consent("c-granted"));
  await store.consents.insert(store.db, consent("c-bare"));
  await sql`insert into ledger_accounts (id, kind, currency, status,
    debits_must_not_exceed_credits, created_at) values ('acc-1', 'customer', 'EUR', 'enabled', 1,
    ${AT}), ('acc-2', 'customer', 'EUR', 'enabled', 1, ${AT}), ('acc-3', 'customer', 'EUR',
    'enabled', 1, ${AT})`.execute(store.db);
  await store.consents.grantAccounts(store.db, "c-granted", [
    { accountId: "acc-2", balances: false, transactions: true },
    { accountId: "acc-1", balances: true, transactions: false },
  ]);
  const found = await store.consents.findForTppWithGrants(store.db, "c-granted", TPP);
  assert.equal(found?.consent.id, "c-granted");
  assert.deepEqual(found?.granted, [
    { accountId: "acc-1", balances: true, transactions: false },
    { accountId: "acc-2", balances: false, transactions: true },
  ]);
  assert.deepEqual((await store.consents.findForTppWithGrants(store.db, "c-bare", TPP))?.granted,
    []);
  assert.equal(
    await store.consents.findForTppWithGrants(store.db, "c-granted", "PSDDE-OTHER"), undefined);
  await store.consents.grantAccounts(store.db, "c-bare",
    [{ accountId: "acc-3", balances: true, transactions: true }]);
  assert.equal(
    (await store.consents.findForTppWithGrants(store.db, "c-bare", TPP))?.granted.length, 1);
});
