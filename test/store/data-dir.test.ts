/** The directory SQLite's database is made in holds the PSUs' data: only its owner may enter it. */
import assert from "node:assert/strict";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config.js";
import { openStore } from "../../src/store/db.js";

test("the store makes a missing DATA_DIR for its owner only", async () => {
  const scratch = await mkdtemp(join(tmpdir(), "psd2-bank-data-dir-"));
  try {
    const dataDir = join(scratch, "bank", "data");
    const store = await openStore(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: "" }));
    await store.close();
    for (const made of [dataDir, join(scratch, "bank")]) {
      assert.equal((await stat(made)).mode & 0o777, 0o700, made);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
