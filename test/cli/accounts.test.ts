import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { validateIban } from "../../src/lib/iban.js";
import { parseExposition } from "../../src/lib/metrics.js";
import { ALICE_MAIN, confirm, createPayment, logIn, open, reachReview } from "../support/flows.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const account = (...args: string[]) => runOperator(bank.app.config.dataDir, ["account", ...args]);

async function ledgerBalances(): Promise<void> {
  const samples = parseExposition(await (await fetch(`${bank.adminUrl}/metrics`)).text());
  const total = (name: string) => samples.filter((s) => s.name === name).reduce((sum, s) => sum + s.value, 0);
  assert.equal(total("psd2_ledger_debits_posted_minor"), total("psd2_ledger_credits_posted_minor"));
}

test("an opened account takes test money, gives it back, and closes only when empty", async () => {
  const opened = jsonOf(account("open", "--login", "bob", "--product", "Tagesgeld", "--json"));
  assert.deepEqual(validateIban(opened.iban), { ok: true, iban: opened.iban });
  assert.match(opened.iban, /^DE\d{2}50010000\d{10}$/);
  assert.deepEqual([opened.owner, opened.status, opened.balance, opened.product], ["bob", "enabled", "0.00", "Tagesgeld"]);
  assert.equal(jsonOf(account("credit", opened.iban, "100.00", "--json")).balance, "100.00");
  assert.equal(jsonOf(account("debit", opened.iban, "30", "--json")).available, "70.00");
  assertRefused(account("debit", opened.iban, "70.01"), /available balance is lower than the amount/);
  assertRefused(account("close", opened.iban), /Only an account with a zero balance can be closed/);
  assert.match(account("debit", opened.iban, "70.00").stdout, /balance 0\.00 EUR, available 0\.00 EUR/);
  assert.equal(account("close", opened.iban).status, 0);
  assertRefused(account("credit", opened.iban, "1.00"), /blocked or closed/);
  const bobs = jsonOf(account("list", "--login", "bob", "--json"));
  assert.equal(bobs.find((a: { iban: string }) => a.iban === opened.iban).status, "deleted");
  await ledgerBalances();
});

test("a blocked account's payment cannot be confirmed, and unblocked it books again", async () => {
  assert.equal(account("block", ALICE_MAIN).status, 0);
  const blocked = await createPayment(bank.tpp);
  let browser = bank.browser();
  const login = await browser.follow(await logIn(browser, await open(browser, blocked.scaRedirect), "alice", "alice-demo"));
  // Said right after the password: no code is sent or spent on a payment that cannot go.
  assert.match(login.html, /The account of this payment is blocked\./);
  assert.doesNotMatch(login.html, /name="code"/);
  assert.equal(account("unblock", ALICE_MAIN).status, 0);
  const booked = await createPayment(bank.tpp);
  browser = bank.browser();
  await confirm(browser, await reachReview(browser, booked.scaRedirect, "alice"));
  assert.equal((await bank.tpp.get(`/psd2/v1/payments/${booked.paymentId}/status`)).body.transactionStatus, "ACSC");
  assert.match(account("list").stdout, /^iban\s+owner\s+currency\s+product\s+status\s+balance\s+available\n/);
  await ledgerBalances();
});

test("bad input exits 2 with a message naming the problem", () => {
  assertRefused(account("open", "--login", "nobody"), /login: No PSU with the login "nobody"/);
  assertRefused(account("open", "--login", "bob", "--currency", "EURO"), /currency: "EURO" is not an ISO 4217 currency/);
  assertRefused(account("credit", "DE00123", "1"), /iban: No account with the IBAN DE00123/);
  assertRefused(account("credit", "--", ALICE_MAIN, "-5"), /amount: The amount must be positive/);
  assertRefused(account("credit", ALICE_MAIN, "1.001"), /amount: The amount must be positive with at most the minor units/);
  assertRefused(account("credit", ALICE_MAIN), /the AMOUNT is required/);
  assertRefused(account("list", "--login", "nobody"), /No PSU with the login "nobody"/);
  assertRefused(account("shred"), /account needs one of/);
});
