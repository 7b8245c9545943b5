#!/usr/bin/env node
/**
 * Refreshes the screenshots docs/psu-pages.md shows (docs/screenshots/) from a run of the browser
 * tests.
 * `npm test` saves its screenshots under test-results/, which git ignores, so a test run leaves the
 * tree clean; this script is the one writer of the committed ones. It saves a whole run in a
 * scratch folder and copies only the names .gitignore lets into docs/screenshots/.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = "docs/screenshots/";
const E2E = join(ROOT, "dist", "test", "e2e");

const committed = readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")
  .filter((line) => line.startsWith(`!${DOCS}`))
  .map((line) => line.slice(DOCS.length + 1).trim());

// Found by their call rather than listed, so a new browser test's screenshots are included.
const browserTests = readdirSync(E2E)
  .filter((name) => name.endsWith(".test.js"))
  .map((name) => join(E2E, name))
  .filter((file) => readFileSync(file, "utf8").includes("screenshot(page"));

const scratch = mkdtempSync(join(tmpdir(), "psd2-screenshots-"));
try {
  // One file at a time: the screenshots are of pages, not of a machine under load.
  const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...browserTests], {
    cwd: ROOT, stdio: "inherit", env: { ...process.env, SCREENSHOTS_DIR: scratch },
  });
  if (run.status !== 0) throw new Error("the browser tests failed; docs/screenshots/ is unchanged");
  const missing = committed.filter((name) => !existsSync(join(scratch, name)));
  if (missing.length > 0) {
    throw new Error(`no test saved ${missing.join(", ")}; docs/screenshots/ is unchanged`);
  }
  for (const name of committed) copyFileSync(join(scratch, name), join(ROOT, DOCS, name));
  console.log(`Refreshed ${committed.length} screenshots in ${DOCS}`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
