/**
 * This bank as the responding PSP of Verification of Payee: another bank asks over mutual TLS
 * (any valid QWAC of a trusted CA, whatever its roles) whether a name holds an IBAN of ours. The
 * held name is given for a close match only; a requester over its limit waits.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { manualClock } from "../../src/lib/clock.js";
import { runOperator } from "../support/cli.js";
import { ALICE_MAIN, BOB_MAIN, CAROL_MAIN, ibanOf } from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import { TppClient } from "../support/tpp-client.js";

const PATH = "/vop/v1/payee-verifications";
let bank: TestBank;
let otherBank: TppClient;

before(async () => {
  bank = await startBank({ env: { VOP_REQUESTS_PER_MINUTE: "8" } });
  // A bank: a PSP whose certificate carries no TPP role at all.
  otherBank = await bank.tppWith({ name: "Other Bank AG", organizationIdentifier: "PSDFR-ACPR-424242",
    roles: ["PSP_AS"] });
});
after(async () => { await bank.close(); });

const ask = (client: TppClient, iban: string, name: string) => client.call("POST", PATH, {
  body: {
    party: { name }, partyAccount: { iban },
    partyAgent: { financialInstitutionId: { bicfi: "PSDBDEFFXXX" } },
    requestingAgent: { financialInstitutionId: { bicfi: "OTHRFRPPXXX" } },
  },
  headers: { "X-Request-ID": randomUUID(), "X-Request-Timestamp": new Date().toISOString() },
});

test("match, close match with the held name, no match, and not possible for an IBAN not ours",
  async () => {
    const match = await ask(otherBank, ALICE_MAIN, "Schmidt Alice");
    assert.equal(match.status, 200, match.text);
    assert.deepEqual(match.body, { partyNameMatch: "MTCH" });
    assert.match(String(match.headers["x-response-timestamp"]), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual((await ask(otherBank, BOB_MAIN, "Bob Meier")).body,
      { partyNameMatch: "CMTC", matchedName: "Bob Meyer" });
    assert.deepEqual((await ask(otherBank, BOB_MAIN, "Alice Schmidt")).body,
      { partyNameMatch: "NMTC" }, "never the holder's name unless close");
    assert.deepEqual((await ask(otherBank, "DE89370400440532013000", "Merchant GmbH")).body,
      { partyNameMatch: "NOAP" });
  });

test("initials, or a name too short, never buy the holder's name", async () => {
  const asker = await bank.tppWith({ organizationIdentifier: "PSDFR-ACPR-424246", roles: ["PSP_AS"] });
  for (const initials of ["A S", "S A", "A. S.", "Al", "Bob"]) {
    assert.deepEqual((await ask(asker, ALICE_MAIN, initials)).body, { partyNameMatch: "NMTC" }, initials);
  }
  // An initial beside a whole word is still the scheme's close match.
  assert.deepEqual((await ask(asker, ALICE_MAIN, "A Schmidt")).body,
    { partyNameMatch: "CMTC", matchedName: "Alice Schmidt" });
});

test("a blocked account and an IBAN nobody holds here answer alike: not possible", async (t) => {
  const own = await startOwnBank(t);
  const asker = await own.tppWith({ organizationIdentifier: "PSDFR-ACPR-424243", roles: ["PSP_AS"] });
  const blocked = runOperator(own.database.dataDir, ["account", "block", CAROL_MAIN], own.database.databaseUrl);
  assert.equal(blocked.status, 0, blocked.stderr);
  const answers = [await ask(asker, CAROL_MAIN, "Carol Weber"), await ask(asker, ibanOf("9900000001"), "Carol Weber")];
  assert.deepEqual(answers.map((a) => [a.status, a.body]), Array(2).fill([200, { partyNameMatch: "NOAP" }]));
});

test("a requester guessing names gets VOP_MISMATCHES_PER_MINUTE no-match answers, then none at all",
  async (t) => {
    const clock = manualClock(new Date("2026-11-24T10:00:05Z"));
    const own = await startOwnBank(t, { clock, env: { VOP_MISMATCHES_PER_MINUTE: "3" } });
    const guesser = await own.tppWith({ organizationIdentifier: "PSDFR-ACPR-424244", roles: ["PSP_AS"] });
    const honest = await own.tppWith({ organizationIdentifier: "PSDFR-ACPR-424245", roles: ["PSP_AS"] });
    const guesses = ["Anna Schulz", "Andrea Schmitt", "Bob Meier", "Anton Schmid"];
    const answers = [];
    for (const [i, name] of guesses.entries()) answers.push(await ask(guesser, i === 2 ? BOB_MAIN : ALICE_MAIN, name));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 429]);
    assert.ok(Number(answers[3]?.headers["retry-after"]) >= 1);
    // Not even the right name is answered now: a 429 only for mismatches would tell them apart.
    assert.equal((await ask(guesser, ALICE_MAIN, "Alice Schmidt")).status, 429);
    assert.deepEqual((await ask(honest, ALICE_MAIN, "Alice Schmidt")).body, { partyNameMatch: "MTCH" });
    clock.advance(60_000);
    assert.deepEqual((await ask(guesser, ALICE_MAIN, "Alice Schmidt")).body, { partyNameMatch: "MTCH" });
  });

test("a malformed request is a FORMAT_ERROR naming the field", async () => {
  const bad = await ask(otherBank, "DE00123", "Someone");
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.tppMessages[0].code, "FORMAT_ERROR");
  assert.equal(bad.body.tppMessages[0].path, "partyAccount.iban");
  const missing = await otherBank.call("POST", PATH, { body: { partyAccount: { iban: ALICE_MAIN } } });
  assert.equal(missing.status, 400, missing.text);
});

test("each requester has its own limit per minute; over it, 429 with Retry-After", async (t) => {
  // The bank's own clock: the limit counts per minute, and nine requests on the system's clock
  // once straddled a minute's end, the ninth answered in the next.
  const clock = manualClock(new Date("2026-11-24T10:00:05Z"));
  const own = await startOwnBank(t, { clock, env: { VOP_REQUESTS_PER_MINUTE: "8" } });
  const requester = await own.tppWith({ name: "Busy Bank", organizationIdentifier: "PSDNL-DNB-777",
    roles: ["PSP_AS"] });
  const other = await own.tppWith({ organizationIdentifier: "PSDFR-ACPR-424247", roles: ["PSP_AS"] });
  const statuses = [];
  for (let i = 0; i < 9; i++) statuses.push((await ask(requester, ALICE_MAIN, "Alice Schmidt")).status);
  assert.deepEqual(statuses, [...Array(8).fill(200), 429]);
  const over = await ask(requester, ALICE_MAIN, "Alice Schmidt");
  assert.equal(over.headers["retry-after"], "55", "the seconds to the next minute");
  assert.equal((await ask(other, ALICE_MAIN, "Alice Schmidt")).status, 200, "others unaffected");
  clock.advance(55_000);
  assert.equal((await ask(requester, ALICE_MAIN, "Alice Schmidt")).status, 200, "the next minute");
});

test("without a client certificate there is no answer", async () => {
  const anonymous = new TppClient(bank.apiUrl, { ca: await readFile(bank.certs.caCert) });
  const res = await ask(anonymous, ALICE_MAIN, "Alice Schmidt");
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.partyNameMatch, undefined);
});
