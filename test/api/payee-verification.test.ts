/**
 * Verification of Payee at payment creation, as the TPP sees it: the outcome for payees at this
 * bank (the ledger's holder name) and at other banks (a directory file behind the scheme port,
 * one that answers "not possible", one that never answers in time), for single, periodic and
 * bulk payments; with Client-VOP-Requested the status after creation tells it.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, CREATION_HEADERS, createdStatus, createPayment, paymentBody,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

const DIRECTORY = fileURLToPath(new URL("../../../test/fixtures/vop-directory.json", import.meta.url));
const ELSEWHERE = "DE44760400610190000005";
const NOT_POSSIBLE = "DE42200400000190000003";
const NO_ANSWER = "DE63370400440190000004";

let bank: TestBank;
before(async () => {
  bank = await startBank({ env: { VOP_DIRECTORY_FILE: DIRECTORY, VOP_TIMEOUT_MS: "300" } });
});
after(async () => { await bank.close(); });

const payee = (iban: string, name: string) =>
  paymentBody({ creditorAccount: { iban }, creditorName: name });

async function vopOf(iban: string, name: string) {
  const { paymentId } = await createPayment(bank.tpp, payee(iban, name));
  const details = await bank.tpp.get(`/psd2/v1/payments/sepa-credit-transfers/${paymentId}`);
  assert.equal(details.status, 200, details.text);
  return outcome(details.body.vopResult);
}

/** The Berlin Group profile leaves out what is null; the spec's shows it. */
const outcome = (v: { partyNameMatch: string; matchedName?: string | null }) =>
  ({ partyNameMatch: v.partyNameMatch, matchedName: v.matchedName ?? null });

test("a payee at this bank is checked against the holder's name in the ledger", async () => {
  assert.deepEqual(await vopOf(BOB_MAIN, "MEYER, Bob"), { partyNameMatch: "MTCH", matchedName: null });
  assert.deepEqual(await vopOf(BOB_MAIN, "Bob Meier"),
    { partyNameMatch: "CMTC", matchedName: "Bob Meyer" });
  assert.deepEqual(await vopOf(BOB_MAIN, "Carol Weber"), { partyNameMatch: "NMTC", matchedName: null });
});

test("a payee at another bank is checked through the scheme: match, close, none, not possible",
  async () => {
    assert.deepEqual(await vopOf(ELSEWHERE, "Jane Example Gesellschaft mit beschraenkter Haftung"),
      { partyNameMatch: "MTCH", matchedName: null });
    assert.deepEqual(await vopOf(ELSEWHERE, "Jane Exampel GmbH"),
      { partyNameMatch: "CMTC", matchedName: "Jane Example GmbH" });
    assert.deepEqual(await vopOf(ELSEWHERE, "Mallory"), { partyNameMatch: "NMTC", matchedName: null });
    assert.deepEqual(await vopOf(NOT_POSSIBLE, "Anyone"), { partyNameMatch: "NOAP", matchedName: null });
    // Not in the directory: the scheme cannot check it.
    assert.deepEqual(await vopOf("NL91ABNA0417164300", "Anyone"),
      { partyNameMatch: "NOAP", matchedName: null });
  });

test("a payee bank that does not answer in VOP_TIMEOUT_MS is 'not possible', and the TPP is answered",
  async () => {
    const started = performance.now();
    assert.deepEqual(await vopOf(NO_ANSWER, "Anyone"), { partyNameMatch: "NOAP", matchedName: null });
    assert.ok(performance.now() - started < 10_000, "the creation waited for the silent bank");
  });

async function statusWith(body: unknown, service = "payments") {
  const res = await bank.tpp.post(`/psd2/v1/${service}/sepa-credit-transfers`, body,
    { ...CREATION_HEADERS, "Client-VOP-Requested": "true", "Client-VOP-Request-ID": "vop-42" });
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const status = await bank.tpp.get(
    `/psd2/v1/${service}/sepa-credit-transfers/${res.body.paymentId}/status`);
  return status.body.transactionStatus;
}

test("with Client-VOP-Requested the status after creation is RCVC, RVCM or RVNC", async () => {
  assert.equal(await statusWith(payee(BOB_MAIN, "Bob Meyer")), "RCVC");
  assert.equal(await statusWith(payee(BOB_MAIN, "Bob Meier")), "RVCM");
  assert.equal(await statusWith(payee(ELSEWHERE, "Mallory")), "RVCM");
  assert.equal(await statusWith(payee(NOT_POSSIBLE, "Anyone")), "RVNC");
  const periodic = { ...payee(BOB_MAIN, "Bob Meyer"), startDate: tomorrow(), frequency: "Monthly" };
  assert.equal(await statusWith(periodic, "periodic-payments"), "RCVC");
});

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

test("each payment of a bulk has its own outcome; the bulk's status sums them up", async () => {
  const entry = (iban: string, name: string) => ({
    creditorAccount: { iban }, creditorName: name,
    instructedAmount: { currency: "EUR", amount: "1.00" },
  });
  const body = {
    debtorAccount: { iban: "DE96500100001000000001" },
    payments: [entry(BOB_MAIN, "Bob Meyer"), entry(ELSEWHERE, "Jane Exampel GmbH"),
      entry(NOT_POSSIBLE, "Anyone")],
  };
  assert.equal(await statusWith(body, "bulk-payments"), "RVCM");
  const res = await bank.tpp.post("/psd2/v1/bulk-payments/sepa-credit-transfers", body,
    CREATION_HEADERS);
  const details = await bank.tpp.get(
    `/psd2/v1/bulk-payments/sepa-credit-transfers/${res.body.paymentId}`);
  assert.equal(details.body.transactionStatus, "RCVD", "without Client-VOP-Requested");
  assert.deepEqual(details.body.payments.map((p: { vopResult: never }) => outcome(p.vopResult)), [
    { partyNameMatch: "MTCH", matchedName: null },
    { partyNameMatch: "CMTC", matchedName: "Jane Example GmbH" },
    { partyNameMatch: "NOAP", matchedName: null },
  ]);
});

test("a malformed Client-VOP header is a FORMAT_ERROR naming it, and nothing is created",
  async () => {
    for (const [header, value] of [["Client-VOP-Requested", "yes"],
      ["Client-VOP-Request-ID", "has space"]] as const) {
      const res = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", paymentBody(),
        { ...CREATION_HEADERS, [header]: value });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.tppMessages[0].code, "FORMAT_ERROR");
      assert.equal(res.body.tppMessages[0].path, header);
    }
  });
