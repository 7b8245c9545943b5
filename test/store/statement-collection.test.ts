/**
 * On Node 24, better-sqlite3 12 aborted the process (`Assertion failed: (env) != nullptr` in
 * node::RemoveEnvironmentCleanupHook, from Statement::~Statement) when the garbage collector
 * collected a statement while microtasks ran, as they do between a request's awaits, and at exit:
 * its native wrapper removed a cleanup hook with no environment at hand. A child process prepares
 * statements between awaits until they are collected, leaves some open at exit, and must end
 * normally.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// A sample is watched through WeakRefs (a FinalizationRegistry would keep them from being collected
// young, hiding the abort).
const CHILD = `
import Sqlite from "better-sqlite3";
const db = new Sqlite(":memory:");
db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
const sample = [];
for (let i = 0; i < 20000; i++) {
  await null;
  const statement = db.prepare("SELECT v FROM t WHERE k = ?");
  statement.get(i);
  if (i % 1000 === 0) sample.push(new WeakRef(statement));
}
const kept = [db.prepare("SELECT count(*) FROM t"), db.prepare("SELECT max(k) FROM t")];
for (const statement of kept) statement.get();
await new Promise((next) => setTimeout(next, 0));
globalThis.gc();
await new Promise((next) => setTimeout(next, 0));
console.log(JSON.stringify({ collected: sample.filter((ref) => ref.deref() === undefined).length }));
`;

function runChild(): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", CHILD],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk));
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, out, err })));
}

test("statements collected while microtasks run, and open at exit, end the process normally", async () => {
  const { code, signal, out, err } = await runChild();
  assert.doesNotMatch(err, /Assertion failed|Native stack trace/, err);
  assert.equal(signal, null, err);
  assert.equal(code, 0, err);
  assert.equal(err, "");
  const { collected } = JSON.parse(out) as { collected: number };
  assert.ok(collected > 0, "the garbage collector collected some of the statements");
});
