/**
 * TPP_CONCURRENT_PASSWORD_CHECKS: one TPP's burst of embedded password updates (each an argon2
 * hash) is cut at the limit with 429 ACCESS_EXCEEDED, on by default, while another TPP's
 * password is still checked.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { consentBody, createdStatus, linkOf } from "../support/flows.js";
import { startOwnBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const EMBEDDED = { "PSU-IP-Address": "192.0.2.1", "TPP-Redirect-Preferred": "false" };
const BURST = 24;

/** A consent in the embedded approach: where its password goes. */
async function passwordLink(tpp: TppClient): Promise<string> {
  const res = await tpp.post("/psd2/v1/consents", consentBody(), { ...EMBEDDED, "PSU-ID": "alice" });
  assert.equal(res.status, createdStatus(tpp), res.text);
  return linkOf(tpp, res.body._links.updatePsuAuthentication);
}

/** Wrong passwords of logins nobody has: each is hashed, none blocks a demo PSU. */
const wrongPassword = (tpp: TppClient, link: string, i: number) => tpp.call("PUT", link,
  { body: { psuData: { password: "wrong-password" } }, headers: { "PSU-ID": `nobody-${i}` } });

async function burst(bank: TestBank, other: TppClient) {
  const links = await Promise.all(Array.from({ length: BURST }, () => passwordLink(bank.tpp)));
  const otherLink = await passwordLink(other);
  const [answers, otherAnswer] = await Promise.all([
    Promise.all(links.map((link, i) => wrongPassword(bank.tpp, link, i))),
    wrongPassword(other, otherLink, BURST),
  ]);
  return { statuses: answers.map((a) => a.status), answers, otherAnswer };
}

test("one TPP's burst of password updates beyond the limit answers 429; another TPP's is checked",
  async (t) => {
    const bank = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect,embedded" } });
    const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-830001" });
    const { statuses, answers, otherAnswer } = await burst(bank, other);
    const refused = answers.filter((a) => a.status === 429);
    const checked = statuses.filter((s) => s !== 429).length;
    assert.ok(checked >= 1 && checked <= 4, `checked at once: ${checked} (${statuses.join(" ")})`);
    assert.equal(refused.length, BURST - checked);
    for (const answer of refused) {
      assert.equal(answer.body.tppMessages[0].code, "ACCESS_EXCEEDED", answer.text);
    }
    assert.notEqual(otherAnswer.status, 429, otherAnswer.text);
    // The limit is of checks at once: once the burst is over, the TPP is checked again.
    const after = await wrongPassword(bank.tpp, await passwordLink(bank.tpp), BURST + 1);
    assert.notEqual(after.status, 429, after.text);
  });

test("TPP_CONCURRENT_PASSWORD_CHECKS=0 lifts the limit", async (t) => {
  const bank = await startOwnBank(t, {
    env: { SCA_APPROACHES: "redirect,embedded", TPP_CONCURRENT_PASSWORD_CHECKS: "0" } });
  const other = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-830002" });
  const { statuses } = await burst(bank, other);
  assert.ok(!statuses.includes(429), statuses.join(" "));
});
