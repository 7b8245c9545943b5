import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createAuditLog } from "../../../src/domain/kernel/audit.js";
import { manualClock } from "../../../src/lib/clock.js";
import { openStore } from "../../../src/store/db.js";

test("entries older than the retention period are pruned, younger ones kept", async () => {
  const dir = await mkdtemp(join(tmpdir(), "psd2-bank-audit-"));
  const store = await openStore({ dataDir: dir, databaseUrl: "" });
  try {
    const clock = manualClock(new Date("2026-01-01T00:00:00Z"));
    const audit = createAuditLog({ store, clock, retentionDays: 30 });
    const entry = (path: string) => ({
      tppId: "PSDDE-BAFIN-1", requestId: null, psuIp: null, method: "GET", path, resourceId: null, status: 200, ms: 1,
    });
    await audit.record(entry("/old"));
    clock.advance(20 * 86_400_000);
    await audit.record(entry("/young"));
    clock.advance(11 * 86_400_000);
    assert.equal(await audit.prune(), 1);
    assert.deepEqual((await audit.query({})).map((e) => e.path), ["/young"]);
    assert.equal(await audit.prune(), 0);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
