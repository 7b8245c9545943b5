/**
 * POST /funds-confirmations: yes or no against the available balance at that instant, for
 * TPPs with the PSP_IC role; bad input refused in Berlin Group form.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { availableBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import { BOB_MAIN, EXTERNAL_IBAN } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const FUNDS = "/psd2/v1/funds-confirmations";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

async function bobAvailable(): Promise<bigint> {
  const account = await bank.app.store.ledger.findAccountByIban(bank.app.store.db, BOB_MAIN);
  assert.ok(account);
  return availableBalance(account);
}

const ask = (minor: bigint, account: unknown = { iban: BOB_MAIN }, currency = "EUR") =>
  bank.tpp.post(FUNDS, {
    account, payee: "Shop", instructedAmount: { currency, amount: formatAmount(minor, "EUR") },
  });

test("exactly the available balance is available; one cent more is not", async () => {
  const available = await bobAvailable();
  const yes = await ask(available);
  assert.equal(yes.status, 200, yes.text);
  assert.deepEqual(yes.body, { fundsAvailable: true });
  assert.deepEqual((await ask(available + 1n)).body, { fundsAvailable: false });
  assert.deepEqual((await ask(1n, BOB_MAIN)).body, { fundsAvailable: true }, "plain IBAN string");
  assert.deepEqual((await ask(1n, { iban: BOB_MAIN }, "USD")).body, { fundsAvailable: false });
});

test("each refusal names the offending field", async () => {
  const euro = { currency: "EUR", amount: "1" };
  const rows: [string, unknown, number, string, string][] = [
    ["foreign account", { account: EXTERNAL_IBAN, instructedAmount: euro },
      400, "RESOURCE_UNKNOWN", "account"],
    ["bad IBAN", { account: "DE00", instructedAmount: euro }, 400, "FORMAT_ERROR", "account"],
    ["amount 0", { account: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "0" } },
      400, "FORMAT_ERROR", "instructedAmount.amount"],
    ["no amount", { account: BOB_MAIN }, 400, "FORMAT_ERROR", "instructedAmount"],
    ["unknown field", { account: BOB_MAIN, instructedAmount: euro, x: 1 },
      400, "FORMAT_ERROR", "x"],
  ];
  for (const [name, body, status, code, path] of rows) {
    const res = await bank.tpp.post(FUNDS, body);
    assert.equal(res.status, status, `${name}: ${res.text}`);
    assert.equal(res.body.tppMessages[0].code, code, name);
    assert.equal(res.body.tppMessages[0].path, path, name);
  }
});

test("a TPP without the PSP_IC role is refused with ROLE_INVALID", async () => {
  const client = await bank.tppWith({
    organizationIdentifier: "PSDDE-BAFIN-777777", roles: ["PSP_PI"],
  });
  const body = { account: BOB_MAIN, instructedAmount: { currency: "EUR", amount: "1" } };
  const res = await client.post(FUNDS, body);
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.tppMessages[0].code, "ROLE_INVALID");
});
