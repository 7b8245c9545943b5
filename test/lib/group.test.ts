import assert from "node:assert/strict";
import { test } from "node:test";
import { groupBy } from "../../src/lib/group.js";

test("groupBy keeps each group's items in their order, the groups in first-seen order", () => {
  const rows = [{ k: "b", n: 1 }, { k: "a", n: 2 }, { k: "b", n: 3 }];
  assert.deepEqual([...groupBy(rows, (r) => r.k)].map(([k, g]) => [k, g.map((r) => r.n)]),
    [["b", [1, 3]], ["a", [2]]]);
  assert.equal(groupBy([], (r: { k: string }) => r.k).size, 0);
});
