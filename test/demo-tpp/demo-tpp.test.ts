import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { startDemoTpp, type DemoTpp } from "../../src/demo-tpp/server.js";
import { ALICE_MAIN, CAROL_MAIN, confirm, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let demo: DemoTpp;

before(async () => {
  bank = await startBank();
  const certs = bank.certs;
  const [ca, cert, key] = await Promise.all([certs.caCert, certs.tppCert, certs.tppKey].map((f) => readFile(f)));
  demo = await startDemoTpp({
    apiUrl: bank.apiUrl, identity: { ca: ca!, cert: cert!, key: key! }, host: "127.0.0.1", port: 0,
    debtorIban: ALICE_MAIN, merchantIban: CAROL_MAIN,
  });
});
after(async () => {
  await demo.close();
  await bank.close();
});

async function submit(path: string, fields: Record<string, string> = {}) {
  const response = await fetch(`${demo.url}${path}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  assert.equal(response.status, 303, await response.text());
  return response.headers.get("location") ?? "";
}

async function show(url: string) {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

test("the shop checkout pays through the bank's pages and shows the booked payment", async () => {
  const checkout = await show(`${demo.url}/shop`);
  assert.match(checkout.text, new RegExp(`value="${ALICE_MAIN}"`));
  const scaRedirect = await submit("/shop/pay", { debtorIban: ALICE_MAIN });
  assert.ok(scaRedirect.startsWith(bank.authUrl), scaRedirect);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.match(done.location ?? "", new RegExp(`^${demo.url}/shop/return/[0-9a-f]{32}\\?result=ok$`));
  const result = await show(done.location ?? "");
  assert.match(result.text, /Thank you: paid/);
  assert.match(result.text, /is ACSC/);
});

test("a refused checkout shows the bank's error text", async () => {
  const response = await fetch(`${demo.url}/shop/pay`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ debtorIban: "DE00 1234" }),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  assert.equal(response.status, 502);
  assert.match(await response.text(), /The bank answered 400: FORMAT_ERROR/);
});

test("the budget page connects accounts and lists balances", async () => {
  const scaRedirect = await submit("/budget/connect");
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"), [ALICE_MAIN]);
  assert.match(done.location ?? "", new RegExp(`^${demo.url}/budget/return/[0-9a-f]{32}\\?result=ok$`));
  const budget = await show(done.location ?? "");
  assert.equal(budget.status, 200);
  assert.match(budget.text, /Connected \(consent/);
  assert.match(budget.text, new RegExp(ALICE_MAIN));
  assert.match(budget.text, /\d+\.\d\d EUR/);
});

test("an unknown return state shows nothing of anyone's", async () => {
  assert.equal((await show(`${demo.url}/shop/return/${"0".repeat(32)}`)).status, 404);
  assert.equal((await show(`${demo.url}/budget/return/${"0".repeat(32)}`)).status, 404);
});
