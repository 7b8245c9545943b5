/**
 * The interface statistics end to end: requests to a running bank count in their category (AIS,
 * PIS, PIIS, the PSU's pages) on the day of the app's clock, nothing else counts, and the public
 * page, its CSV and the operator's `statistics` command show the same figures.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { apiCategory } from "../../src/app/interface-statistics.js";
import { runOperator } from "../support/cli.js";
import { ALICE_MAIN, CREATION_HEADERS, paymentBody } from "../support/flows.js";
import { initiateAndLeave } from "../support/leaving-clients.js";
import { quarterOf } from "../../src/domain/statistics/report.js";
import { manualClock } from "../../src/lib/clock.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

const DAY_MS = 86_400_000;

/** The CSV's rows of one day, by category: requests and error rate. */
function rowsOf(csv: string, day: string): Record<string, string[]> {
  return Object.fromEntries(csv.split("\r\n").filter((line) => line.startsWith(`${day},`))
    .map((line) => line.split(",")).map(([, category = "", ...figures]) => [category, figures]));
}

async function feed(bank: TestBank): Promise<void> {
  const answers = await Promise.all([
    bank.tpp.post("/psd2/v1/consents", { access: { allPsd2: "allAccounts" } }, CREATION_HEADERS),
    bank.tpp.get("/psd2/v1/accounts"),
    bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(), CREATION_HEADERS),
    bank.tpp.get("/psd2/v1/payments/sepa-credit-transfers/no-such-payment"),
    bank.tpp.get("/psd2/v1/signing-baskets/no-such-basket"),
    bank.tpp.post("/psd2/v1/funds-confirmations",
      { account: { iban: ALICE_MAIN }, instructedAmount: { currency: "EUR", amount: "1.00" } }),
    bank.tpp.get("/psd2/v1/openapi.json"),
    bank.tpp.get("/psd2/v1/no-such-route"),
  ]);
  for (const answer of answers) assert.ok(answer.status < 500, answer.text);
  const browser = bank.browser();
  assert.equal((await browser.get("/")).status, 200);
  assert.equal((await browser.get("/statistics")).status, 200);
}

test("requests count in their category on the clock's day; the page, the CSV and the command "
  + "line agree", async (t) => {
  const start = new Date(Date.now() - 2 * DAY_MS);
  const clock = manualClock(start);
  const bank = await startOwnBank(t, { clock });
  await feed(bank);
  await bank.app.flushStatistics();
  clock.set(new Date(Date.now()));
  const day = start.toISOString().slice(0, 10);

  const browser = bank.browser();
  const csv = await browser.get("/statistics.csv");
  assert.equal(csv.status, 200);
  assert.match(String(csv.headers["content-type"]), /^text\/csv/);
  const rows = rowsOf(csv.html, day);
  // Requests and error rate; the mean time is the real one, whatever it was.
  const counted = Object.fromEntries(Object.entries(rows).map(([c, f]) => [c, [f[0], f[2]]]));
  assert.deepEqual(counted, { AIS: ["2", "0.000"], PIS: ["3", "0.000"], PIIS: ["1", "0.000"],
    PSU: ["1", "0.000"] });
  assert.ok(Number(rows.PIS?.[1]) > 0, "a mean time in ms");
  assert.equal(rows.AIS?.[3], "100.000");

  const quarter = quarterOf(day);
  const { dataDir, databaseUrl } = bank.database;
  const printed = runOperator(dataDir, ["statistics", "--quarter", quarter, "--csv"], databaseUrl);
  assert.equal(printed.status, 0, printed.stderr);
  assert.deepEqual(rowsOf(printed.stdout, day), rows);
  const table = runOperator(dataDir, ["statistics", "--quarter", quarter], databaseUrl);
  assert.match(table.stdout,
    new RegExp(`${day}\\s+PIS\\s+3\\s+[\\d.]+ ms\\s+0\\.000 %\\s+100\\.000 %`));
  assert.match(runOperator(dataDir, ["statistics", "--quarter", "2026-4"], databaseUrl).stderr,
    /--quarter takes a quarter such as 2026Q4/);

  const page = await browser.get("/statistics?lang=de");
  assert.equal(page.status, 200);
  assert.match(String(page.headers["content-security-policy"]), /default-src 'none'/);
  assert.doesNotMatch(page.html, /<script/);
  assert.match(page.html, /<h2 id="q\d{4}Q\d">\d\. Quartal \d{4}<\/h2>/);
  assert.match(page.html, /<svg class="chart" role="img"/);
  assert.match(page.html, /Zahlungs\u00adauslösung \(PIS\)<\/th>\s*<td>3<\/td>/);
});

test("requests whose clients left before the answer publish no errors and no downtime",
  async (t) => {
    const clock = manualClock(new Date(Date.now() - DAY_MS));
    const bank = await startOwnBank(t, { clock });
    const day = clock.now().toISOString().slice(0, 10);
    await initiateAndLeave(bank, 60);
    const answered = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(),
      CREATION_HEADERS);
    assert.ok(answered.status < 300, answered.text);
    // Beyond the 30 s after which a request still open counts as unanswered.
    clock.advance(60_000);
    await bank.app.flushStatistics();
    clock.set(new Date(Date.now()));
    const pis = rowsOf((await bank.browser().get("/statistics.csv")).html, day).PIS;
    assert.ok(Number(pis?.[0]) >= 1, "the answered initiation counts");
    assert.deepEqual([pis?.[2], pis?.[3]], ["0.000", "100.000"], "error rate, availability");
  });

test("API routes map to the guidelines' categories; the API's description and VoP to none", () => {
  const routes = {
    "/psd2/v1/consents": "AIS", "/psd2/v1/accounts/:accountId/transactions": "AIS",
    "/psd2/v1/card-accounts": "AIS", "/psd2/v2/consents/account-access": "AIS",
    "/psd2/v1/payments/:product": "PIS", "/psd2/v1/periodic-payments/:product/:paymentId": "PIS",
    "/psd2/v1/bulk-payments/:product": "PIS", "/psd2/v1/signing-baskets/:basketId": "PIS",
    "/psd2/v1/funds-confirmations": "PIIS", "/psd2/v1/consents/confirmation-of-funds": "PIIS",
    "/psd2/v1/openapi.json": null, "/vop/v1/payee-verifications": null, "/health": null,
  };
  assert.deepEqual(Object.fromEntries(Object.keys(routes).map((r) => [r, apiCategory(r)])), routes);
});
