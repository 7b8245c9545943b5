#!/usr/bin/env node
/**
 * The compiled test files in the order `npm test` starts them, three at a time: the longest kinds
 * first (the PostgreSQL reruns and the end-to-end files, up to two minutes each on a slow
 * machine), so that the run does not end with one long file alone on a core while the other
 * idles. By name within each kind.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

const all = readdirSync("dist/test", { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".test.js")).map((name) => join("dist/test", name)).sort();
const first = [(f) => f.endsWith(".postgres.test.js"), (f) => f.startsWith("dist/test/e2e/")];
const rank = (file) => {
  const kind = first.findIndex((is) => is(file));
  return kind === -1 ? first.length : kind;
};
process.stdout.write(`${all.sort((a, b) => rank(a) - rank(b)).join("\n")}\n`);
