import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import {
  ALICE_MAIN, consentBody, createPayment, CREATION_HEADERS, EXTERNAL_IBAN, NOK_URI, OK_URI,
  paymentBody, REDIRECTS,
} from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";
import type { TppClient, TppResponse } from "../support/tpp-client.js";
import { bodyOf, specClient } from "../support/typed-client.js";

const PAYMENTS = "/psd2/v1/payments";
const SCT = `${PAYMENTS}/sepa-credit-transfers`;

let bank: TestBank;
let client: ReturnType<typeof specClient>;
// The spec's dialect is what these tests are about (its sections 2.2 to 2.4: 200, nulls present),
// whatever TEST_API_PROFILE says; test/api/berlin-group.test.ts holds the strict profile's.
before(async () => {
  bank = await startBank({ env: { API_PROFILE: "spec" } });
  client = specClient(bank, CREATION_HEADERS);
});
after(async () => {
  client.close();
  await bank.close();
});


async function paymentRows(): Promise<number> {
  const row = await bank.app.store.db.selectFrom("payments")
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

function post(tpp: TppClient, path: string, body: unknown, headers: Record<string, string> = {}) {
  return tpp.post(path, body, { ...REDIRECTS, ...headers });
}

/** Asserts a Berlin Group refusal with exactly one ERROR message and returns that message. */
function assertRefusal(res: TppResponse, status: number, code: string, path?: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ["tppMessages"], res.text);
  assert.equal(res.body.tppMessages.length, 1, res.text);
  const [message] = res.body.tppMessages;
  assert.equal(message.category, "ERROR");
  assert.equal(message.code, code, res.text);
  assert.equal(typeof message.text, "string");
  assert.ok(message.text.length > 0);
  if (path !== undefined) assert.equal(message.path, path, res.text);
  return message;
}

test("the creation response has exactly the fields of spec 2.2, in order", async () => {
  const res = await client.request("post", "/psd2/v1/payments/sepa-credit-transfers",
    { body: paymentBody() });
  const body = bodyOf(res, 200);
  assert.match(String(res.headers["content-type"]), /^application\/json/);
  assert.deepEqual(Object.keys(body), [
    "paymentId", "transactionStatus", "transactionFees", "transactionFeeIndicator", "scaMethods",
    "chosenScaMethod", "challengeData", "_links", "psuMessage", "tppMessages",
  ]);
  const { _links: links = {}, paymentId, ...rest } = body;
  assert.match(paymentId ?? "", /^[0-9a-f]{32}$/);
  for (const [name, value] of Object.entries(rest)) assert.equal(value, null, name);
  assert.deepEqual(Object.keys(links), ["scaRedirect", "psuMessage", "tppMessages"]);
  assert.equal(links.psuMessage, null);
  assert.equal(links.tppMessages, null);
});

test("the scaRedirect link is an absolute https URL on the auth listener with spec 5.4's parts",
  async () => {
    const { scaRedirect } = await createPayment(bank.tpp);
    const url = new URL(scaRedirect);
    assert.equal(url.protocol, "https:");
    assert.equal(url.origin, new URL(bank.authUrl).origin);
    assert.notEqual(url.origin, new URL(bank.apiUrl).origin);
    const params = url.searchParams;
    assert.equal(params.get("loc"), "en_US");
    assert.equal(params.get("lang"), "en");
    const values = [...params.values()];
    assert.ok(values.includes(OK_URI), `no success URL in ${scaRedirect}`);
    assert.ok(values.includes(NOK_URI), `no failure URL in ${scaRedirect}`);
    assert.equal(params.get("token")?.split(".").length, 3, "token is not a JWT");
    assert.ok((params.get("sessionId") ?? "").length > 0, "no sessionId");
  });

test("a new payment reads RCVD before the PSU acts", async () => {
  const { paymentId } = await createPayment(bank.tpp);
  const res = await client.request("get", "/psd2/v1/payments/{paymentId}/status",
    { path: { paymentId } });
  assert.deepEqual(bodyOf(res, 200), { transactionStatus: "RCVD" });
});

