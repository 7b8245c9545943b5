/**
 * The consent flow of the spec (sections 1, 2.5-2.7, 3.2) end to end: register over the API, the
 * PSU's pages as form posts, then account reads with Consent-ID, over real TLS and SQLite.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { DEMO_BANK_CODE } from "../../src/ledger/demo-data.js";
import { makeIban } from "../../src/lib/iban.js";
import { groupedIban } from "../../src/sca/format.js";
import type { BrowserClient, Page } from "../support/browser.js";
import {
  BOB_MAIN, cancel, confirm, consentBody, createConsent, enterCode, logIn, NOK_URI, OK_URI, open,
  reachReview, REDIRECTS,
} from "../support/flows.js";
import { codeFor, demoPsu } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL = /^-?\d+\.\d{2}$/;
const CAROL_IBANS = demoPsu("carol").accounts
  .map((a) => makeIban("DE", DEMO_BANK_CODE + a.accountNumber));
const CAROL_CARD = "525412******5541";
const PRODUCTS = new Map(demoPsu("carol").accounts
  .map((a, i) => [CAROL_IBANS[i] ?? "", a.product] as const));

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const statusOf = async (tpp: TppClient, consentId: string) =>
  (await tpp.get(`/psd2/v1/consents/${consentId}/status`)).body?.consentStatus as unknown;

const readAccounts = (tpp: TppClient, consentId: string, withBalance: boolean) =>
  tpp.get(`/psd2/v1/accounts?withBalance=${withBalance}`, { "Consent-ID": consentId });

/** The Berlin Group error code of a refusal, asserting its status. */
function errorCode(res: { status: number; body: any; text: string }, status: number): unknown {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.tppMessages?.length, 1, res.text);
  return res.body.tppMessages[0].code;
}

/** The account checkboxes of a consent review: value and label text of each. */
function accountBoxes(html: string): { value: string; label: string }[] {
  const boxes = html.matchAll(
    /<input type="checkbox" id="([^"]+)" name="account" value="([^"]+)"/g);
  return [...boxes].map(([, id, value]) => ({
    value: value ?? "",
    // The reference under the account's name: what the PSU compares with its statements.
    label: new RegExp(`<label for="${id}">[^]*?<span class="iban">([^<]*)</span>`)
      .exec(html)?.[1] ?? "",
  }));
}

function errorText(page: Page): string | undefined {
  return /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(page.html)?.[1];
}

/** Registers a consent and lets `login` confirm it for `ibans`; returns the consent's id. */
async function authorisedConsent(login: string, ibans: string[], body = consentBody()) {
  const { consentId, scaRedirect } = await createConsent(bank.tpp, body);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, scaRedirect, login), ibans);
  assert.equal(done.status, 200, done.html);
  assert.equal(done.location, OK_URI);
  return consentId;
}

test("registering a consent answers 200 with exactly the body of spec 2.6", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody(), REDIRECTS);
  assert.equal(res.status, 200, res.text);
  const consentId = res.body.consentId as string;
  assert.match(consentId, UUID);
  const scaRedirect = res.body._links?.scaRedirect as string;
  assert.deepEqual(res.body, {
    consentStatus: "received", consentId, scaMethods: null, chosenScaMethod: null,
    challengeData: null, _links: { scaStatus: `/consent/${consentId}/status`, scaRedirect },
    message: null,
  });
  const link = new URL(scaRedirect);
  assert.equal(link.origin, bank.authUrl);
  assert.equal(link.pathname, "/sca/consent");
  assert.equal(link.searchParams.get("successUrl"), OK_URI);
  assert.equal(link.searchParams.get("failureUrl"), NOK_URI);
  assert.equal(link.searchParams.get("lang"), "en");
  assert.equal(link.searchParams.get("loc"), "en_US");
  assert.match(link.searchParams.get("token") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
});

test("a consent's status is readable at the plural, singular and scaStatus path", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody(), REDIRECTS);
  const consentId = res.body.consentId as string;
  const paths = [
    `/psd2/v1/consents/${consentId}/status`,
    `/psd2/v1/consent/${consentId}/status`,
    res.body._links.scaStatus as string,
  ];
  for (const path of paths) {
    const status = await bank.tpp.get(path);
    assert.equal(status.status, 200, `${path}: ${status.text}`);
    assert.deepEqual(status.body, { consentStatus: "received" }, path);
  }
});

test("a consent not yet authorised is refused for account reads with CONSENT_INVALID", async () => {
  const { consentId } = await createConsent(bank.tpp);
  assert.equal(errorCode(await readAccounts(bank.tpp, consentId, false), 401), "CONSENT_INVALID");
});

