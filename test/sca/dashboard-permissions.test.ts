/**
 * The permission dashboard (PSR art. 43 of the proposal COM(2023) 367) over HTTP: for each
 * permission given through a provider (account-information consents on /v1 and /v2,
 * funds-confirmation consents, standing orders) the provider, accounts, declared purpose
 * (TPP-Declared-Purpose, or "not stated"), data categories, validity and status; withdrawal of a
 * standing order seen at once by the TPP (status and outbox) and a TPP's change seen at once on
 * the dashboard; the history of ended permissions, purged after PERMISSION_HISTORY_DAYS. The
 * accounts with their balances and the masked cards come first (issue 36).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addDays, dateInZone, manualClock } from "../../src/lib/clock.js";

type ManualClock = ReturnType<typeof manualClock>;
import { csrfOf, errorText, type BrowserClient, type Page } from "../support/browser.js";
import {
  ALICE_MAIN, authorisedConsent, BOB_MAIN, cancel, confirm, consentBody, createdStatus,
  CREATION_HEADERS,
  linkOf, OK_URI, paymentBody, reachReview, REDIRECTS,
} from "../support/flows.js";
import { logInDashboard } from "../support/psu.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";

const DAY = 86_400_000;
const PURPOSE = "TPP-Declared-Purpose";
const PERIODIC = "/psd2/v1/periodic-payments/sepa-credit-transfers";
const FUNDS = "/psd2/v1/consents/confirmation-of-funds";

const textOf = (markup: string) => markup.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

/** Each card of the page: its markup. */
const cardsOf = (page: Page) =>
  page.html.split('<li class="card">').slice(1).map((c) => c.split("</section>")[0] ?? "");

/** The card whose markup names `marker`, as text without tags. */
const cardOf = (page: Page, marker: string) =>
  textOf(cardsOf(page).find((c) => c.includes(marker)) ?? "");

function standingOrder(bank: TestBank, clock: ManualClock) {
  const tomorrow = addDays(dateInZone(clock.now(), bank.app.config.timeZone), 1);
  return { ...paymentBody({ debtorAccount: BOB_MAIN, creditorName: "Hausverwaltung Nord",
    instructedAmount: { currency: "EUR", amount: "1.25" } }),
  startDate: tomorrow, frequency: "Monthly" };
}

/** A standing order bob authorises; the TPP subscribed to its statuses. */
async function authorisedOrder(bank: TestBank, clock: ManualClock, headers = {}) {
  const created = await bank.tpp.post(PERIODIC, standingOrder(bank, clock), {
    ...CREATION_HEADERS, "TPP-Notification-URI": "https://localhost:9/notify", ...headers });
  assert.equal(created.status, createdStatus(bank.tpp), created.text);
  const browser = bank.browser();
  const review = await reachReview(browser, linkOf(bank.tpp, created.body._links.scaRedirect), "bob");
  assert.equal((await confirm(browser, review)).location, OK_URI);
  return created.body.paymentId as string;
}

const orderStatus = async (bank: TestBank, id: string) =>
  (await bank.tpp.get(`${PERIODIC}/${id}/status`)).body?.transactionStatus as unknown;

const consentStatus = async (bank: TestBank, id: string) =>
  (await bank.tpp.get(`/psd2/v1/consents/${id}/status`)).body?.consentStatus as unknown;

async function outboxOf(bank: TestBank, resourceId: string): Promise<unknown[]> {
  const rows = await bank.app.store.db.selectFrom("notifications").select("body")
    .where("resource_id", "=", resourceId).orderBy("position").execute();
  return rows.map((r) => (JSON.parse(r.body) as { transactionStatus?: string }).transactionStatus);
}

async function withdraw(psu: BrowserClient, page: Page, paymentId: string) {
  const ask = await psu.get(`/dashboard/withdraw?payment=${paymentId}`);
  assert.equal(ask.status, 200, ask.html);
  assert.match(ask.html, /<h1>Stop the standing order to Hausverwaltung Nord\?<\/h1>/);
  return psu.post("/dashboard/withdraw", { _csrf: csrfOf(page.html), payment: paymentId });
}

test("accounts with balances come first, cards after them masked, then the permissions",
  async (t) => {
    const bank = await startOwnBank(t);
    const page = await logInDashboard(bank.browser(), "bob");
    const order = ["Your accounts and cards", "Access to your accounts",
      "Payments initiated through providers"].map((h) => page.html.indexOf(`>${h}</h2>`));
    assert.ok(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))), String(order));
    const accounts = page.html.slice(order[0], order[1]);
    assert.match(accounts, /DE51 5001 0000 2000 0000 01/);
    assert.match(accounts, /<dt>Available now<\/dt><dd>€[\d,.]+<\/dd>/);
    assert.match(accounts, /Visa Classic<\/h3><p><span class="iban">•••• 7714<\/span>/);
    assert.ok(accounts.indexOf("•••• 7714") > accounts.indexOf("DE51 5001"), "cards after accounts");
    assert.doesNotMatch(page.html, /4921810000027714|492181/);
  });