test("payment details follow spec 2.4: accounts as objects and the amount as decimal text",
  async () => {
    const { paymentId } = await createPayment(bank.tpp);
    const path = { paymentId };
    const res = await client.request("get", "/psd2/v1/payments/{paymentId}", { path });
    const details = bodyOf(res, 200);
    assert.deepEqual(Object.keys(details), [
      "endToEndIdentification", "debtorAccount", "creditorAccount", "instructedAmount",
      "creditorAgent", "creditorName", "creditorAddress", "remittanceInformationUnstructured",
      "transactionStatus", "vopResult",
    ]);
    assert.deepEqual(details, {
      endToEndIdentification: null,
      debtorAccount: { iban: ALICE_MAIN, currency: null },
      creditorAccount: { iban: EXTERNAL_IBAN, currency: null },
      instructedAmount: { currency: "EUR", amount: "12.50" },
      creditorAgent: null,
      creditorName: "Merchant GmbH",
      creditorAddress: {
        street: "Hauptstr.", buildingNumber: "1", city: "Berlin", postalCode: "10115",
        country: "DE",
      },
      remittanceInformationUnstructured: "Order 42",
      transactionStatus: "RCVD",
      vopResult: { partyNameMatch: "MTCH", matchedName: null },
    });
  });

test("the Berlin Group request shape (account objects, amount as string) is accepted", async () => {
  const body = paymentBody({
    debtorAccount: { iban: ALICE_MAIN },
    creditorAccount: { iban: EXTERNAL_IBAN, currency: "EUR" },
    instructedAmount: { currency: "EUR", amount: "12.50" },
  });
  const { paymentId } = await createPayment(bank.tpp, body);
  const details = (await bank.tpp.get(`${PAYMENTS}/${paymentId}`)).body;
  assert.deepEqual(details.debtorAccount, { iban: ALICE_MAIN, currency: null });
  assert.deepEqual(details.creditorAccount, { iban: EXTERNAL_IBAN, currency: "EUR" });
  assert.deepEqual(details.instructedAmount, { currency: "EUR", amount: "12.50" });
});

test("the Berlin Group product paths serve the same details and status", async () => {
  const { paymentId } = await createPayment(bank.tpp);
  const plain = await bank.tpp.get(`${PAYMENTS}/${paymentId}`);
  const details = await bank.tpp.get(`${SCT}/${paymentId}`);
  assert.equal(details.status, 200, details.text);
  assert.deepEqual(details.body, plain.body);
  const status = await bank.tpp.get(`${SCT}/${paymentId}/status`);
  assert.equal(status.status, 200, status.text);
  assert.deepEqual(status.body, { transactionStatus: "RCVD" });
});

test("an unknown payment product is 404 PRODUCT_UNKNOWN and creates nothing", async () => {
  const before = await paymentRows();
  const created = await post(bank.tpp, `${PAYMENTS}/cross-border-credit-transfers`, paymentBody());
  assertRefusal(created, 404, "PRODUCT_UNKNOWN");
  assert.equal(await paymentRows(), before);
  const { paymentId } = await createPayment(bank.tpp);
  const read = await bank.tpp.get(`${PAYMENTS}/cross-border-credit-transfers/${paymentId}`);
  assertRefusal(read, 404, "PRODUCT_UNKNOWN");
});

test("X-Request-ID is echoed on a success and on a refusal", async () => {
  const id = randomUUID();
  const ok = await post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.headers["x-request-id"], id);
  const refusedId = randomUUID();
  const refused = await post(bank.tpp, SCT, paymentBody({ creditorName: undefined }),
    { "X-Request-ID": refusedId });
  assertRefusal(refused, 400, "FORMAT_ERROR", "creditorName");
  assert.equal(refused.headers["x-request-id"], refusedId);
  const unknown = await bank.tpp.get(`${PAYMENTS}/${randomBytes(16).toString("hex")}`,
    { "X-Request-ID": id });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers["x-request-id"], id);
});

test("a retry with the same X-Request-ID and body gets the first answer and creates nothing",
  async () => {
    const id = randomUUID();
    const first = await post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id });
    assert.equal(first.status, 200, first.text);
    const rows = await paymentRows();
    const retry = await post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.paymentId, first.body.paymentId);
    assert.deepEqual(retry.body, first.body);
    assert.equal(await paymentRows(), rows);
  });

test("requests with one X-Request-ID sent at once create one payment and all get its answer",
  async () => {
    const id = randomUUID();
    const rows = await paymentRows();
    const answers = await Promise.all(Array.from({ length: 5 },
      () => post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id })));
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body, answers[0]!.body);
    }
    assert.equal(await paymentRows(), rows + 1);
  });

