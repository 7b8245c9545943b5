import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, BOB_MAIN, EXTERNAL_IBAN, confirm, createConsent, createPayment, paymentBody, reachReview,
} from "../support/flows.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let alicePayment = "";
let bobPayment = "";
let consentId = "";

before(async () => {
  bank = await startBank();
  const paid = await createPayment(bank.tpp);
  const browser = bank.browser();
  await confirm(browser, await reachReview(browser, paid.scaRedirect, "alice"));
  alicePayment = paid.paymentId;
  const other = await bank.tppWith({ organizationIdentifier: "PSDFR-ACPR-777" });
  bobPayment = (await createPayment(other, paymentBody({ debtorAccount: BOB_MAIN }))).paymentId;
  const consent = await createConsent(bank.tpp);
  const consentBrowser = bank.browser();
  await confirm(consentBrowser, await reachReview(consentBrowser, consent.scaRedirect, "alice"), [ALICE_MAIN]);
  consentId = consent.consentId;
});
after(async () => { await bank.close(); });

const cli = (...args: string[]) => runOperator(bank.app.config.dataDir, [...args]);

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

test("payments are found by PSU, TPP and account across TPPs", () => {
  const alices = jsonOf(cli("payment", "find", "--psu", "alice", "--json"));
  assert.deepEqual(ids(alices), [alicePayment]);
  assert.deepEqual([alices[0].status, alices[0].amount, alices[0].psu], ["ACSC", "12.50", "alice"]);
  assert.deepEqual(ids(jsonOf(cli("payment", "find", "--tpp", "PSDFR-ACPR-777", "--json"))), [bobPayment]);
  assert.deepEqual(new Set(ids(jsonOf(cli("payment", "find", "--account", EXTERNAL_IBAN, "--json")))),
    new Set([alicePayment, bobPayment]));
  assert.deepEqual(ids(jsonOf(cli("payment", "find", "--account", BOB_MAIN, "--json"))), [bobPayment]);
  assert.match(cli("payment", "find").stdout, /^id\s+tpp\s+psu\s+status\s+amount/);
});

test("a payment is shown with its authorisation and its request history, oldest first", () => {
  const shown = jsonOf(cli("payment", "show", alicePayment, "--json"));
  assert.equal(shown.resource.status, "ACSC");
  assert.deepEqual(shown.authorisations.map((a: { scaStatus: string; psu: string }) => [a.scaStatus, a.psu]),
    [["finalised", "alice"]]);
  assert.deepEqual(shown.history.map((h: { method: string; status: number }) => h.method), ["POST"]);
  const people = cli("payment", "show", alicePayment).stdout;
  assert.match(people, /\nAuthorisations\n/);
  assert.match(people, /\nHistory\n/);
});

test("consents are found by the accounts the PSU granted, and shown with them", () => {
  assert.deepEqual(ids(jsonOf(cli("consent", "find", "--account", ALICE_MAIN, "--json"))), [consentId]);
  assert.deepEqual(jsonOf(cli("consent", "find", "--psu", "bob", "--json")), []);
  const shown = jsonOf(cli("consent", "show", consentId, "--json"));
  assert.equal(shown.resource.status, "valid");
  assert.ok(shown.resource.accounts.some((a: string) => a.startsWith(ALICE_MAIN)), shown.resource.accounts);
});

test("bad input exits 2 with a message naming the problem", () => {
  const cases: [string[], RegExp][] = [
    [["payment", "find", "--psu", "nobody"], /psu: No PSU with the login "nobody"/],
    [["payment", "show", "0".repeat(32)], /No payment with the id 0{32}/],
    [["consent", "show"], /the consent's id is required/],
    [["consent", "find", "--account", "DE00"], /account: No account with the IBAN DE00/],
    [["payment", "find", "--limit", "0"], /limit: limit must be between 1 and 1000/],
    [["payment", "refund"], /payment needs one of: find, show/],
  ];
  for (const [args, message] of cases) {
    assertRefused(cli(...args), message);
  }
});

test("consent revoke ends a valid consent as revokedByPsu; the TPP's next read is refused", async () => {
  const revoked = jsonOf(cli("consent", "revoke", consentId, "--json"));
  assert.equal(revoked.status, "revokedByPsu");
  const status = await bank.tpp.get(`/psd2/v1/consents/${consentId}/status`);
  assert.equal(status.body.consentStatus, "revokedByPsu");
  const read = await bank.tpp.get("/psd2/v1/accounts", { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(read.status, 401, read.text);
  assert.equal(read.body.tppMessages[0].code, "CONSENT_INVALID");
  assertRefused(cli("consent", "revoke", consentId), /Only a valid consent can be revoked; this one is revokedByPsu/);
});

