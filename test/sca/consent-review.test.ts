/** The consent review says, for each account, what the TPP will see, and until when. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BOB_MAIN, consentBody, createConsent, reachReview } from "../support/flows.js";
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
    assert.equal(hintOf(review.html), `Girokonto · EUR · ${shown}`);
    const validUntil = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" })
      .format(new Date(`${body.validUntil}T00:00:00Z`));
    assert.match(review.html, new RegExp(`Access valid until ${validUntil}<`));
  });
}