test("every kind of permission with its provider, purpose or 'not stated', data and validity",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock });
    const browser = bank.browser();
    const declared = await bank.tpp.post("/psd2/v1/consents", consentBody(), {
      ...CREATION_HEADERS, [PURPOSE]: "Haushaltsbuch%3A%20monatliche%20%C3%9Cbersicht" });
    assert.equal(declared.status, createdStatus(bank.tpp), declared.text);
    const review = await reachReview(browser, linkOf(bank.tpp, declared.body._links.scaRedirect), "bob");
    await confirm(browser, review, [BOB_MAIN], { balances: [BOB_MAIN], transactions: [BOB_MAIN] });
    const other = await bank.tppWith({ name: "Budget App GmbH", organizationIdentifier: "PSDDE-BAFIN-424242" });
    const silent = await authorisedConsent(other, browser, "bob", [BOB_MAIN]);
    const funds = await bank.tpp.post(FUNDS, { account: { iban: BOB_MAIN } },
      { ...REDIRECTS, [PURPOSE]: "Card payments at Demo Shop" });
    assert.equal(funds.status, 201, funds.text);
    await confirm(browser, await reachReview(browser, linkOf(bank.tpp, funds.body._links.scaRedirect), "bob"), [BOB_MAIN]);
    const v2Tpp = await bank.tppWith({ name: "Haushalt App", organizationIdentifier: "PSDDE-BAFIN-515151" });
    const v2 = await v2Tpp.post("/psd2/v2/consents/account-access", {
      access: { payments: [{ account: { iban: BOB_MAIN }, rights: ["accountDetails", "balances"] }] },
      consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
    }, { "Client-Redirect-URI": OK_URI, "PSU-IP-Address": "192.0.2.1", [PURPOSE]: "Savings goals" });
    assert.equal(v2.status, 201, v2.text);
    await confirm(browser, await reachReview(browser, v2.body._links.scaRedirect.href, "bob"),
      [BOB_MAIN], { balances: [BOB_MAIN], transactions: [] });
    const order = await authorisedOrder(bank, clock, { [PURPOSE]: "Rent for flat 3" });
    const tooLong = await bank.tpp.post("/psd2/v1/consents", consentBody(),
      { ...CREATION_HEADERS, [PURPOSE]: "x".repeat(141) });
    assert.equal(tooLong.status, 400, tooLong.text);
    assert.equal(tooLong.body.tppMessages[0].path, PURPOSE);

    const page = await logInDashboard(bank.browser(), "bob");
    const first = cardOf(page, `value="${declared.body.consentId as string}"`);
    assert.match(first, /Purpose Haushaltsbuch: monatliche Übersicht/);
    assert.match(first, /Data account details, balances, transactions of the last 90 days/);
    assert.match(first, /Valid until [A-Z][a-z]+ \d{1,2}, \d{4}/);
    assert.match(first, /Status active/);
    assert.match(cardOf(page, `value="${silent}"`), /Purpose not stated by the provider/);
    const fundsCard = cardOf(page, `value="${funds.body.consentId as string}"`);
    assert.match(fundsCard, /Purpose Card payments at Demo Shop/);
    assert.match(fundsCard, /Data only whether an amount is available \(yes or no\)/);
    const v2Card = cardOf(page, `value="${v2.body.consentId as string}"`);
    assert.match(v2Card, /^Access for Haushalt App Status active Purpose Savings goals/);
    assert.match(v2Card, /Data account details, balances Given/);
    const orderCard = cardOf(page, `value="${order}"`);
    assert.match(orderCard, /Standing order: €1\.25 to Hausverwaltung Nord/);
    assert.match(orderCard, /Status active .*Initiated through Demo TPP Purpose Rent for flat 3/);
    assert.match(orderCard, /Schedule Monthly from/);
  });

test("a standing order withdrawn on the dashboard: CANC for the TPP at once, notified, no more runs",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock });
    const order = await authorisedOrder(bank, clock);
    const alices = await bank.tpp.post(PERIODIC, { ...standingOrder(bank, clock),
      debtorAccount: ALICE_MAIN }, CREATION_HEADERS);
    const psu = bank.browser();
    const page = await logInDashboard(psu, "bob");
    assert.match(cardOf(page, `value="${order}"`), /Stop this standing order/);

    const forged = await psu.post("/dashboard/withdraw", { _csrf: "forged", payment: order });
    assert.equal(forged.status, 403);
    const foreign = await psu.post("/dashboard/withdraw",
      { _csrf: csrfOf(page.html), payment: alices.body.paymentId as string });
    assert.equal(foreign.status, 400, `${foreign.location ?? ""} ${foreign.html}`);
    assert.equal(errorText(foreign), "This standing order cannot be stopped: it has already ended.");
    assert.equal(await orderStatus(bank, order), "ACTC");

    const done = await withdraw(psu, page, order);
    assert.equal(done.status, 303, done.html);
    const after = await psu.follow(done);
    assert.match(after.html, /The standing order has been stopped/);
    assert.match(cardOf(after, "Hausverwaltung Nord"), /Status stopped by you Ended on/);
    assert.equal(await orderStatus(bank, order), "CANC");
    assert.deepEqual((await outboxOf(bank, order)).slice(-1), ["CANC"]);
    const again = await psu.post("/dashboard/withdraw", { _csrf: csrfOf(page.html), payment: order });
    assert.equal(again.status, 400);
    clock.advance(40 * DAY);
    assert.equal(await bank.app.executeDuePayments(), 0, "no further execution");
    assert.equal(await orderStatus(bank, order), "CANC");
  });

