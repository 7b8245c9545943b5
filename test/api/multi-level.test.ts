/**
 * Multi-level SCA for company customers (PSU-Corporate-ID): a payment or consent on an account
 * that needs two signatures is started by the TPP once per user (startAuthorisation), reads PATC
 * (partiallyAuthorised) after the first user's SCA, and goes through after the second; the same
 * user cannot sign twice and a user who may only see the account cannot sign at all. Through the
 * bank's pages, the embedded and the decoupled approach. Rerun under berlin-group by its
 * .berlin-group file, and on PostgreSQL by its .postgres file.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, bookings, cancel, confirm, consentBody, CREATION_HEADERS, createdStatus, enterCode,
  ibanOf, linkOf, logIn, OK_URI, open, optionalLink, paymentBody, reachReview,
} from "../support/flows.js";
import { codeFor, demoPsu, logInDashboard, nextTotp } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const NORDWIND = ibanOf("8500000001");
const SOMMER = ibanOf("8600000001");
const AS_NORDWIND = { ...CREATION_HEADERS, "PSU-Corporate-ID": "nordwind" };
const EMBEDDED = { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-Preferred": "false" };

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { SCA_APPROACHES: "redirect,embedded,decoupled" } });
});
after(async () => { await bank.close(); });

const statusOf = async (id: string) =>
  (await bank.tpp.get(`${SCT}/${id}/status`)).body.transactionStatus as string;

/** A payment from the Nordwind account: created without an authorisation, to be started. */
async function nordwindPayment(cents = 4_200) {
  const body = paymentBody({ debtorAccount: NORDWIND,
    instructedAmount: { currency: "EUR", amount: cents / 100 } });
  const res = await bank.tpp.post(SCT, body, AS_NORDWIND);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  // Berlin Group: with several authorisations, no scaRedirect in the creation's answer.
  assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
  return { id: res.body.paymentId as string,
    start: linkOf(bank.tpp, res.body._links.startAuthorisation) };
}

/** One user's authorisation on the bank's pages: the TPP starts it, the link goes to the PSU. */
async function startRedirect(start: string): Promise<string> {
  const res = await bank.tpp.post(start, {}, CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  return linkOf(bank.tpp, res.body._links.scaRedirect);
}

/** Logs `login` in on the link and returns the review it reaches. */
async function review(scaRedirect: string, login: string) {
  const browser = bank.browser();
  return { browser, page: await reachReview(browser, scaRedirect, login) };
}

/** The review as a user sees it who may not confirm: the reason, and no confirm form. */
async function refusedReview(scaRedirect: string, login: string) {
  const browser = bank.browser();
  const loginPage = await open(browser, scaRedirect);
  const code = await browser.follow(await logIn(browser, loginPage, login, `${login}-demo`));
  const page = await browser.follow(await enterCode(browser, code, await codeFor(browser, login)));
  assert.doesNotMatch(page.html, /action="\/sca\/confirm"/);
  return /<p class="error" role="alert" id="form-error">([^<]*)</.exec(page.html)?.[1] ?? "";
}

function refusal(res: { status: number; body: any; text: string }, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.tppMessages[0].code, code);
  return res.body.tppMessages[0].text as string;
}

