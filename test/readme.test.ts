/**
 * What a newcomer reads first must hold in a fresh clone: the README is short and leads to every
 * page of docs/, every document it names is in git, and the demo PSU tables of docs/tpp-guide.md
 * are the demo data the sandbox seeds. (links.test.ts checks every relative link.)
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ALL_DEMO_PSUS, registeredDevices } from "../src/ledger/demo-data.js";
import { demoCorporateTable, demoPsuTables } from "../src/ledger/demo-guide.js";
import { startBank } from "./support/start-app.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (document: string) => readFileSync(join(ROOT, document), "utf8");

const trackedFiles = () =>
  execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");

test("every document the README names as a path is committed", () => {
  const tracked = trackedFiles();
  for (const [, path = ""] of read("README.md").matchAll(/`([\w.-]+\/[\w./-]+\.md)`/g)) {
    assert.ok(tracked.includes(path), `the README names ${path}, which is not in git`);
  }
});

test("the README fits on a few screens and links every page of docs/", () => {
  const text = read("README.md");
  assert.ok(text.split("\n").length <= 200, "README.md: at most 200 lines, the rest in docs/");
  const pages = trackedFiles().filter((file) => /^docs\/[^/]+\.md$/.test(file));
  assert.ok(pages.length >= 8, pages.join(", "));
  for (const page of pages) assert.ok(text.includes(`](${page})`), `the README links ${page}`);
});

test("docs/tpp-guide.md's demo PSU tables are the demo data, as the start banner is", () => {
  const { everyday, scenarios, testing } = demoPsuTables();
  for (const table of [everyday, scenarios, testing, demoCorporateTable()]) {
    assert.ok(read("docs/tpp-guide.md").includes(table),
      `docs/tpp-guide.md should show, as rendered from the demo data:
${table}`);
  }
});

test("the devices the tables list are the ones the sandbox bank holds", async () => {
  const bank = await startBank();
  try {
    const { store } = bank.app;
    for (const psu of ALL_DEMO_PSUS) {
      const seeded = await store.psus.findByLogin(store.db, psu.login);
      const devices = seeded ? await store.psus.devices(store.db, seeded.id) : [];
      assert.deepEqual(devices.map((d) => d.secret ?? d.phone).sort(),
        registeredDevices(psu).map((d) => (d.kind === "totp" ? d.secret : d.phone)).sort(),
        psu.login);
    }
  } finally {
    await bank.close();
  }
});