test("a change through the API shows at once: a TPP's deletion of a consent and of a standing order",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock });
    const consent = await authorisedConsent(bank.tpp, bank.browser(), "bob", [BOB_MAIN]);
    const order = await authorisedOrder(bank, clock);
    const psu = bank.browser();
    const before = await logInDashboard(psu, "bob");
    assert.match(cardOf(before, `value="${consent}"`), /Status active/);
    clock.advance(60_000);
    assert.equal((await bank.tpp.call("DELETE", `/psd2/v1/consents/${consent}`)).status, 204);
    const cancelling = await bank.tpp.call("DELETE", `${PERIODIC}/${order}`);
    assert.equal(cancelling.status, 202, cancelling.text);
    const browser = bank.browser();
    const review = await reachReview(browser, linkOf(bank.tpp, cancelling.body._links.scaRedirect), "bob");
    assert.equal((await confirm(browser, review)).location, OK_URI);

    const after = await psu.get("/dashboard");
    assert.match(cardOf(after, "Access for Demo TPP"), /Status ended by the provider Ended on/);
    assert.doesNotMatch(after.html, new RegExp(`name="consent" value="${consent}"`));
    assert.match(cardOf(after, "Standing order: €1.25"), /Status cancelled Ended on/);
    assert.doesNotMatch(after.html, new RegExp(`name="payment" value="${order}"`));
  });

test("ended permissions stay listed with when and why for PERMISSION_HISTORY_DAYS, then are purged",
  async (t) => {
    const clock = manualClock(new Date());
    const bank = await startOwnBank(t, { clock, env: { PERMISSION_HISTORY_DAYS: "400" } });
    const browser = bank.browser();
    const replaced = await authorisedConsent(bank.tpp, browser, "bob", [BOB_MAIN]);
    clock.advance(60_000);
    const revoked = await authorisedConsent(bank.tpp, browser, "bob", [BOB_MAIN]);
    const refused = await bank.tpp.post("/psd2/v1/consents", consentBody(), CREATION_HEADERS);
    await cancel(browser, await reachReview(browser, linkOf(bank.tpp, refused.body._links.scaRedirect), "bob"));
    const expiring = await authorisedConsent(bank.tpp, browser, "bob", [BOB_MAIN], consentBody({
      recurringIndicator: false, frequencyPerDay: 1,
      validUntil: addDays(dateInZone(clock.now(), "UTC"), 1) }));
    const psu = bank.browser();
    const page = await logInDashboard(psu, "bob");
    assert.equal((await psu.post("/dashboard/revoke", { _csrf: csrfOf(page.html), consent: revoked })).status, 303);
    clock.advance(3 * DAY);
    assert.equal(await consentStatus(bank, expiring), "expired");

    const listed = await logInDashboard(bank.browser(), "bob");
    assert.match(listed.html, /Ended permissions stay listed for 400 days/);
    const cards = cardsOf(listed).map(textOf);
    for (const why of ["replaced by your newer consent", "revoked by you", "refused", "expired"]) {
      const pattern = new RegExp(`^Access for Demo TPP Status ${why} Ended on [A-Z][a-z]+ \\d{1,2}, \\d{4}`);
      assert.equal(cards.filter((c) => pattern.test(c)).length, 1, `${why}: ${cards.join("\n")}`);
    }
    clock.advance(390 * DAY);
    assert.equal((await bank.app.pruneRetained()).consents, 0, "within the history nothing goes");
    clock.advance(20 * DAY);
    const pruned = await bank.app.pruneRetained();
    assert.equal(pruned.consents, 4);
    for (const table of ["consents", "consent_accounts", "permission_purposes"] as const) {
      const rows = await bank.app.store.db.selectFrom(table).selectAll().execute();
      assert.deepEqual(rows.filter((r) => JSON.stringify(r).includes(revoked)), [], table);
    }
    const auths = await bank.app.store.db.selectFrom("authorisations").select("resource_id")
      .where("resource_id", "in", [replaced, revoked, expiring]).execute();
    assert.deepEqual(auths, []);
  });