test("a refused request leaves its X-Request-ID free for the corrected retry", async () => {
  const id = randomUUID();
  const refused = await post(bank.tpp, SCT, paymentBody({ debtorAccount: EXTERNAL_IBAN }),
    { "X-Request-ID": id });
  assert.equal(refused.status, 400, refused.text);
  const corrected = await post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id });
  assert.equal(corrected.status, 200, corrected.text);
});

test("the same X-Request-ID with a different body is 400 FORMAT_ERROR on X-Request-ID",
  async () => {
    const id = randomUUID();
    const first = await post(bank.tpp, SCT, paymentBody(), { "X-Request-ID": id });
    assert.equal(first.status, 200, first.text);
    const rows = await paymentRows();
    const other = paymentBody({ instructedAmount: { currency: "EUR", amount: 99 } });
    const reused = await post(bank.tpp, SCT, other, { "X-Request-ID": id });
    assertRefusal(reused, 400, "FORMAT_ERROR", "X-Request-ID");
    assert.equal(await paymentRows(), rows);
  });

test("another TPP gets for this TPP's payment exactly the answer for an unknown id", async () => {
  const { paymentId } = await createPayment(bank.tpp);
  const other = await bank.tppWith({});
  const unknownId = randomBytes(16).toString("hex");
  for (const suffix of ["", "/status"]) {
    for (const base of [PAYMENTS, SCT]) {
      const foreign = await other.get(`${base}/${paymentId}${suffix}`);
      const unknown = await other.get(`${base}/${unknownId}${suffix}`);
      assertRefusal(foreign, 404, "RESOURCE_UNKNOWN");
      assert.equal(foreign.status, unknown.status);
      assert.deepEqual(foreign.body, unknown.body);
    }
  }
  // The owner still reads it, so the 404 above is about the TPP, not the payment.
  assert.equal((await bank.tpp.get(`${PAYMENTS}/${paymentId}`)).status, 200);
});

test("a payment is unknown under another product's path: not read, authorised or cancelled",
  async () => {
    const unknownId = randomBytes(16).toString("hex");
    const requests = (id: string, product: string) => {
      const path = `${PAYMENTS}/${product}/${id}`;
      return [
        bank.tpp.get(path), bank.tpp.get(`${path}/status`), bank.tpp.get(`${path}/authorisations`),
        bank.tpp.post(`${path}/authorisations`, {}, CREATION_HEADERS),
        bank.tpp.call("DELETE", path, { headers: CREATION_HEADERS }),
      ];
    };
    const [sct, inst] = ["sepa-credit-transfers", "instant-sepa-credit-transfers"];
    for (const [own, other] of [[sct, inst], [inst, sct]] as const) {
      const { paymentId } = await createPayment(bank.tpp, paymentBody(), {}, own);
      for (const product of [other, `pain.001-${other}`]) {
        const foreign = await Promise.all(requests(paymentId, product));
        const unknown = await Promise.all(requests(unknownId, product));
        foreign.forEach((answer, i) => {
          assertRefusal(answer, 404, "RESOURCE_UNKNOWN");
          assert.deepEqual(answer.body, unknown[i]?.body, `${product} ${i}`);
        });
      }
      for (const product of [own, `pain.001-${own}`]) {
        const read = await bank.tpp.get(`${PAYMENTS}/${product}/${paymentId}/status`);
        assert.equal(read.status, 200, `${product}: ${read.text}`);
      }
    }
  });

test("a certificate with only PSP_AI may not initiate payments: ROLE_INVALID", async () => {
  const aisp = await bank.tppWith({
    organizationIdentifier: "PSDDE-BAFIN-111111", roles: ["PSP_AI"],
  });
  const before = await paymentRows();
  const res = await post(aisp, SCT, paymentBody());
  assertRefusal(res, 403, "ROLE_INVALID");
  assert.equal(await paymentRows(), before);
});

test("a certificate with only PSP_PI may not register consents: ROLE_INVALID", async () => {
  const pisp = await bank.tppWith({
    organizationIdentifier: "PSDDE-BAFIN-222222", roles: ["PSP_PI"],
  });
  const res = await post(pisp, "/psd2/v1/consents", consentBody());
  assertRefusal(res, 403, "ROLE_INVALID");
});
