/**
 * A machine without chromium: the browser tests must end at once with one message naming what to
 * install, not hang with the bank left open after a timeout per test.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

/** Every test file that drives chromium. */
const BROWSER_TESTS = ["browser.test.js", "review.test.js", "demo-tpp-phone.test.js"];
const LIMIT_MS = 20_000;

for (const file of BROWSER_TESTS) {
  test(`without chromium ${file} fails within seconds, saying what to install`, async () => {
    // Without the runner's own marker, or the child would take itself for a nested run.
    const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
    const started = Date.now();
    const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
    const child = spawn(process.execPath, ["--test", "--test-reporter=spec", path], {
      env: { ...env, CHROMIUM_PATH: "/nonexistent/chromium" }, stdio: "pipe",
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on("data", (chunk: Buffer) => { output += chunk.toString(); });
    const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearTimeout(timer);
    assert.ok(Date.now() - started < LIMIT_MS, `still running after ${LIMIT_MS} ms:\n${output}`);
    assert.notEqual(code, 0, output);
    const mentions = output.match(/need chromium at \/nonexistent\/chromium/g) ?? [];
    assert.equal(mentions.length, 1, output);
    assert.match(output, /apt-get install chromium/);
  });
}
