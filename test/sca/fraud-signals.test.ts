/**
 * Fraud signals (PSR arts. 83 and 89 in the Commission's proposal) over HTTP and the command
 * line: a payee IBAN that two PSUs reported (`payment report-fraud`, the dashboard's action) is
 * flagged, one PSU's reports alone never flag it; a later payment's review warns of it; `fraud
 * export` writes the flagged IBANs, `fraud import` flags another PSP's list or, for a list with a
 * mistake, nothing. A signing basket's review warns payment by payment. Rerun on PostgreSQL by fraud-signals.postgres.test.ts.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { csrfOf, errorText, type BrowserClient } from "../support/browser.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import {
  ALICE_MAIN, BOB_MAIN, CAROL_MAIN, confirm, createdStatus, createPayment, CREATION_HEADERS,
  linkOf, paymentBody, reachReview,
} from "../support/flows.js";
import { logInDashboard } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const cli = (...args: string[]) =>
  runOperator(bank.app.config.dataDir, args, bank.app.config.databaseUrl);

const payTo = (debtor: string, iban: string) => paymentBody({
  debtorAccount: debtor, creditorAccount: iban, creditorName: "Maximilian Alexander Huber",
  instructedAmount: { currency: "EUR", amount: "1.00" },
});

/** A payment `login` made from `debtor` to `iban`, executed; its id. */
async function executed(login: string, debtor: string, iban: string): Promise<string> {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, payTo(debtor, iban));
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, scaRedirect, login));
  return paymentId;
}

/** What the review of a new payment of bob's to `iban` says under "Fraud warning", if anything. */
async function reviewWarning(iban: string, lang = "en"): Promise<string | undefined> {
  const { scaRedirect } = await createPayment(bank.tpp, payTo(BOB_MAIN, iban));
  const review = await reachReview(bank.browser(), scaRedirect.replace("lang=en", `lang=${lang}`),
    "bob");
  return /<dt>(?:Fraud warning|Betrugswarnung)<\/dt><dd><span class="warning" role="alert">([^<]*)</
    .exec(review.html)?.[1];
}

const reportedByCli = (paymentId: string) =>
  jsonOf(cli("payment", "report-fraud", paymentId, "--json"));

test("one PSU's reports never flag a payee; a second PSU's does, and the review then warns",
  async () => {
    const suspect = "DE07700500000190000002";
    const [first, again] = [await executed("bob", BOB_MAIN, suspect),
      await executed("bob", BOB_MAIN, suspect)];
    const carols = await executed("carol", CAROL_MAIN, suspect);
    assert.equal(reportedByCli(first).payeeFlagged, false);
    assert.equal(reportedByCli(again).payeeFlagged, false, "the same PSU twice is one reporter");
    assert.equal(await reviewWarning(suspect), undefined);
    const second = reportedByCli(carols);
    assert.deepEqual([second.payeeIban, second.payeeFlagged], [suspect, true]);
    assert.match(await reviewWarning(suspect) ?? "", /^Customers of this bank have reported/);
    assert.match(await reviewWarning(suspect, "de") ?? "", /^Kunden dieser Bank haben/);
    assertRefused(cli("payment", "report-fraud", carols), /was reported as fraud already/);
  });

/** The dashboard's "are you sure?" page for one payment, after the PSU's login. */
async function askToReport(browser: BrowserClient, paymentId: string) {
  return browser.get(`/dashboard/report-fraud?payment=${paymentId}`);
}

test("the dashboard's payment is reported after an 'are you sure?', with the session's CSRF token",
  async () => {
    const suspect = "DE79100500000190000001";
    const bobs = await executed("bob", BOB_MAIN, suspect);
    const browser = bank.browser();
    const overview = await logInDashboard(browser, "bob");
    assert.match(overview.html, new RegExp(`name="payment" value="${bobs}"`));
    const asked = await askToReport(browser, bobs);
    assert.equal(asked.status, 200, asked.html);
    assert.match(asked.html, /<h1>Report this payment as fraud\?<\/h1>/);
    const forged = await browser.post("/dashboard/report-fraud", { _csrf: "x", payment: bobs });
    assert.equal(forged.status, 403);
    const done = await browser.post("/dashboard/report-fraud",
      { _csrf: csrfOf(asked.html), payment: bobs });
    assert.equal(done.status, 303, done.html);
    assert.equal(done.location, "/dashboard?done=fraud_reported");
    assert.match((await browser.follow(done)).html, /Your report has been recorded/);
    const twice = await browser.post("/dashboard/report-fraud",
      { _csrf: csrfOf(asked.html), payment: bobs });
    assert.equal(twice.status, 400);
    assert.match(errorText(twice), /only an executed payment can, and only once/);
    assert.equal(await reviewWarning(suspect), undefined, "one reporter so far");
    assert.equal(reportedByCli(await executed("alice", ALICE_MAIN, suspect)).payeeFlagged, true,
      "the forged post reported nothing, the dashboard's report counts");
  });

