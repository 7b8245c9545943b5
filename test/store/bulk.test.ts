/**
 * Chunks of batched statements (store/bulk.ts `inChunks`): a few SQL texts on SQLite, whose
 * prepared statements are cached by text, and one statement on PostgreSQL.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { inChunks } from "../../src/store/bulk.js";

const chunkSizes = async (engine: "sqlite" | "postgres", rows: number, max: number) => {
  const sizes: number[] = [];
  const seen: number[] = [];
  await inChunks(engine, Array.from({ length: rows }, (_, i) => i), max, async (chunk) => {
    sizes.push(chunk.length);
    seen.push(...chunk);
  });
  assert.deepEqual(seen, Array.from({ length: rows }, (_, i) => i), "every row once, in order");
  return sizes;
};

test("SQLite writes in power-of-two chunks up to the maximum, PostgreSQL all at once", async () => {
  assert.deepEqual(await chunkSizes("sqlite", 300, 256), [256, 32, 8, 4]);
  assert.deepEqual(await chunkSizes("sqlite", 7, 256), [4, 2, 1]);
  assert.deepEqual(await chunkSizes("sqlite", 600, 256), [256, 256, 64, 16, 8]);
  assert.deepEqual(await chunkSizes("postgres", 300, 256), [300]);
  assert.deepEqual(await chunkSizes("sqlite", 0, 256), []);
});
