import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createPayment } from "../support/flows.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { initiateAndLeave } from "../support/leaving-clients.js";
import { startBank, type TestBank } from "../support/start-app.js";

const DEMO_TPP = "PSDDE-BAFIN-123456";
let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const cli = (...args: string[]) => runOperator(bank.app.config.dataDir, [...args]);

test("every API request is in the audit log with TPP, request id, PSU IP, resource and status; never a body", async () => {
  const requestId = randomUUID();
  const { paymentId } = await createPayment(bank.tpp, undefined, { "X-Request-ID": requestId, "PSU-IP-Address": "192.0.2.7" });
  const statusRead = randomUUID();
  await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`, { "X-Request-ID": statusRead });
  await bank.tpp.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  // The entries are written after each answer has gone out.
  await bank.app.auditWritten();
  const [created] = jsonOf(cli("audit", "--request-id", requestId, "--json"));
  assert.deepEqual(
    { ...created, id: undefined, at: undefined, ms: undefined },
    { id: undefined, at: undefined, ms: undefined, tppId: DEMO_TPP, requestId, psuIp: "192.0.2.7", method: "POST",
      path: "/psd2/v1/payments/sepa-credit-transfers", resourceId: paymentId, status: created.status },
  );
  assert.ok(created.status >= 200 && created.status < 300);
  const history = jsonOf(cli("audit", "--resource", paymentId, "--json"));
  assert.deepEqual(history.map((e: { requestId: string }) => e.requestId), [statusRead, requestId], "newest first");
  const unknown = jsonOf(cli("audit", "--tpp", DEMO_TPP, "--limit", "1", "--json"));
  assert.equal(unknown.length, 1);
  assert.equal(unknown[0].status, 404);
  const people = cli("audit", "--since", "2000-01-01");
  assert.match(people.stdout, /^at\s+tpp\s+request id\s+psu ip\s+method\s+path\s+resource\s+status\s+ms\n/);
  assert.doesNotMatch(people.stdout, /Merchant GmbH|instructedAmount/);
});

test("a TPP on the stop-list is refused on its next request, others are not; unblocked it is served again", async () => {
  const other = await bank.tppWith({ organizationIdentifier: "PSDFR-ACPR-777" });
  await other.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  const listed = jsonOf(cli("tpp", "list", "--json")).map((t: { id: string; blocked: boolean }) => [t.id, t.blocked]);
  assert.deepEqual(listed, [[DEMO_TPP, false], ["PSDFR-ACPR-777", false]]);
  assert.equal(cli("tpp", "block", DEMO_TPP).status, 0);
  const refused = await bank.tpp.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  assert.equal(refused.status, 401);
  assert.deepEqual(refused.body.tppMessages.map((m: { code: string }) => m.code), ["CERTIFICATE_BLOCKED"]);
  assert.equal((await other.get("/psd2/v1/payments/00000000000000000000000000000000/status")).status, 404);
  assert.match(cli("tpp", "list").stdout, new RegExp(`${DEMO_TPP}\\s+Demo TPP\\s+BLOCKED`));
  assert.equal(cli("tpp", "unblock", DEMO_TPP).status, 0);
  assert.equal((await bank.tpp.get("/psd2/v1/payments/00000000000000000000000000000000/status")).status, 404);
});

test("a block applies to the TPP's next request though this instance wrote nothing meanwhile", async () => {
  const status = () => bank.tpp.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  // Twice: the second answer comes from the shared reads, with no write of this instance between.
  assert.equal((await status()).status, 404);
  assert.equal((await status()).status, 404);
  assert.equal(cli("tpp", "block", DEMO_TPP).status, 0);
  assert.equal((await status()).status, 401);
  assert.equal(cli("tpp", "unblock", DEMO_TPP).status, 0);
  assert.equal((await status()).status, 404);
});

test("a payment created for a TPP that left before the answer is in the audit log with it",
  async () => {
    const paymentIds = () => new Set(jsonOf(cli("payment", "find", "--tpp", DEMO_TPP, "--limit",
      "1000", "--json")).map((p: { id: string }) => p.id));
    const before = paymentIds();
    const requestIds = new Set(await initiateAndLeave(bank, 40));
    // Created after those still being created: answered once they are.
    const { paymentId: answered } = await createPayment(bank.tpp);
    await bank.app.auditWritten();
    const created = [...paymentIds()].filter((id) => !before.has(id) && id !== answered);
    const recorded = jsonOf(cli("audit", "--tpp", DEMO_TPP, "--limit", "10000", "--json"))
      .filter((e: { requestId: string }) => requestIds.has(e.requestId))
      .map((e: { resourceId: string }) => e.resourceId);
    assert.ok(created.length > 0, "the bank created some before it saw their clients leave");
    assert.deepEqual(recorded.sort(), created.sort(), "each, and nothing else");
  });

test("a TPP not seen yet can be stop-listed in advance and is refused from its first request", async () => {
  assert.equal(cli("tpp", "block", "PSDDE-BAFIN-800002").status, 0);
  const client = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-800002" });
  const refused = await client.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  assert.equal(refused.status, 401);
  assert.equal(refused.body.tppMessages[0].code, "CERTIFICATE_BLOCKED");
});

test("bad input exits 2 with a message naming the problem", () => {
  const cases: [string[], RegExp][] = [
    [["tpp", "block", "serial-1234"], /id: A TPP id is an organizationIdentifier like PSDDE-BAFIN-123456/],
    [["tpp", "block"], /the TPP's id is required/],
    [["tpp", "evict"], /tpp needs one of/],
    [["audit", "--since", "yesterday-ish"], /since: since must be a date or an ISO 8601 time/],
    [["audit", "--limit", "0"], /limit: limit must be between 1 and 10000/],
    [["audit", "--limit", "many"], /limit must be between/],
  ];
  for (const [args, message] of cases) {
    assertRefused(cli(...args), message);
  }
});
