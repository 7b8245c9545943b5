/**
 * The read cache as a decorator over the repositories (src/store/cached-reads.ts): the reads
 * every request repeats are answered from the cache outside a transaction, read afresh inside
 * one, and read again once anything changed the database.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
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