test("two signatures: karl on the pages makes it PATC, karl again is refused, jana in embedded "
  + "executes it once", async () => {
  const { id, start } = await nordwindPayment();
  assert.equal(await statusOf(id), "RCVD");
  const dashboard = await logInDashboard(bank.browser(), "karl");
  assert.match(dashboard.html, /Waiting for your signature/);
  assert.match(dashboard.html, /0 of 2/);

  const first = await review(await startRedirect(start), "karl");
  assert.match(first.page.html, /Signatures/);
  assert.match(first.page.html, /records your signature/);
  const signed = await confirm(first.browser, first.page);
  assert.equal(signed.location, OK_URI);
  assert.match(signed.outcome ?? "", /once everyone who must sign has signed/);
  assert.equal(await statusOf(id), "PATC");
  const authorisations = await bank.tpp.get(start);
  const [firstId] = authorisations.body.authorisationIds as string[];
  assert.equal((await bank.tpp.get(`${start}/${firstId}`)).body.scaStatus, "finalised");
  assert.doesNotMatch((await logInDashboard(bank.browser(), "karl")).html,
    /Waiting for your signature/);

  assert.match(await refusedReview(await startRedirect(start), "karl"),
    /You have signed this already/);
  assert.equal(await statusOf(id), "PATC");

  const started = await bank.tpp.post(start,
    { psuData: { password: demoPsu("jana").password } }, { ...EMBEDDED, "PSU-ID": "jana" });
  assert.equal(started.status, 201, started.text);
  assert.equal(started.body.scaStatus, "scaMethodSelected");
  const device = demoPsu("jana").device;
  assert.equal(device.kind, "totp");
  const done = await bank.tpp.call("PUT", linkOf(bank.tpp, started.body._links.authoriseTransaction),
    { body: { scaAuthenticationData: await nextTotp(device.secret, bank.authUrl) } });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.scaStatus, "finalised");
  assert.equal(await statusOf(id), "ACSC");
  assert.equal(await bookings(bank, id), 1);
});

test("lea may see the company's payment but not sign it: no confirm on the review, refused in "
  + "embedded before any code", async () => {
  const { id, start } = await nordwindPayment(100);
  assert.match(await refusedReview(await startRedirect(start), "lea"),
    /You may not sign for this account/);
  const embedded = await bank.tpp.post(start,
    { psuData: { password: demoPsu("lea").password } }, { ...EMBEDDED, "PSU-ID": "lea" });
  assert.match(refusal(embedded, 401, "PSU_CREDENTIALS_INVALID"), /no right to sign/);
  assert.equal(await statusOf(id), "RCVD");
});

test("a second signer's cancel on the review cancels the payment", async () => {
  const { id, start } = await nordwindPayment(200);
  const first = await review(await startRedirect(start), "karl");
  await confirm(first.browser, first.page);
  const browser = bank.browser();
  const login = await open(browser, await startRedirect(start));
  const code = await browser.follow(await logIn(browser, login, "jana", "jana-demo"));
  const page = await browser.follow(await enterCode(browser, code,
    await codeFor(browser, "jana")));
  assert.equal(await statusOf(id), "PATC");
  const cancelled = await cancel(browser, page);
  assert.equal(cancelled.status, 200, cancelled.html);
  assert.equal(await statusOf(id), "CANC");
});

test("PSU-Corporate-ID must name the company holding the debtor account; an unknown one answers alike",
  async () => {
    const unknown = await bank.tpp.post(SCT, paymentBody({ debtorAccount: NORDWIND }),
      { ...CREATION_HEADERS, "PSU-Corporate-ID": "nobody" });
    assert.match(refusal(unknown, 401, "CORPORATE_ID_INVALID"), /does not name the holder/);
    assert.equal(unknown.body.tppMessages[0].path, "PSU-Corporate-ID");
    const foreign = await bank.tpp.post(SCT, paymentBody({ debtorAccount: ALICE_MAIN }), AS_NORDWIND);
    refusal(foreign, 401, "CORPORATE_ID_INVALID");
    // Which company ids exist must not show: a known company with another's account, an unknown one.
    const unknownOnAlice = await bank.tpp.post(SCT, paymentBody({ debtorAccount: ALICE_MAIN }),
      { ...CREATION_HEADERS, "PSU-Corporate-ID": "nobody" });
    assert.deepEqual(foreign.body, unknownOnAlice.body);
    assert.equal(foreign.status, unknownOnAlice.status);
    const consent = await bank.tpp.post("/psd2/v1/consents", consentBody(),
      { ...CREATION_HEADERS, "PSU-Corporate-ID": "nobody" });
    refusal(consent, 401, "CORPORATE_ID_INVALID");
  });