test("the dashboard offers no report of a payment not executed, nor takes another PSU's",
  async () => {
    const open = await createPayment(bank.tpp, payTo(BOB_MAIN, "DE89370400440532013000"));
    const alices = await createPayment(bank.tpp, payTo(ALICE_MAIN, "DE89370400440532013000"));
    const browser = bank.browser();
    const overview = await logInDashboard(browser, "bob");
    assert.match(overview.html, new RegExp(`/dashboard/receipt\\?payment=${open.paymentId}`));
    assert.doesNotMatch(overview.html, new RegExp(`name="payment" value="${open.paymentId}"`));
    for (const id of [open.paymentId, alices.paymentId]) {
      const asked = await askToReport(browser, id);
      assert.equal(asked.status, 400, id);
      const posted = await browser.post("/dashboard/report-fraud",
        { _csrf: csrfOf(overview.html), payment: id });
      assert.equal(posted.status, 400, id);
    }
  });

const OTHER_PSP = "FR7630006000011234567890189";

test("fraud export writes the flagged IBANs; import flags another PSP's list", async () => {
  const flaggedHere = "DE42200400000190000003";
  for (const [login, debtor] of [["carol", CAROL_MAIN], ["bob", BOB_MAIN]] as const) {
    reportedByCli(await executed(login, debtor, flaggedHere));
  }
  const document = JSON.parse(cli("fraud", "export").stdout);
  assert.deepEqual([document.format, document.version, document.provider],
    ["psd2-bank/fraud-signals", 1, bank.app.config.bankName]);
  const entry = document.identifiers.find((i: { value: string }) => i.value === flaggedHere);
  assert.deepEqual({ ...entry, flaggedAt: typeof entry.flaggedAt },
    { type: "IBAN", value: flaggedHere, flaggedAt: "string", reporters: 2, sharedBy: null });
  const file = join(bank.app.config.dataDir, "other-psp.json");
  await writeFile(file, JSON.stringify({ format: "psd2-bank/fraud-signals", version: 1,
    provider: "Other Bank SA", exportedAt: "2026-11-27T10:00:00Z",
    identifiers: [{ type: "IBAN", value: "FR76 3000 6000 0112 3456 7890 189" }] }));
  assert.deepEqual(jsonOf(cli("fraud", "import", file, "--json")),
    { provider: "Other Bank SA", identifiers: 1, flagged: 1 });
  assert.match(await reviewWarning(OTHER_PSP) ?? "", /^Customers of this bank/);
  const again = JSON.parse(cli("fraud", "export").stdout).identifiers
    .find((i: { value: string }) => i.value === OTHER_PSP);
  assert.deepEqual([again.reporters, again.sharedBy], [0, "Other Bank SA"]);
  assert.deepEqual(await basketWarnings([OTHER_PSP, "DE89370400440532013000"]), [true, false]);
});

/** Whether a signing basket's review warns, payment by payment, of bob's payments to `ibans`. */
async function basketWarnings(ibans: string[]): Promise<boolean[]> {
  const paymentIds = [];
  for (const iban of ibans) {
    paymentIds.push((await createPayment(bank.tpp, payTo(BOB_MAIN, iban))).paymentId);
  }
  const basket = await bank.tpp.post("/psd2/v1/signing-baskets", { paymentIds }, CREATION_HEADERS);
  assert.equal(basket.status, createdStatus(bank.tpp), basket.text);
  const review = await reachReview(bank.browser(), linkOf(bank.tpp, basket.body._links.scaRedirect),
    "bob");
  return review.html.split('<dl class="review">').slice(1, 1 + ibans.length)
    .map((payment) => payment.includes("<dt>Fraud warning</dt>"));
}

test("a list with a mistake is refused naming it, and flags nothing", async () => {
  const good = { type: "IBAN", value: "NL91ABNA0417164300" };
  const lists: [unknown, RegExp][] = [
    [{ format: "other", version: 1, provider: "X", identifiers: [good] }, /format: expected/],
    [{ format: "psd2-bank/fraud-signals", version: 1, identifiers: [good] }, /provider: /],
    [{ format: "psd2-bank/fraud-signals", version: 1, provider: "X", identifiers: [good,
      { type: "IBAN", value: "NL00ABNA0417164300" }] }, /identifiers\[1\]\.value: not a valid IBAN/],
    [{ format: "psd2-bank/fraud-signals", version: 1, provider: "X", identifiers: [good,
      { type: "phone", value: "+3161234" }] }, /identifiers\[1\]\.type: only "IBAN"/],
  ];
  const file = join(bank.app.config.dataDir, "bad.json");
  for (const [list, message] of lists) {
    await writeFile(file, JSON.stringify(list));
    assertRefused(cli("fraud", "import", file), message);
  }
  await writeFile(file, "{not json");
  assertRefused(cli("fraud", "import", file), /bad\.json: not JSON/);
  assertRefused(cli("fraud", "import", join(bank.app.config.dataDir, "missing.json")),
    /missing\.json: cannot read it \(ENOENT\)/);
  const values = JSON.parse(cli("fraud", "export").stdout).identifiers
    .map((i: { value: string }) => i.value);
  assert.ok(!values.includes(good.value), values.join());
});
