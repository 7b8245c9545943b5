import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { setTimeout } from "node:timers/promises";
import { budgetDateFrom } from "../../src/demo-tpp/budget.js";
import { startDemoTpp, type DemoTpp } from "../../src/demo-tpp/server.js";
import { ALICE_MAIN, BOB_MAIN, CAROL_MAIN, confirm, reachReview } from "../support/flows.js";
import { authoriseInBrowser } from "../support/oauth-client.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let demo: DemoTpp;

before(async () => {
  bank = await startBank();
  const certs = bank.certs;
  const files = [certs.caCert, certs.tppCert, certs.tppKey, certs.serverCert, certs.serverKey];
  const [ca, cert, key, serverCert, serverKey] = await Promise.all(files.map((f) => readFile(f)));
  demo = await startDemoTpp({
    apiUrl: bank.apiUrl, identity: { ca: ca!, cert: cert!, key: key! }, host: "127.0.0.1", port: 0,
    // Small pages, so that the budget's reports take several.
    debtorIban: ALICE_MAIN, merchantIban: CAROL_MAIN, merchantName: "Carol Weber", transactionsPerPage: 20,
    notifications: { ca: ca!, cert: serverCert!, key: serverKey! },
    oauth: { issuer: bank.authUrl, clientId: "PSDDE-BAFIN-123456" },
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

/** A statuses page row: the resource's id, its status, the push's form, the sender. */
const PUSHED_ROW = /<tr><td>[^<]*<\/td><td>(?:payment|consent) <code>([^<]+)<\/code><\/td><td><strong>([^<]+)<\/strong><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g;

/**
 * The statuses page's rows for a resource once `count` were pushed: the bank's own scheduler
 * may hold some in a round of its own while the test asks for one.
 */
async function pushedFor(paymentId: string, count: number) {
  let rows: RegExpExecArray[] = [];
  for (let round = 0; round < 1_000 && rows.length < count; round++) {
    if (round > 0) await setTimeout(20);
    await bank.app.deliverNotifications();
    const pushed = await show(`${demo.url}/statuses`);
    assert.match(pushed.text, /<meta http-equiv="refresh" content="2">/);
    rows = [...pushed.text.matchAll(PUSHED_ROW)].filter((m) => m[1] === paymentId);
  }
  return rows;
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
  assert.match(result.text, /href="\/statuses"/);
  const paymentId = /Payment <code>([^<]+)<\/code>/.exec(result.text)?.[1] ?? "";
  const rows = await pushedFor(paymentId, 5);
  assert.deepEqual(rows.map((m) => m[2]).reverse(),
    ["SCA psuIdentified", "SCA psuAuthenticated", "ACTC", "SCA finalised", "ACSC"]);
  assert.ok(rows.every((m) => m[3] === "1.3" && m[4] === "localhost"),
    "pushed in 1.3's form with the bank's certificate");
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

test("the budget connects through openFinance 2.x (/psd2/v2) when asked, through 1.3 (/psd2/v1) by default", async () => {
  assert.match((await show(`${demo.url}/budget`)).text, /<option value="v2">openFinance 2.x/);
  for (const [api, other] of [["v2", "v1"], ["v1", "v2"]] as const) {
    const scaRedirect = await submit("/budget/connect", api === "v1" ? {} : { api });
    const browser = bank.browser();
    const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"), [ALICE_MAIN]);
    const budget = await show(done.location ?? "");
    assert.equal(budget.status, 200, budget.text);
    assert.match(budget.text, new RegExp(ALICE_MAIN));
    assert.match(budget.text, /\d+\.\d\d EUR/);
    assert.doesNotMatch(budget.text, /not available/);
    // A consent lives in the interface that created it: the other one does not know it.
    const consentId = /consent\s+<code>([^<]+)<\/code>/.exec(budget.text)?.[1] ?? "";
    const path = (v: string) => `/psd2/${v}/consents/${v === "v2" ? "account-access/" : ""}${consentId}/status`;
    assert.equal((await bank.tpp.get(path(api))).status, 200, api);
    const elsewhere = await bank.tpp.get(path(other));
    assert.ok(elsewhere.status >= 400, `${other}: ${elsewhere.text}`);
    // Each interface pushes its own form: NextGenPSD2 1.3's, openFinance PUSH 2.4's.
    const valid = (await pushedFor(consentId, 3)).filter((m) => m[2] === "valid");
    assert.deepEqual(valid.map((m) => m[3]), [api === "v2" ? "2.4" : "1.3"]);
  }
});

test("the budget connects through OAuth2: PAR, the PSU at the bank, the token on every read", async () => {
  assert.match((await show(`${demo.url}/budget`)).text, /Connect with OAuth2/);
  const authorize = await submit("/budget/oauth");
  assert.ok(authorize.startsWith(`${bank.authUrl}/oauth/authorize?`), authorize);
  const back = await authoriseInBrowser(bank.browser(), new URL(authorize), "bob",
    { accounts: [BOB_MAIN], redirectUri: `${demo.url}/budget/oauth/return` });
  assert.equal(back.searchParams.get("iss"), bank.authUrl);
  const budget = await show(back.href);
  assert.equal(budget.status, 200, budget.text);
  assert.match(budget.text, /Connected \(consent/);
  assert.match(budget.text, new RegExp(BOB_MAIN));
  const replayed = await show(back.href);
  assert.equal(replayed.status, 400, "the callback works once");
});

test("an unknown return state shows nothing of anyone's", async () => {
  assert.equal((await show(`${demo.url}/shop/return/${"0".repeat(32)}`)).status, 404);
  assert.equal((await show(`${demo.url}/budget/return/${"0".repeat(32)}`)).status, 404);
});

const ALICE_CARD = "525412******3241";

/** The rows of the section about `reference` on the budget page: [date, amount]. */
function sectionRows(text: string, reference: string): string[][] {
  const section = text.split("<section").find((s) => s.includes(`<code>${reference}</code>`)) ?? "";
  const row = /<tr><td>([\d-]+)<\/td><td>[^<]*<\/td>\s*<td class="amount">([^<]+)<\/td>/g;
  return [...section.matchAll(row)]
    .map(([, date = "", amount = ""]) => [date, amount]);
}

/** Every booked entry the bank holds for the period, read in one large page. */
async function bankEntries(consentId: string, path: string, key: string): Promise<number> {
  const dateFrom = budgetDateFrom(new Date());
  const headers = { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" };
  const list = await bank.tpp.get(`/psd2/v1/${path}?withBalance=false`, headers);
  const listed = list.body[path === "accounts" ? "accounts" : "cardAccounts"] as
    { resourceId: string }[];
  const query = `dateFrom=${dateFrom}&bookingStatus=booked&itemsPerPage=500`;
  const all = await bank.tpp.get(
    `/psd2/v1/${path}/${listed[0]?.resourceId}/transactions?${query}`, headers);
  return (all.body[key].booked as unknown[]).length;
}

test("the budget page lists every booked transaction newest first, named balances, and the card",
  async () => {
    const scaRedirect = await submit("/budget/connect");
    const browser = bank.browser();
    const review = await reachReview(browser, scaRedirect, "alice");
    const done = await confirm(browser, review, [ALICE_MAIN, ALICE_CARD]);
    const budget = await show(done.location ?? "");
    const consentId = /consent\s+<code>([^<]+)<\/code>/.exec(budget.text)?.[1] ?? "";
    assert.doesNotMatch(budget.text, /closingBooked|interimAvailable|expected:/);
    assert.match(budget.text, /Booked balance:/);
    for (const [reference, path, key] of [[ALICE_MAIN, "accounts", "transactions"],
      [ALICE_CARD, "card-accounts", "cardTransactions"]] as const) {
      const rows = sectionRows(budget.text, reference);
      assert.equal(rows.length, await bankEntries(consentId, path, key), reference);
      const dates = rows.map(([date]) => date ?? "");
      assert.deepEqual(dates, [...dates].sort().reverse(), `${reference}: newest first`);
    }
  });
