/**
 * Funds confirmation on a card account: named by masked PAN or full PAN, answered against the
 * card's available credit (credit limit plus balance) at that instant.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { availableBalance } from "../../src/ledger/book.js";
import { formatAmount } from "../../src/lib/money.js";
import { cardRepository } from "../../src/store/cards.js";
import { startBank, type TestBank } from "../support/start-app.js";

const FUNDS = "/psd2/v1/funds-confirmations";
const BOB_PAN = "4921810000027714";
const BOB_CARD = "492181******7714";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

async function availableCredit(): Promise<bigint> {
  const { store } = bank.app;
  const card = await cardRepository.findCard(store.db, { maskedPan: BOB_CARD });
  const account = card && await store.ledger.getAccount(store.db, card.accountId);
  assert.ok(card && account);
  assert.ok(availableBalance(account) < 0n, "the card has been used");
  return card.creditLimit + availableBalance(account);
}

const ask = (account: unknown, minor: bigint, currency = "EUR") =>
  bank.tpp.post(FUNDS, { account, instructedAmount: { currency, amount: formatAmount(minor, "EUR") } });

test("a card has exactly its available credit, by masked PAN and by PAN", async () => {
  const credit = await availableCredit();
  for (const account of [{ maskedPan: BOB_CARD }, { pan: BOB_PAN }]) {
    const yes = await ask(account, credit);
    assert.equal(yes.status, 200, yes.text);
    assert.deepEqual(yes.body, { fundsAvailable: true });
    assert.deepEqual((await ask(account, credit + 1n)).body, { fundsAvailable: false });
  }
  assert.deepEqual((await ask({ pan: BOB_PAN }, 1n, "USD")).body, { fundsAvailable: false });
});

test("an unknown or malformed card is refused with the field named", async () => {
  const rows: [unknown, string, string][] = [
    [{ maskedPan: "411111******1111" }, "RESOURCE_UNKNOWN", "account"],
    [{ pan: "4111111111111111" }, "RESOURCE_UNKNOWN", "account"],
    [{ pan: "4921810000027715" }, "FORMAT_ERROR", "account.pan"],
    [{ maskedPan: "4921-7714" }, "FORMAT_ERROR", "account.maskedPan"],
  ];
  for (const [account, code, path] of rows) {
    const res = await ask(account, 100n);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.tppMessages[0].code, code, res.text);
    assert.equal(res.body.tppMessages[0].path, path, res.text);
  }
});
