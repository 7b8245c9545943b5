/**
 * Batched writes (domain/kernel/write-batches.ts): what is appended in one turn is written
 * together, each caller settles with its own batch, and a failed batch fails only its callers.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { batchWrites } from "../../../src/domain/kernel/write-batches.js";

test("items appended in one turn are one write, and each settles once it is written", async () => {
  const writes: number[][] = [];
  const batches = batchWrites<number>(async (items) => { writes.push(items); });
  const settled: number[] = [];
  const first = [1, 2, 3].map((n) => batches.append(n).then(() => settled.push(n)));
  assert.deepEqual(writes, [], "nothing is written before the turn ends");
  await Promise.all(first);
  assert.deepEqual(writes, [[1, 2, 3]]);
  assert.deepEqual(settled, [1, 2, 3]);
  await batches.append(4);
  assert.deepEqual(writes, [[1, 2, 3], [4]]);
});

test("a failed write rejects its own batch's callers only", async () => {
  let calls = 0;
  const batches = batchWrites<string>(async () => {
    calls += 1;
    if (calls === 1) throw new Error("disk full");
  });
  const failed = ["a", "b"].map((item) => batches.append(item));
  await Promise.all(failed.map((done) => assert.rejects(done, /disk full/)));
  await batches.append("c");
  assert.equal(calls, 2);
});

test("a burst larger than a statement's share is written in chunks of 500", async () => {
  const sizes: number[] = [];
  const batches = batchWrites<number>(async (items) => { sizes.push(items.length); });
  await Promise.all(Array.from({ length: 1_201 }, (_, i) => batches.append(i)));
  assert.deepEqual(sizes, [500, 500, 201]);
});

test("written settles once every item appended before it is written", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  const batches = batchWrites<number>(() => held);
  void batches.append(1);
  let done = false;
  const written = batches.written().then(() => { done = true; });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(done, false);
  release();
  await written;
  assert.equal(done, true);
});
