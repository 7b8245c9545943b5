/**
 * `npm test` leaves a contributor's tree as it found it: the browser tests save their screenshots
 * where git ignores them, and the committed ones docs/psu-pages.md shows change only through
 * `npm run screenshots` (issue 39). No browser needed: this checks where screenshot() writes.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { screenshotDir } from "./support/chromium.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const committedScreenshots = () =>
  execFileSync("git", ["ls-files", "docs/screenshots"], { cwd: ROOT, encoding: "utf8" })
    .split("\n").filter((file) => file !== "").map((file) => basename(file));

const ignoredByGit = (file: string) =>
  spawnSync("git", ["check-ignore", "--quiet", relative(ROOT, file)], { cwd: ROOT }).status === 0;

test("a test run saves every screenshot, the docs' too, where git ignores it", () => {
  const names = committedScreenshots();
  assert.ok(names.length > 0, "the docs' screenshots are in git");
  const dir = screenshotDir({});
  for (const name of names) {
    const file = join(dir, name);
    assert.ok(ignoredByGit(file), `npm test would change ${relative(ROOT, file)}, which is in git`);
  }
});

test("only npm run screenshots points them elsewhere", () => {
  assert.equal(screenshotDir({ SCREENSHOTS_DIR: "/tmp/elsewhere" }), "/tmp/elsewhere");
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as
    { scripts: Record<string, string> };
  assert.doesNotMatch(scripts.test ?? "", /SCREENSHOTS_DIR/);
  assert.match(scripts.screenshots ?? "", /scripts\/screenshots\.mjs/);
});
