import assert from "node:assert/strict";
import { test } from "node:test";
import { createRecheckCache } from "../../src/lib/recheck-cache.js";

test("a verdict is reused within its time, computed afresh after it, and a flood of keys is forgotten", async () => {
  let now = 0;
  let computed = 0;
  const cache = createRecheckCache<number>(1_000, 3, () => now);
  const get = (key: string) => cache.get(key, async () => ++computed);
  assert.equal(await get("a"), 1);
  now = 1_000;
  assert.equal(await get("a"), 1, "still within its time");
  now = 1_001;
  assert.equal(await get("a"), 2, "rechecked after it");
  await get("b");
  await get("c");
  assert.equal(computed, 4);
  await get("d"); // the fourth key: everything before is forgotten
  assert.equal(await get("a"), 6);
});
