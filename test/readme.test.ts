/**
 * What a newcomer reads first must hold in a fresh clone: every local file the README and the
 * guides link to is in git, and the demo PSU tables are the demo data the sandbox seeds.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ALL_DEMO_PSUS, registeredDevices } from "../src/ledger/demo-data.js";
import { demoCorporateTable, demoPsuTables } from "../src/ledger/demo-guide.js";
import { startBank } from "./support/start-app.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCUMENTS = ["README.md", "docs/getting-started.md", "docs/errors.md"];
const readme = () => readFileSync(join(ROOT, "README.md"), "utf8");

const trackedFiles = () =>
  execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");

/** Targets of the document's links that are files of this repository, relative to ROOT. */
function localLinks(document: string): string[] {
  const text = readFileSync(join(ROOT, document), "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = ""]) => target.replace(/#.*$/, ""))
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target))
    .map((target) => normalize(join(dirname(document), target)));
}

test("every local file the README and the guides link to is committed", () => {
  const tracked = trackedFiles();
  for (const document of DOCUMENTS) {
    for (const target of localLinks(document)) {
      const found = target.endsWith("/")
        ? tracked.some((file) => file.startsWith(target)) : tracked.includes(target);
      assert.ok(found, `${document} links to ${target}, which is not in git`);
    }
  }
});

test("every document the README names as a path is committed", () => {
  const tracked = trackedFiles();
  for (const [, path = ""] of readme().matchAll(/`([\w.-]+\/[\w./-]+\.md)`/g)) {
    assert.ok(tracked.includes(path), `the README names ${path}, which is not in git`);
  }
});

test("the README's demo PSU tables are the demo data, as the start banner is", () => {
  const { everyday, scenarios, testing } = demoPsuTables();
  for (const table of [everyday, scenarios, testing, demoCorporateTable()]) {
    assert.ok(readme().includes(table), `the README should show, as rendered from the demo data:
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
