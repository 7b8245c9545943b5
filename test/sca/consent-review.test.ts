/**
 * The consent review says, for each account, what the TPP will see, and until when; it names the
 * account as online banking does: its name, its IBAN in groups of four, what it holds now.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BOB_MAIN, confirm, consentBody, createConsent, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const hintOf = (html: string) => /<span class="hint" id="account-0-info">([^<]*)<\/span>/.exec(html)?.[1];

for (const [what, access, shown] of [
  ["allPsd2", undefined, "shares: account details, balances, transactions"],
  ["availableAccounts", { availableAccounts: "allAccounts" }, "shares: account details"],
  ["balances of one account", { accounts: [], balances: [{ iban: BOB_MAIN }], transactions: [] },
    "shares: account details, balances"],
] as const) {
  test(`a consent for ${what} shows "${shown}" next to the account`, async () => {
    const body = consentBody(access ? { access } : {});
    const { scaRedirect } = await createConsent(bank.tpp, body);
    const review = await reachReview(bank.browser(), scaRedirect, "bob");
    assert.match(review.html, new RegExp("<label for=\"account-0\"><strong>Girokonto</strong> "
      + "<span class=\"iban\">DE51 5001 0000 2000 0000 01</span></label>"));
    assert.match(hintOf(review.html) ?? "", new RegExp(`^€[\\d,]+\\.\\d\\d available · ${shown}$`));
    const validUntil = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" })
      .format(new Date(`${body.validUntil}T00:00:00Z`));
    assert.match(review.html, new RegExp(`Access valid until ${validUntil}<`));
  });
}

test("nothing is pre-ticked, and what the PSU ticked survives a refusal", async () => {
  const { scaRedirect } = await createConsent(bank.tpp,
    consentBody({ access: { accounts: [], balances: [], transactions: [] } }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect, "bob");
  assert.doesNotMatch(review.html, / checked/, "nothing the PSU did not choose");
  // Balances ticked, but no account: refused, and the balances box is still ticked.
  const refused = await confirm(browser, review, [], { balances: [BOB_MAIN], transactions: [] });
  assert.equal(refused.status, 400);
  assert.match(refused.html, /Select at least one account/);
  assert.match(refused.html, new RegExp(`name="balances" value="${BOB_MAIN}" checked>`));
  assert.match(refused.html, new RegExp(`name="transactions" value="${BOB_MAIN}">`));
  assert.match(refused.html, new RegExp(`name="account" value="${BOB_MAIN}" aria-describedby`));
});
