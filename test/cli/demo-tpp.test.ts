/** `npm run demo-tpp` after `npm start`, the README tour's order: the demo TPP uses the running bank. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { freePort, listenerPorts, startCli } from "../support/cli.js";

let dataDir: string;
before(async () => { dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-demo-tpp-")); });
after(async () => { await rm(dataDir, { recursive: true, force: true }); });

test("demo-tpp beside a running bank on the same settings uses that bank", { timeout: 120_000 }, async () => {
  const env = { DATA_DIR: dataDir, ...await listenerPorts() };
  const bank = await startCli(["start"], env, "then open _links.scaRedirect");
  try {
    const demoPort = await freePort();
    const demo = await startCli(["demo-tpp", "--port", String(demoPort)], env, "Demo TPP at");
    try {
      assert.match(demo.output(), new RegExp(`psd2-bank already runs at https://localhost:${env.API_PORT}`));
      assert.doesNotMatch(demo.output(), /EADDRINUSE|psd2-bank is ready/);
      assert.match(demo.output(), new RegExp(`using the bank at https://localhost:${env.API_PORT}\n`));
      const checkout = await fetch(`http://127.0.0.1:${demoPort}/shop/pay`, { method: "POST", redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "debtorIban=DE96500100001000000001" });
      assert.equal(checkout.status, 303, await checkout.text());
      assert.match(checkout.headers.get("location") ?? "", new RegExp(`^https://localhost:${env.AUTH_PORT}/`));
    } finally {
      assert.equal(await demo.stop(), 0);
    }
  } finally {
    assert.equal(await bank.stop(), 0);
  }
});
