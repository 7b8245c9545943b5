/**
 * API_PROFILE=berlin-group: every operation we implement, in strict NextGenPSD2 1.3.12 shapes.
 * The client checks every answer (and every accepted request) against the Berlin Group OpenAPI
 * file (test/support/berlin-group.ts), so a non-conforming shape fails the call itself.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { berlinGroupViolations } from "../support/berlin-group.js";
import {
  ALICE_MAIN, BOB_MAIN, bgConsentBody, bgPaymentBody, confirm, createConsent, createPayment, EXTERNAL_IBAN, OK_URI, reachReview,
  CREATION_HEADERS,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";
import { berlinGroupClient, bodyOf } from "../support/typed-client.js";

const BASE = "/psd2/v1";
const SCT = `${BASE}/payments/sepa-credit-transfers`;
const ALICE_CARD = "525412******3241";

let bank: TestBank;
// A redirect-only bank, as production banks run by default (SCA_APPROACHES).
before(async () => {
  bank = await startBank({ env: { API_PROFILE: "berlin-group", SCA_APPROACHES: "redirect" } });
});
after(async () => { await bank.close(); });

test("the checker itself refuses the spec dialect's creation answer", () => {
  const violations = berlinGroupViolations({
    method: "POST", path: SCT, requestBody: bgPaymentBody(), status: 200, headers: {},
    body: { paymentId: "p", transactionStatus: null, _links: { scaRedirect: "https://x" } },
  });
  assert.match(violations.join("\n"), /status 200 is not an answer of initiatePayment/);
  const created = berlinGroupViolations({
    method: "POST", path: SCT, requestBody: bgPaymentBody(), status: 201, headers: {},
    body: { paymentId: "p", transactionStatus: null, _links: { scaRedirect: "https://x" } },
  });
  assert.match(created.join("\n"), /header X-Request-ID is required/);
  assert.match(created.join("\n"), /transactionStatus must be string/);
  assert.match(created.join("\n"), /scaRedirect must be object/);
  const accepted = (requestHeaders: Record<string, string>) => berlinGroupViolations({
    method: "POST", path: `${BASE}/consents`, requestHeaders, requestBody: bgConsentBody(),
    status: 201, headers: { "x-request-id": "r", location: "l", "aspsp-sca-approach": "REDIRECT" },
    body: {
      consentStatus: "received", consentId: "c", _links: { scaRedirect: { href: "https://x" } },
    },
  }).join("\n");
  assert.match(accepted({ "X-Request-ID": crypto.randomUUID() }),
    /\(request\): header PSU-IP-Address is required/);
  assert.match(accepted({ "X-Request-ID": "1", "PSU-IP-Address": "192.0.2.1" }),
    /header X-Request-ID: \/ must match format "uuid"/);
  const id = crypto.randomUUID();
  assert.equal(accepted({ "x-request-id": id, "psu-ip-address": "192.0.2.1" }), "", "any case");
});

test("a consent names a card by its PAN; a BBAN is a reference the bank does not support", async () => {
  const access = { accounts: [{ pan: "5254120000013241" }] };
  const res = await bank.tpp.post(`${BASE}/consents`, { ...bgConsentBody(), access }, CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  const unknown = { accounts: [{ pan: "5254120000999993" }] };
  const notHere = await bank.tpp.post(`${BASE}/consents`, { ...bgConsentBody(), access: unknown },
    CREATION_HEADERS);
  assert.equal(notHere.status, 400, notHere.text);
  assert.equal(notHere.body.tppMessages[0].path, "access.accounts[0].pan");
  const bban = { accounts: [{ bban: "370400440532013000" }] };
  const refused = await bank.tpp.post(`${BASE}/consents`, { ...bgConsentBody(), access: bban },
    CREATION_HEADERS);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.tppMessages[0].path, "access.accounts[0].bban");
});

test("payment initiation answers 201 with Location, ASPSP-SCA-Approach, RCVD and href links", async () => {
  const res = await bank.tpp.post(SCT, bgPaymentBody(), CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  const self = `${SCT}/${res.body.paymentId}`;
  assert.equal(res.headers.location, self);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(res.body.transactionStatus, "RCVD");
  const { scaRedirect, ...links } = res.body._links;
  assert.match(scaRedirect.href, /^https:\/\//);
  const [authorisationId] = (await bank.tpp.get(`${self}/authorisations`)).body.authorisationIds;
  assert.deepEqual(links, {
    self: { href: self }, status: { href: `${self}/status` },
    scaStatus: { href: `${self}/authorisations/${authorisationId}` },
  });
  assert.deepEqual(Object.keys(res.body).sort(), ["_links", "paymentId", "transactionStatus"]);
});

test("a repeated X-Request-ID replays the 201 with its headers", async () => {
  const headers = { ...CREATION_HEADERS, "X-Request-ID": crypto.randomUUID() };
  const first = await bank.tpp.post(SCT, bgPaymentBody(), headers);
  const again = await bank.tpp.post(SCT, bgPaymentBody(), headers);
  assert.equal(again.status, 201, again.text);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.location, first.headers.location);
});

test("a payment's whole life: status, details, authorisation sub-resources, PSU authorisation",
  async (t) => {
  const client = berlinGroupClient(bank, CREATION_HEADERS);
  t.after(() => client.close());
  const product = "sepa-credit-transfers";
  const created = bodyOf(await client.request("post", "/psd2/v1/payments/sepa-credit-transfers",
    { body: bgPaymentBody() }), 201);
  const payment = { product, paymentId: created.paymentId ?? "" };
  const statusOf = async () => bodyOf(await client.request("get",
    "/psd2/v1/payments/{product}/{paymentId}/status", { path: payment }), 200).transactionStatus;
  assert.equal(await statusOf(), "RCVD");
  const details = bodyOf(await client.request("get", "/psd2/v1/payments/{product}/{paymentId}",
    { path: payment }), 200);
  assert.deepEqual(details.creditorAddress,
    { streetName: "Hauptstr.", buildingNumber: "1", townName: "Berlin", postCode: "10115", country: "DE" });
  assert.equal("creditorAgent" in details, false, "an absent field is omitted, not null");
  const { authorisationIds = [] } = bodyOf(await client.request("get",
    "/psd2/v1/payments/{product}/{paymentId}/authorisations", { path: payment }), 200);
  assert.equal(authorisationIds.length, 1);
  const authorisation = { ...payment, authorisationId: authorisationIds[0] ?? "" };
  const scaStatus = async () => bodyOf(await client.request("get",
    "/psd2/v1/payments/{product}/{paymentId}/authorisations/{authorisationId}",
    { path: authorisation }), 200);
  assert.deepEqual(await scaStatus(), { scaStatus: "received" });

  const browser = bank.browser();
  const scaRedirect = created._links?.scaRedirect?.href ?? "";
  const done = await confirm(browser, await reachReview(browser, scaRedirect, "alice"));
  assert.equal(done.location, OK_URI);
  assert.notEqual(await statusOf(), "RCVD");
  assert.equal((await scaStatus()).scaStatus, "finalised");
});

test("a payment not yet authorised is cancelled with 204", async () => {
  const { paymentId } = await createPayment(bank.tpp, bgPaymentBody());
  const res = await bank.tpp.call("DELETE", `${SCT}/${paymentId}`);
  assert.equal(res.status, 204, res.text);
});

test("refusals conform too: format error, unknown payment, unknown product", async () => {
  const noCreditorName = { ...bgPaymentBody(), creditorName: undefined };
  const bad = await bank.tpp.post(SCT, noCreditorName, CREATION_HEADERS);
  assert.equal(bad.status, 400, bad.text);
  assert.equal((await bank.tpp.get(`${SCT}/00000000000000000000000000000000`)).status, 404);
  assert.equal((await bank.tpp.get(`${BASE}/payments/no-such-product/x/status`)).status, 404);
});

test("PSU-IP-Address, mandatory in the file, is required on creations here, optional in the spec's",
  async (t) => {
    const { "PSU-IP-Address": _, ...withoutAddress } = CREATION_HEADERS;
    const consents = `${BASE}/consents`;
    const malformed = { ...withoutAddress, "PSU-IP-Address": "192.0.2" };
    for (const [path, body] of [[SCT, bgPaymentBody()], [consents, bgConsentBody()]] as const) {
      for (const [headers, problem] of [
        [withoutAddress, "is required"], [malformed, "is not well-formed"],
      ] as const) {
        const res = await bank.tpp.post(path, body, headers);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body.tppMessages, [{
          category: "ERROR", code: "FORMAT_ERROR", path: "PSU-IP-Address",
          text: `PSU-IP-Address ${problem}.`,
        }]);
      }
    }
    const published = await bank.tpp.get(`${BASE}/openapi.json`);
    const parameters: { name: string; required: boolean }[] =
      published.body.paths[consents].post.parameters;
    assert.equal(parameters.find((p) => p.name === "PSU-IP-Address")?.required, true);
    const spec = await startOwnBank(t, { env: { API_PROFILE: "spec" } });
    assert.equal((await spec.tpp.post(SCT, bgPaymentBody(), withoutAddress)).status, 200);
    assert.equal((await spec.tpp.post(consents, bgConsentBody(), withoutAddress)).status, 200);
  });

test("a consent's whole life, and every account information read under it", async (t) => {
  const client = berlinGroupClient(bank, CREATION_HEADERS);
  t.after(() => client.close());
  const res = await client.request("post", "/psd2/v1/consents", { body: bgConsentBody() });
  const created = bodyOf(res, 201);
  const consentId = created.consentId ?? "";
  const self = `${BASE}/consents/${consentId}`;
  assert.equal(res.headers.location, self);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(created.consentStatus, "received");
  const byId = { path: { consentId } };
  const [authorisationId = ""] = bodyOf(await client.request("get",
    "/psd2/v1/consents/{consentId}/authorisations", byId), 200).authorisationIds ?? [];
  const scaStatus = `${self}/authorisations/${authorisationId}`;
  assert.deepEqual(created._links?.scaStatus, { href: scaStatus });
  assert.deepEqual(bodyOf(await client.request("get",
    "/psd2/v1/consents/{consentId}/authorisations/{authorisationId}",
    { path: { consentId, authorisationId } }), 200), { scaStatus: "received" });

  const browser = bank.browser();
  const review = await reachReview(browser, created._links?.scaRedirect?.href ?? "", "alice");
  const done = await confirm(browser, review, [ALICE_MAIN, ALICE_CARD]);
  assert.equal(done.location, OK_URI);
  const status = await client.request("get", "/psd2/v1/consents/{consentId}/status", byId);
  assert.deepEqual(bodyOf(status, 200), { consentStatus: "valid" });
  const details = await client.request("get", "/psd2/v1/consents/{consentId}", byId);
  assert.equal(bodyOf(details, 200).consentStatus, "valid");

  const headers = { "Consent-ID": consentId };
  const { accounts = [] } = bodyOf(await client.request("get", "/psd2/v1/accounts",
    { query: { withBalance: "true" }, headers }), 200);
  const account = accounts.find((a) => a.iban === ALICE_MAIN);
  assert.ok(account);
  assert.equal("bban" in account, false, "an absent field is omitted, not null");
  const accountId = { accountId: account.resourceId ?? "" };
  const byAccount = { path: accountId, headers };
  bodyOf(await client.request("get", "/psd2/v1/accounts/{accountId}", byAccount), 200);
  bodyOf(await client.request("get", "/psd2/v1/accounts/{accountId}/balances", byAccount), 200);
  const both = { bookingStatus: "both", dateFrom: "2000-01-01" };
  const report = bodyOf(await client.request("get", "/psd2/v1/accounts/{accountId}/transactions",
    { path: accountId, query: both, headers }), 200);
  assert.match(report.transactions?._links?.first?.href ?? "", /pageIndex=0/);
  const [first] = report.transactions?.booked ?? [];
  if (first) {
    bodyOf(await client.request("get", "/psd2/v1/accounts/{accountId}/transactions/{transactionId}",
      { path: { ...accountId, transactionId: first.transactionId ?? "" }, headers }), 200);
  }
  const { cardAccounts = [] } = bodyOf(await client.request("get", "/psd2/v1/card-accounts",
    { query: { withBalance: "true" }, headers }), 200);
  const card = { accountId: cardAccounts[0]?.resourceId ?? "" };
  const byCard = { path: card, headers };
  bodyOf(await client.request("get", "/psd2/v1/card-accounts/{accountId}", byCard), 200);
  bodyOf(await client.request("get", "/psd2/v1/card-accounts/{accountId}/balances", byCard), 200);
  bodyOf(await client.request("get", "/psd2/v1/card-accounts/{accountId}/transactions",
    { path: card, query: both, headers }), 200);
  assert.equal((await client.request("delete", "/psd2/v1/consents/{consentId}", byId)).status, 204);
});

test("funds confirmation conforms", async () => {
  const res = await bank.tpp.post(`${BASE}/funds-confirmations`,
    { account: { iban: ALICE_MAIN }, instructedAmount: { currency: "EUR", amount: "1.00" } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.fundsAvailable, true);
});

test("the flows helpers read the Berlin Group shapes", async () => {
  const { consentId, scaRedirect } = await createConsent(bank.tpp, bgConsentBody());
  assert.ok(consentId);
  assert.match(scaRedirect, /^https:\/\//);
});

test("API_PROFILE is spec by default and refuses names it does not know", () => {
  assert.equal(loadConfig({}).apiProfile, "spec");
  assert.equal(loadConfig({ API_PROFILE: "berlin-group" }).apiProfile, "berlin-group");
  assert.throws(() => loadConfig({ API_PROFILE: "berlingroup" }), (error: Error) =>
    error instanceof ConfigError && /API_PROFILE must be "spec" or "berlin-group", got "berlingroup"/.test(error.message));
});

test("a redirect-only bank answers a preference for embedded or decoupled SCA with the redirect approach", async () => {
  const preferences: Record<string, string>[] = [{ "TPP-Redirect-Preferred": "false" }, { "TPP-Decoupled-Preferred": "true" }];
  for (const preference of preferences) {
    const res = await bank.tpp.post(SCT, bgPaymentBody(), { ...CREATION_HEADERS, ...preference });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
    assert.match(res.body._links.scaRedirect.href, /^https:\/\//);
  }
});

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test("periodic payments: initiation, status and details conform", async () => {
  const path = `${BASE}/periodic-payments/sepa-credit-transfers`;
  const body = { ...bgPaymentBody(), startDate: daysFromNow(7), endDate: daysFromNow(9), frequency: "Daily" };
  const res = await bank.tpp.post(path, body, CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.location, `${path}/${res.body.paymentId}`);
  assert.equal((await bank.tpp.get(res.body._links.status.href)).status, 200);
  const details = await bank.tpp.get(res.body._links.self.href);
  assert.equal(details.body.frequency, "Daily");
});

test("bulk payments: initiation, status and details conform", async () => {
  const path = `${BASE}/bulk-payments/sepa-credit-transfers`;
  const entry = (amount: string) => ({
    creditorAccount: { iban: EXTERNAL_IBAN }, creditorName: "Supplier AG", instructedAmount: { currency: "EUR", amount },
    creditorAddress: { townName: "Hamburg", country: "DE" },
  });
  const res = await bank.tpp.post(path, { debtorAccount: { iban: ALICE_MAIN }, payments: [entry("1.00"), entry("2.00")] }, CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  assert.equal((await bank.tpp.get(res.body._links.status.href)).status, 200);
  const details = await bank.tpp.get(res.body._links.self.href);
  assert.equal(details.body.payments.length, 2, details.text);
  assert.deepEqual(details.body.payments[0].creditorAddress, { townName: "Hamburg", country: "DE" });
});

test("cancelling an authorised future-dated payment: 202 with href links, then its cancellation authorisation", async () => {
  const { paymentId, scaRedirect } = await createPayment(bank.tpp, bgPaymentBody({ requestedExecutionDate: daysFromNow(3) }));
  const browser = bank.browser();
  assert.equal((await confirm(browser, await reachReview(browser, scaRedirect, "alice"))).location, OK_URI);
  const started = await bank.tpp.call("DELETE", `${SCT}/${paymentId}`);
  assert.equal(started.status, 202, started.text);
  assert.match(started.body._links.scaRedirect.href, /^https:\/\//);
  assert.equal((await bank.tpp.get(started.body._links.scaStatus.href)).body.scaStatus, "received");
  const cancellations = `${SCT}/${paymentId}/cancellation-authorisations`;
  const again = await bank.tpp.post(cancellations, {}, CREATION_HEADERS);
  assert.equal(again.status, 201, again.text);
  assert.match(again.body._links.scaRedirect.href, /^https:\/\//);
});

const EXPLICIT = { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "true" };

test("explicit start of a payment's authorisation: startAuthorisation, then POST authorisations gives the redirect", async () => {
  // bob: his second factor is an SMS, so the file's many logins do not wait for TOTP steps.
  const res = await bank.tpp.post(SCT, bgPaymentBody({ debtorAccount: { iban: BOB_MAIN } }), EXPLICIT);
  assert.equal(res.status, 201, res.text);
  const self = `${SCT}/${res.body.paymentId}`;
  assert.deepEqual(res.body._links, {
    startAuthorisation: { href: `${self}/authorisations` }, self: { href: self }, status: { href: `${self}/status` },
  });
  assert.deepEqual((await bank.tpp.get(`${self}/authorisations`)).body, { authorisationIds: [] });

  const started = await bank.tpp.post(res.body._links.startAuthorisation.href, {}, { "PSU-Accept-Language": "de" });
  assert.equal(started.status, 201, started.text);
  assert.equal(started.headers["aspsp-sca-approach"], "REDIRECT");
  assert.equal(started.body.scaStatus, "received");
  assert.deepEqual(started.body._links.scaStatus, { href: `${self}/authorisations/${started.body.authorisationId}` });
  const browser = bank.browser();
  assert.equal((await confirm(browser, await reachReview(browser, started.body._links.scaRedirect.href, "bob"))).location, OK_URI);
  assert.equal((await bank.tpp.get(started.body._links.scaStatus.href)).body.scaStatus, "finalised");
  const late = await bank.tpp.post(res.body._links.startAuthorisation.href, {});
  assert.equal(late.status, 409, late.text);
  assert.equal(late.body.tppMessages[0].code, "STATUS_INVALID");
});

test("explicit start of a consent's authorisation", async () => {
  const res = await bank.tpp.post(`${BASE}/consents`, bgConsentBody(), EXPLICIT);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body._links.scaRedirect, undefined);
  const started = await bank.tpp.post(res.body._links.startAuthorisation.href, {});
  assert.equal(started.status, 201, started.text);
  const browser = bank.browser();
  const review = await reachReview(browser, started.body._links.scaRedirect.href, "bob");
  assert.equal((await confirm(browser, review, [BOB_MAIN])).location, OK_URI);
  assert.deepEqual((await bank.tpp.get(res.body._links.status.href)).body, { consentStatus: "valid" });
  assert.equal((await bank.tpp.post(res.body._links.startAuthorisation.href, {})).status, 409);
});

test("TPP-Explicit-Authorisation-Preferred must be true or false", async () => {
  const res = await bank.tpp.post(SCT, bgPaymentBody(), { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "yes" });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.tppMessages[0].path, "TPP-Explicit-Authorisation-Preferred");
});

test("embedded and decoupled updates of an authorisation (PUT) are a service this redirect-only bank does not offer", async () => {
  const { paymentId } = await createPayment(bank.tpp, bgPaymentBody());
  const [authorisationId] = (await bank.tpp.get(`${SCT}/${paymentId}/authorisations`)).body.authorisationIds;
  const put = await bank.tpp.call("PUT", `${SCT}/${paymentId}/authorisations/${authorisationId}`, { body: { psuData: { password: "x" } } });
  assert.equal(put.status, 405, put.text);
  assert.equal(put.body.tppMessages[0].code, "SERVICE_INVALID");
  const { consentId } = await createConsent(bank.tpp, bgConsentBody());
  const consentPut = await bank.tpp.call("PUT", `${BASE}/consents/${consentId}/authorisations/x`, { body: { scaAuthenticationData: "123456" } });
  assert.equal(consentPut.status, 405, consentPut.text);
  assert.equal((await bank.tpp.get(`${SCT}/${paymentId}/authorisations/${authorisationId}`)).body.scaStatus, "received");
});

test("funds-confirmation consents (PIIS 2.0, outside the 1.3.12 file) answer in the same strict shapes", async () => {
  const path = `${BASE}/consents/confirmation-of-funds`;
  const res = await bank.tpp.post(path, { account: { iban: ALICE_MAIN }, cardNumber: "1234567890123456" }, CREATION_HEADERS);
  assert.equal(res.status, 201, res.text);
  const self = `${path}/${res.body.consentId}`;
  assert.equal(res.headers.location, self);
  assert.equal(res.headers["aspsp-sca-approach"], "REDIRECT");
  assert.deepEqual(res.body._links.self, { href: self });
  assert.match(res.body._links.scaRedirect.href, /^https:\/\//);
});
