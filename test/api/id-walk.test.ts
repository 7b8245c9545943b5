/** Ids cannot be guessed or borrowed: random ids and another TPP's real ids all find nothing. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createConsent, createPayment } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient } from "../support/tpp-client.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const CONSENTS = "/psd2/v1/consents";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

/** Every read a TPP can aim at an id; none may answer 2xx or 5xx for an id that is not its own. */
const probes = (id: string): [string, Record<string, string>?][] => [
  [`${SCT}/${id}`], [`${SCT}/${id}/status`], [`${CONSENTS}/${id}`], [`${CONSENTS}/${id}/status`],
  ["/psd2/v1/accounts", { "Consent-ID": id }],
];

async function assertNothingFound(client: TppClient, ids: string[]) {
  const calls = ids.flatMap((id) => probes(id));
  for (let i = 0; i < calls.length; i += 25) {
    const batch = calls.slice(i, i + 25);
    const answers = await Promise.all(batch.map(([path, headers]) => client.get(path, headers)));
    answers.forEach((res, j) => {
      const what = `${batch[j]?.[0]} ${JSON.stringify(batch[j]?.[1] ?? {})}`;
      assert.ok(res.status >= 400 && res.status < 500, `${what} answered ${res.status}`);
      assert.ok(!("transactionStatus" in (res.body ?? {})) && !("consentStatus" in (res.body ?? {})), what);
    });
  }
}

test("1,000 random ids find nothing on any endpoint", async () => {
  await assertNothingFound(bank.tpp, Array.from({ length: 1000 }, () => randomUUID()));
});

test("another TPP's real payment and consent ids find nothing", async () => {
  const payments = await Promise.all(Array.from({ length: 5 }, () => createPayment(bank.tpp)));
  const consents = await Promise.all(Array.from({ length: 5 }, () => createConsent(bank.tpp)));
  const ids = [...payments.map((p) => p.paymentId), ...consents.map((c) => c.consentId)];
  const intruder = await bank.tppWith({ organizationIdentifier: "PSDDE-BAFIN-900001" });
  await assertNothingFound(intruder, ids);
  const owner = await bank.tpp.get(`${SCT}/${payments[0]?.paymentId}/status`);
  assert.equal(owner.status, 200, "the owner still finds its own payment");
});
