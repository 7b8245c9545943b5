/**
 * `npm start`, `npm run cli` and `npm run demo-tpp` build only when the sources changed. Run on a
 * stand-in project whose build counts its runs, so the real dist/ of a running test suite is never
 * rebuilt under it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "psd2-fresh-build-"));
after(() => rmSync(project, { recursive: true, force: true }));

const BUILD = "node -e \"const f=require('fs');f.mkdirSync('dist/src',{recursive:true});"
  + "f.writeFileSync('dist/src/psd2-bank.js','');f.appendFileSync('builds','x')\"";

function standIn(): void {
  for (const dir of ["scripts", "src", "test", "client/types"]) {
    mkdirSync(join(project, dir), { recursive: true });
  }
  copyFileSync(join(ROOT, "scripts/fresh-build.mjs"), join(project, "scripts/fresh-build.mjs"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ scripts: { build: BUILD } }));
  for (const file of ["package-lock.json", "tsconfig.json", "tsconfig.app.json", "src/a.ts",
    "test/a.test.ts", "client/types/spec.ts"]) {
    writeFileSync(join(project, file), "{}");
  }
}

/** Runs the check and answers how many builds the stand-in has seen in all. */
function freshBuild(): number {
  const result = spawnSync(process.execPath, [join(project, "scripts/fresh-build.mjs")],
    { cwd: project, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return readFileSync(join(project, "builds"), "utf8").length;
}

test("start, cli and demo-tpp build through the staleness check, not every time", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as
    { scripts: Record<string, string> };
  for (const name of ["start", "cli", "demo-tpp"]) {
    assert.match(scripts[name] ?? "",
      /^node scripts\/fresh-build\.mjs && (\w+=\S+ )*node (--\S+ )*dist\/src\/psd2-bank\.js/, name);
  }
  assert.match(scripts.test ?? "", /^npm run build --silent && /, "npm test builds from scratch");
});

test("the check builds the first time, then only after a source changed, came or went", () => {
  standIn();
  assert.equal(freshBuild(), 1);
  assert.equal(freshBuild(), 1, "nothing changed");
  writeFileSync(join(project, "client/types/spec.ts"), "// written by the build");
  assert.equal(freshBuild(), 1, "the build's own output is no source");
  utimesSync(join(project, "src/a.ts"), new Date(), new Date(Date.now() + 5000));
  assert.equal(freshBuild(), 2, "an edited source");
  writeFileSync(join(project, "src/b.ts"), "{}");
  assert.equal(freshBuild(), 3, "a new source");
  rmSync(join(project, "src/b.ts"));
  assert.equal(freshBuild(), 4, "a removed source");
  writeFileSync(join(project, "package-lock.json"), "{\"lockfileVersion\":3}");
  assert.equal(freshBuild(), 5, "new dependencies");
  rmSync(join(project, "dist"), { recursive: true });
  assert.equal(freshBuild(), 6, "no build at all");
});
