/**
 * Verification of Payee in the domain, over a real SQLite file with the demo data: a payee
 * account held by the debtor account's own holder is a transfer between one's own accounts; a
 * payee is checked in every currency, and one no scheme reaches is "not possible" unasked.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createPayeeVerification, type PayeeVerification } from "../../src/domain/vop/verification.js";
import { createEmbeddedLedger } from "../../src/ledger/core.js";
import { seedDemoData } from "../../src/ledger/demo-data.js";
import { DEMO_VOP_DIRECTORY, sandboxVopScheme } from "../../src/ledger/vop-directory.js";
import { manualClock } from "../../src/lib/clock.js";
import { hashPassword } from "../../src/app/passwords.js";
import { openStore, type Store } from "../../src/store/db.js";
import { ALICE_MAIN, ALICE_SAVINGS, BOB_MAIN, EXTERNAL_IBAN } from "../support/flows.js";

const TIME_ZONE = "Europe/Berlin";
const clock = manualClock(new Date("2026-03-16T09:00:00.000Z"));
let dir: string;
let store: Store;
let vop: PayeeVerification;
let coreOf: () => ReturnType<typeof createEmbeddedLedger>;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "psd2-bank-vop-"));
  store = await openStore({ dataDir: dir, databaseUrl: "" });
  await seedDemoData({ store, clock, timeZone: TIME_ZONE, bic: "DEMODEFFXXX", hashPassword });
  const core = createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: TIME_ZONE, bankCode: "50010000", bic: "DEMODEFFXXX",
    limits: { overdraftMinor: 0n, dailyPaymentLimitMinor: 1_000_000n },
  });
  coreOf = () => core;
  vop = createPayeeVerification(core, sandboxVopScheme(DEMO_VOP_DIRECTORY),
    { bankCode: "50010000", timeoutMs: 1_000 });
});
after(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

test("a payee account the debtor account's holder holds too is the payer's own account", async () => {
  assert.equal(await vop.ownAccount(store.db, { debtor: ALICE_MAIN, creditor: ALICE_SAVINGS }), true);
  assert.equal(await vop.ownAccount(store.db, { debtor: ALICE_SAVINGS, creditor: ALICE_MAIN }), true);
});

test("another holder's account, or an account elsewhere, is not the payer's own", async () => {
  assert.equal(await vop.ownAccount(store.db, { debtor: ALICE_MAIN, creditor: BOB_MAIN }), false);
  assert.equal(await vop.ownAccount(store.db, { debtor: ALICE_MAIN, creditor: EXTERNAL_IBAN }), false);
  assert.equal(await vop.ownAccount(store.db, { debtor: EXTERNAL_IBAN, creditor: ALICE_MAIN }), false);
});

test("the name check itself still tells what the scheme would: the own account's name is checked", async () => {
  assert.deepEqual(await vop.verify(store.db, { iban: ALICE_SAVINGS, name: "Alice Savings", currency: "EUR" }),
    { result: "NMTC", matchedName: null });
});

/** The demo scheme, counting what it is asked; it holds a Turkish holder, which EPC VOP cannot reach. */
function countingScheme() {
  const demo = sandboxVopScheme({ ...DEMO_VOP_DIRECTORY,
    holders: { ...DEMO_VOP_DIRECTORY.holders, [TURKISH]: "Ali Yilmaz" } });
  const asked: string[] = [];
  return { asked, scheme: { reaches: demo.reaches,
    verify: (p: { iban: string; name: string }) => { asked.push(p.iban); return demo.verify(p); } } };
}

const TURKISH = "TR330006100519786457841326";
const FRENCH = "FR1420041010050500013M02606";

test("a payee at this bank is checked in any currency; elsewhere only where a scheme reaches",
  async () => {
    const { asked, scheme } = countingScheme();
    const checks = createPayeeVerification(
      coreOf(), scheme,
      { bankCode: "50010000", timeoutMs: 1_000 });
    const outcome = async (iban: string, name: string, currency: string) =>
      (await checks.verify(store.db, { iban, name, currency })).result;
    for (const currency of ["EUR", "SEK", "USD", "CHF"]) {
      assert.equal(await outcome(BOB_MAIN, "Bob Meyer", currency), "MTCH", currency);
      assert.equal(await outcome(BOB_MAIN, "Carol Weber", currency), "NMTC", currency);
    }
    assert.equal(await outcome(FRENCH, "Jean Dupont", "EUR"), "MTCH");
    assert.deepEqual(asked, [FRENCH]);
    for (const [iban, currency] of [[FRENCH, "USD"], [FRENCH, "SEK"], [TURKISH, "EUR"],
      [TURKISH, "TRY"]] as const) {
      assert.equal(await outcome(iban, "Jean Dupont", currency), "NOAP", `${iban} ${currency}`);
    }
    assert.deepEqual(asked, [FRENCH], "a payee bank no scheme reaches is never asked");
  });
