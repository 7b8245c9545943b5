/** Tests for src/lib/ids.ts: payment ids, and the ordered ids of generated history. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { isUuid, newPaymentId, newTimeOrderedUuid, orderedUuids } from "../../src/lib/ids.js";

test("ordered ids are UUIDv7-shaped, ascending as text, and differ in their random bits", () => {
  const start = Date.UTC(2026, 2, 15);
  const next = orderedUuids(start);
  const ids = Array.from({ length: 5000 }, () => next());
  for (const id of ids) {
    assert.ok(isUuid(id), id);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  assert.equal(ids[0]?.slice(0, 13).replace("-", ""), start.toString(16).padStart(12, "0"));
  assert.deepEqual([...ids].sort(), ids, "each id sorts after the one before");
  // Two generators from the same start share the counter, never the rest.
  const twin = orderedUuids(start)();
  assert.equal(twin.slice(0, 13), ids[0]?.slice(0, 13));
  assert.notEqual(twin, ids[0]);
  assert.equal(new Set(ids.map((id) => id.slice(14))).size, ids.length, "74 random bits each");
});

test("time-ordered ids carry the time they were made and sort with it", async () => {
  const before = Date.now();
  const first = newTimeOrderedUuid();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const later = newTimeOrderedUuid();
  const after = Date.now();
  for (const id of [first, later]) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const timeOf = (id: string) => parseInt(id.slice(0, 13).replace("-", ""), 16);
  assert.ok(timeOf(first) >= before && timeOf(later) <= after && timeOf(first) < timeOf(later));
  assert.ok(first < later);
});

test("time-ordered ids made within one millisecond count up, 4,096 of them and past", () => {
  const ids = Array.from({ length: 20_000 }, () => newTimeOrderedUuid());
  assert.deepEqual([...ids].sort(), ids, "each id sorts after the one before");
  assert.equal(new Set(ids).size, ids.length);
  const timeOf = (id: string) => parseInt(id.slice(0, 13).replace("-", ""), 16);
  assert.ok(timeOf(ids.at(-1) ?? "") <= Date.now() + ids.length / 4096 + 1, "at most a few ms ahead");
});

test("payment ids are 32 hex digits, each from bytes of its own across refills of the pool", () => {
  const ids = Array.from({ length: 1000 }, () => newPaymentId());
  for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(new Set(ids.flatMap((id) => [id.slice(0, 16), id.slice(16)])).size, 2 * ids.length,
    "no bytes reused");
});
