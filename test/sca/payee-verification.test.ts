/**
 * Verification of Payee on the PSU's review: each outcome said before Confirm (in English and
 * German), and a payee whose name did not match confirmed only after the PSU ticks that it
 * understands; that confirmation is kept on the payment and in the audit log.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { VOP_OVERRIDE_PATH } from "../../src/domain/payment/decision.js";
import { csrfOf, errorText } from "../support/browser.js";
import { jsonOf, runOperator } from "../support/cli.js";
import { ALICE_SAVINGS, BOB_MAIN, createPayment, OK_URI, paymentBody, reachReview, settled } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const DIRECTORY = fileURLToPath(new URL("../../../test/fixtures/vop-directory.json", import.meta.url));
const ELSEWHERE = "DE44760400610190000005";
const NOT_POSSIBLE = "DE42200400000190000003";

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { VOP_DIRECTORY_FILE: DIRECTORY } });
});
after(async () => { await bank.close(); });

async function reviewFor(iban: string, name: string, lang = "en") {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp,
    paymentBody({ creditorAccount: { iban }, creditorName: name }));
  const browser = bank.browser();
  const review = await reachReview(browser, scaRedirect.replace("lang=en", `lang=${lang}`), "alice");
  return { paymentId, browser, review };
}

const nameCheck = (html: string) =>
  /<dt>(?:Name check|Namensprüfung)<\/dt><dd><span class="([^"]+)"[^>]*>([^<]*)<\/span>/.exec(html)
    ?.slice(1);

test("each outcome is said on the review, before Confirm", async () => {
  const cases: [string, string, string, RegExp][] = [
    [BOB_MAIN, "Bob Meyer", "vop-match", /matches the account holder/],
    [ELSEWHERE, "Jane Exampel GmbH", "vop-caution", /holds the name “Jane Example GmbH”.*intend\?/],
    [ELSEWHERE, "Mallory", "warning", /does not match.*someone other than you intend/],
    [NOT_POSSIBLE, "Anyone", "vop-caution", /could not check the name/],
  ];
  for (const [iban, name, cls, text] of cases) {
    const { review } = await reviewFor(iban, name);
    const [shownClass, shown] = nameCheck(review.html) ?? [];
    assert.equal(shownClass, cls, name);
    assert.match(shown ?? "", text);
    assert.equal(review.html.includes('name="vop_acknowledged"'), cls === "warning", name);
  }
});

test("in German, a close match names the held name and asks", async () => {
  const { review } = await reviewFor(ELSEWHERE, "Jane Exampel GmbH", "de");
  assert.match(nameCheck(review.html)?.[1] ?? "",
    /^Die Bank des Empfängers führt dieses Konto unter dem Namen „Jane Example GmbH“/);
});

test("no match: Confirm needs the tick; confirmed anyway, the payment and the audit log say so",
  async () => {
    const { paymentId, browser, review } = await reviewFor(ELSEWHERE, "Mallory");
    assert.match(review.html, /<input type="checkbox" id="vop-ack"\s+name="vop_acknowledged" value="yes" required>/);
    const refused = await browser.post("/sca/confirm", { _csrf: csrfOf(review.html) });
    assert.equal(refused.status, 400);
    assert.match(errorText(refused), /tick the box to confirm anyway/);
    const status = await bank.tpp.get(`/psd2/v1/payments/${paymentId}/status`);
    assert.equal(status.body.transactionStatus, "RCVD");
    const done = await settled(browser, await browser.post("/sca/confirm",
      { _csrf: csrfOf(refused.html), vop_acknowledged: "yes" }));
    assert.equal(done.location, OK_URI, done.html);
    const shown = jsonOf(runOperator(bank.app.config.dataDir, ["payment", "show", paymentId, "--json"]));
    assert.equal(shown.resource.vopResult, "NMTC");
    assert.ok(shown.resource.vopOverriddenAt);
    const audit = jsonOf(runOperator(bank.app.config.dataDir,
      ["audit", "--resource", paymentId, "--json"]));
    assert.ok(audit.some((e: { method: string; path: string }) =>
      e.method === "PSU" && e.path === VOP_OVERRIDE_PATH), JSON.stringify(audit));
  });

test("a match is confirmed without any tick and nothing is marked", async () => {
  const { paymentId, browser, review } = await reviewFor(BOB_MAIN, "Bob Meyer");
  const done = await settled(browser,
    await browser.post("/sca/confirm", { _csrf: csrfOf(review.html) }));
  assert.equal(done.location, OK_URI, done.html);
  const shown = jsonOf(runOperator(bank.app.config.dataDir, ["payment", "show", paymentId, "--json"]));
  assert.deepEqual([shown.resource.vopResult, shown.resource.vopOverriddenAt], ["MTCH", null]);
});

test("to the payer's own account: any name reads as its own account, confirmed without a tick",
  async () => {
    const { paymentId, browser, review } = await reviewFor(ALICE_SAVINGS, "Alice Savings");
    assert.deepEqual(nameCheck(review.html), ["vop-match", "✓ Your own account: the money stays with you."]);
    assert.ok(!review.html.includes('name="vop_acknowledged"'), "no tick asked");
    const done = await settled(browser,
      await browser.post("/sca/confirm", { _csrf: csrfOf(review.html) }));
    assert.equal(done.location, OK_URI, done.html);
    const shown = jsonOf(runOperator(bank.app.config.dataDir, ["payment", "show", paymentId, "--json"]));
    // The TPP reads the check's own outcome; only the PSU's review knows whose account it is.
    assert.deepEqual([shown.resource.vopResult, shown.resource.vopOverriddenAt], ["NMTC", null]);
    const german = await reviewFor(ALICE_SAVINGS, "Sparkonto", "de");
    assert.deepEqual(nameCheck(german.review.html),
      ["vop-match", "✓ Ihr eigenes Konto: Das Geld bleibt bei Ihnen."]);
  });
