import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { listenerPorts, startCli } from "./support/cli.js";
import { BrowserClient } from "./support/browser.js";
import { confirm, createPayment, reachReview } from "./support/flows.js";
import { TppClient } from "./support/tpp-client.js";

test("each API request logs one JSON line with its X-Request-ID, TPP and resource; no secret is ever logged", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-logs-"));
  const ports = await listenerPorts();
  const bank = await startCli(["start"], { DATA_DIR: dataDir, ...ports, LOG_LEVEL: "info" }, "then open _links.scaRedirect");
  try {
    const certs = join(dataDir, "certs");
    const [ca, cert, key] = await Promise.all(["ca.crt", "tpp.crt", "tpp.key"].map((f) => readFile(join(certs, f))));
    const tpp = new TppClient(`https://localhost:${ports.API_PORT}`, { ca: ca!, cert: cert!, key: key! });
    const requestId = randomUUID();
    const { paymentId, scaRedirect } = await createPayment(tpp, undefined, { "X-Request-ID": requestId });
    const browser = new BrowserClient(`https://localhost:${ports.AUTH_PORT}`, ca!);
    await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
    tpp.close();
    await sleep(200);
    const lines = bank.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.msg === "request");
    const created = requests.find((l) => l.reqId === requestId);
    assert.ok(created, "the request's line carries its X-Request-ID");
    assert.equal(created.tpp, "PSDDE-BAFIN-123456");
    assert.equal(created.resource, paymentId);
    assert.equal(created.method, "POST");
    for (const line of requests) assert.ok(line.reqId && line.tpp && line.level === 30, JSON.stringify(line));
    // The sandbox banner shows the demo credentials on purpose; the log lines must not.
    const text = bank.output().split("\n").filter((l) => l.startsWith("{")).join("\n");
    for (const secret of ["alice-demo", "JBSWY3DPEHPK3PXP", new URL(scaRedirect).search.slice(1), "BEGIN PRIVATE KEY"]) {
      assert.ok(!text.includes(secret), `the log shows ${secret.slice(0, 12)}…`);
    }
  } finally {
    await bank.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