test("a sole trader signs alone: the payment gets its scaRedirect and executes at once",
  async () => {
    const res = await bank.tpp.post(SCT, paymentBody({ debtorAccount: SOMMER }),
      { ...CREATION_HEADERS, "PSU-Corporate-ID": "sommer" });
    assert.equal(res.status, createdStatus(bank.tpp), res.text);
    const { browser, page } = await review(linkOf(bank.tpp, res.body._links.scaRedirect), "mia");
    assert.doesNotMatch(page.html, /Signatures/);
    await confirm(browser, page);
    assert.equal(await statusOf(res.body.paymentId), "ACSC");
  });

test("a consent on the company's account: partiallyAuthorised after jana, unusable until karl "
  + "signs what she chose", async () => {
  const access = { accounts: [NORDWIND], balances: [NORDWIND], transactions: [] };
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody({ access }), AS_NORDWIND);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
  const consentId = res.body.consentId as string;
  const start = linkOf(bank.tpp, res.body._links.startAuthorisation);
  const consentStatus = async () =>
    (await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`)).body.consentStatus;

  const first = await review(await startRedirect(start), "jana");
  const signed = await confirm(first.browser, first.page, [NORDWIND]);
  assert.match(signed.outcome ?? "", /once everyone who must sign has signed/);
  assert.equal(await consentStatus(), "partiallyAuthorised");
  const early = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId });
  assert.match(refusal(early, 401, "CONSENT_INVALID"), /Not every signature/);

  const second = await review(await startRedirect(start), "karl");
  await confirm(second.browser, second.page, [NORDWIND]);
  assert.equal(await consentStatus(), "valid");
  const accounts = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId });
  assert.equal(accounts.status, 200, accounts.text);
  assert.deepEqual(accounts.body.accounts.map((a: { iban: string }) => a.iban), [NORDWIND]);
});

test("two users confirming at the same moment both count: the payment executes, booked once",
  async () => {
    const { id, start } = await nordwindPayment(300);
    const karl = await review(await startRedirect(start), "karl");
    const jana = await review(await startRedirect(start), "jana");
    const results = await Promise.all([karl, jana].map((r) => confirm(r.browser, r.page)));
    assert.deepEqual(results.map((r) => r.location), [OK_URI, OK_URI]);
    assert.equal(await statusOf(id), "ACSC");
    assert.equal(await bookings(bank, id), 1);
  });

test("one user confirming in two sessions at once signs once", async () => {
  const { id, start } = await nordwindPayment(400);
  const first = await review(await startRedirect(start), "karl");
  const second = await review(await startRedirect(start), "karl");
  const results = await Promise.all([first, second].map((r) => confirm(r.browser, r.page)));
  assert.equal(results.filter((r) => r.location === OK_URI).length, 1,
    results.map((r) => r.html).join("\n"));
  assert.equal(await statusOf(id), "PATC");
});

test("decoupled: karl approves in his app (PATC), lea's approval is refused, jana's executes it",
  async () => {
    const { id, start } = await nordwindPayment(500);
    const viaApp = async (login: string) => {
      const started = await bank.tpp.post(start, {}, { "PSU-IP-Address": "192.0.2.1",
        "TPP-Decoupled-Preferred": "true", "PSU-ID": login });
      assert.equal(started.status, 201, started.text);
      const acted = await bank.browser().post(`/sandbox/app/${login}/approve`, {});
      return JSON.parse(acted.html || "{}");
    };
    await viaApp("karl");
    assert.equal(await statusOf(id), "PATC");
    assert.equal((await viaApp("lea")).problem, "no_signing_right");
    assert.equal(await statusOf(id), "PATC");
    await viaApp("jana");
    assert.equal(await statusOf(id), "ACSC");
  });
