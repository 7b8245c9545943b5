/**
 * Verification of Payee on every credit transfer (PSR art. 50 in the Commission's proposal): each
 * payment product (SEPA and instant SEPA, as JSON and as pain.001) and each service (single,
 * periodic, bulk) is checked; a payee whose bank no scheme reaches (a Turkish IBAN, outside
 * SEPA, although the sandbox directory knows its holder) is "check not possible" for the TPP,
 * never a match the scheme was not asked for, nor silence.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { dateInZone } from "../../src/lib/clock.js";
import { ALICE_MAIN, CREATION_HEADERS, createdStatus, paymentBody } from "../support/flows.js";
import { pain001 } from "../support/pain001.js";
import { startBank, type TestBank } from "../support/start-app.js";

const DIRECTORY = fileURLToPath(new URL("../../../test/fixtures/vop-directory.json", import.meta.url));
const FRENCH = "FR1420041010050500013M02606";
const TURKISH = "TR330006100519786457841326";
const PRODUCTS = ["sepa-credit-transfers", "instant-sepa-credit-transfers"] as const;
const VOP_HEADERS = { ...CREATION_HEADERS, "Client-VOP-Requested": "true" };

let bank: TestBank;
before(async () => { bank = await startBank({ env: { VOP_DIRECTORY_FILE: DIRECTORY } }); });
after(async () => { await bank.close(); });

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The body of each service paying `iban`, held by `name`. */
function bodyOf(service: string, iban: string, name: string) {
  const single = paymentBody({ creditorAccount: { iban }, creditorName: name });
  if (service === "periodic-payments") {
    return { ...single, startDate: tomorrow(), frequency: "Monthly" };
  }
  if (service === "payments") return single;
  const { debtorAccount: _debtor, creditorAddress: _address, ...entry } = single;
  return { debtorAccount: ALICE_MAIN, payments: [entry, entry] };
}

/** The status after creation with Client-VOP-Requested, and the outcome the details show. */
async function created(service: string, product: string, body: unknown) {
  const res = await bank.tpp.post(`/psd2/v1/${service}/${product}`, body, VOP_HEADERS);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const self = `/psd2/v1/${service}/${product}/${res.body.paymentId}`;
  const details = (await bank.tpp.get(self)).body;
  const outcomes = (details.payments ?? [details])
    .map((p: { vopResult: { partyNameMatch: string } }) => p.vopResult.partyNameMatch);
  return { status: (await bank.tpp.get(`${self}/status`)).body.transactionStatus, outcomes };
}

for (const product of PRODUCTS) {
  for (const service of ["payments", "periodic-payments", "bulk-payments"]) {
    test(`${service}/${product}: checked in SEPA, "not possible" where no scheme reaches`,
      async () => {
        const sepa = await created(service, product, bodyOf(service, FRENCH, "Jean Dupont"));
        assert.equal(sepa.status, "RCVC");
        assert.ok(sepa.outcomes.every((o: string) => o === "MTCH"), sepa.outcomes.join());
        const outside = await created(service, product, bodyOf(service, TURKISH, "Ali Yilmaz"));
        assert.equal(outside.status, "RVNC");
        assert.ok(outside.outcomes.length > 0
          && outside.outcomes.every((o: string) => o === "NOAP"), outside.outcomes.join());
      });
  }
}

for (const product of PRODUCTS) {
  for (const service of ["payments", "bulk-payments"]) {
    test(`${service}/pain.001-${product}: the document's payees are checked alike`, async () => {
      const statusOf = async (iban: string, name: string) => {
        const today = dateInZone(new Date(), bank.app.config.timeZone);
        const xml = pain001("09", today, { txs: [["1.00", iban, name]] });
        const path = `/psd2/v1/${service}/pain.001-${product}`;
        const res = await bank.tpp.call("POST", path,
          { rawBody: xml, headers: { ...VOP_HEADERS, "Content-Type": "application/xml" } });
        assert.equal(res.status, createdStatus(bank.tpp), res.text);
        const status = await bank.tpp.get(`${path}/${res.body.paymentId}/status`,
          { Accept: "application/json" });
        return status.body.transactionStatus;
      };
      assert.equal(await statusOf(FRENCH, "Jean Dupont"), "RCVC");
      assert.equal(await statusOf(TURKISH, "Ali Yilmaz"), "RVNC");
    });
  }
}