test("carol selects two of her three accounts and the TPP reads exactly those two", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "carol");
  const boxes = accountBoxes(review.html).sort((a, b) => a.value.localeCompare(b.value));
  const offered = [CAROL_CARD, ...CAROL_IBANS].sort();
  // Labelled as a bank prints them: an IBAN in groups of four, a card's masked number as it is.
  assert.deepEqual(boxes, offered.map((ref) => ({ value: ref, label: ref === CAROL_CARD ? ref : groupedIban(ref) })),
    "her accounts and her card");
  assert.match(review.html, /<button type="submit"[^>]*>Confirm<\/button>/);
  const chosen = CAROL_IBANS.slice(0, 2);
  const done = await confirm(browser, review, chosen);
  assert.equal(done.status, 200, done.html);
  assert.equal(done.location, OK_URI);
  assert.equal(await statusOf(bank.tpp, consentId), "valid");

  const res = await readAccounts(bank.tpp, consentId, false);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ["accounts"]);
  const accounts = res.body.accounts as Record<string, unknown>[];
  assert.deepEqual(accounts.map((a) => a.iban).sort(), [...chosen].sort());
  for (const account of accounts) {
    assert.equal(typeof account.resourceId, "string");
    assert.notEqual(account.resourceId, "");
    assert.deepEqual(account, {
      resourceId: account.resourceId, iban: account.iban, bban: null, msisdn: null,
      currency: "EUR", name: null, product: PRODUCTS.get(String(account.iban)),
      cashAccountType: null, status: "enabled", bic: bank.app.config.bankBic,
      linkedAccounts: null, usage: "PRIV", details: null, balances: null, _links: null,
    });
  }

  const withBalance = await readAccounts(bank.tpp, consentId, true);
  assert.equal(withBalance.status, 200, withBalance.text);
  assert.equal(withBalance.body.accounts.length, 2);
  for (const account of withBalance.body.accounts as { balances: any[] }[]) {
    assert.deepEqual(account.balances.map((b) => b.balanceType),
      ["closingBooked", "expected", "interimAvailable"]);
    for (const balance of account.balances) {
      assert.equal(balance.balanceAmount.currency, "EUR");
      assert.match(balance.balanceAmount.amount, DECIMAL);
    }
  }
});

test("a consent cancelled on the review reads rejected and cannot be used", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const done = await cancel(browser, await reachReview(browser, scaRedirect, "bob"));
  assert.equal(done.status, 200, done.html);
  assert.equal(done.location, NOK_URI);
  assert.equal(await statusOf(bank.tpp, consentId), "rejected");
  assert.equal(errorCode(await readAccounts(bank.tpp, consentId, false), 401), "CONSENT_INVALID");
});

test("confirming with no account selected shows an error and changes nothing", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "bob");
  const refused = await confirm(browser, review, []);
  assert.equal(refused.status, 400, refused.html);
  assert.equal(errorText(refused), "Select at least one account.");
  assert.equal(await statusOf(bank.tpp, consentId), "received");
  assert.equal(errorCode(await readAccounts(bank.tpp, consentId, false), 401), "CONSENT_INVALID");
  // The PSU is still on the review and can go on.
  const done = await confirm(browser, refused, [BOB_MAIN]);
  assert.equal(done.location, OK_URI);
  assert.equal(await statusOf(bank.tpp, consentId), "valid");
});

/** Carol's review of a dedicated consent for bob's account: error shown, no Confirm. */
async function foreignReview(browser: BrowserClient) {
  const access = { accounts: [{ iban: BOB_MAIN }], balances: [], transactions: [] };
  const body = consentBody({ access });
  const { consentId, scaRedirect } = await createConsent(bank.tpp, body);
  const login = await open(browser, scaRedirect);
  const code = await browser.follow(await logIn(browser, login, "carol", "carol-demo"));
  const carolsCode = await codeFor(browser, "carol");
  const review = await browser.follow(await enterCode(browser, code, carolsCode));
  assert.match(errorText(review) ?? "", new RegExp(`not yours: ${BOB_MAIN}\\.`), review.html);
  assert.doesNotMatch(review.html, /action="\/sca\/confirm"/);
  assert.deepEqual(accountBoxes(review.html), []);
  assert.equal(await statusOf(bank.tpp, consentId), "rejected", "the TPP sees it rejected before any decision");
  return { consentId, review };
}

test("a consent naming an account the PSU does not hold is shown as an error and ends rejected",
  async () => {
    const browser = bank.browser();
    const { consentId, review } = await foreignReview(browser);
    const done = await cancel(browser, review);
    assert.equal(done.location, NOK_URI);
    assert.equal(await statusOf(bank.tpp, consentId), "rejected");
  });

test("a forced confirm of a consent for a foreign account rejects it", async () => {
  const browser = bank.browser();
  const { consentId, review } = await foreignReview(browser);
  const done = await confirm(browser, review, [BOB_MAIN]);
  assert.equal(done.status, 400, done.html);
  assert.equal(await statusOf(bank.tpp, consentId), "rejected");
  assert.equal(errorCode(await readAccounts(bank.tpp, consentId, false), 401), "CONSENT_INVALID");
});

test("another TPP using the first TPP's Consent-ID gets the answer for an unknown consent",
  async () => {
    const consentId = await authorisedConsent("bob", [BOB_MAIN]);
    assert.equal((await readAccounts(bank.tpp, consentId, false)).status, 200);
    const other = await bank.tppWith({});
    for (const id of [consentId, randomUUID()]) {
      assert.equal(errorCode(await readAccounts(other, id, false), 400), "CONSENT_UNKNOWN");
      for (const path of [`/psd2/v1/consents/${id}/status`, `/consent/${id}/status`]) {
        assert.equal(errorCode(await other.get(path), 403), "CONSENT_UNKNOWN", path);
      }
    }
    assert.equal(await statusOf(bank.tpp, consentId), "valid");
  });

test("a consent valid until 9999-12-31 is accepted", async () => {
  const res = await bank.tpp.post("/psd2/v1/consents", consentBody({ validUntil: "9999-12-31" }),
    REDIRECTS);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.consentStatus, "received");
  assert.match(res.body.consentId, UUID);
});
