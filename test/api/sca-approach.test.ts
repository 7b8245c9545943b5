/**
 * Which SCA approach a creation gets (SCA_APPROACHES, SCA_DEFAULT_APPROACH, the TPP's
 * TPP-Redirect-Preferred and TPP-Decoupled-Preferred): the ASPSP-SCA-Approach header and the
 * approach's links, in either dialect (rerun under berlin-group by its .berlin-group file).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { chooseScaApproach } from "../../src/api/sca-approach.js";
import {
  consentBody, createdStatus, CREATION_HEADERS, linkOf, optionalLink, paymentBody,
} from "../support/flows.js";
import { startBank, startOwnBank, type TestBank } from "../support/start-app.js";

const SCT = "/psd2/v1/payments/sepa-credit-transfers";
const ALL = "redirect,embedded,decoupled";
const EMBEDDED = { ...CREATION_HEADERS, "TPP-Redirect-Preferred": "false", "PSU-ID": "alice" };
const DECOUPLED = { ...CREATION_HEADERS, "TPP-Decoupled-Preferred": "true", "PSU-ID": "alice" };

let bank: TestBank;
before(async () => { bank = await startBank({ env: { SCA_APPROACHES: ALL } }); });
after(async () => { await bank.close(); });

test("the TPP's preferences rank the approaches; what the bank lacks gets its default", () => {
  const offered = ["redirect", "embedded", "decoupled"] as const;
  const chosen = (headers: Record<string, string>, only: readonly string[] = offered) =>
    chooseScaApproach(headers, {
      offered: offered.filter((a) => only.includes(a)), fallback: "redirect",
    }).approach;
  assert.equal(chosen({}), "redirect");
  assert.equal(chosen({ "tpp-redirect-preferred": "true" }), "redirect");
  assert.equal(chosen({ "tpp-redirect-preferred": "false" }), "embedded");
  assert.equal(chosen({ "tpp-redirect-preferred": "false" }, ["redirect", "decoupled"]),
    "decoupled");
  assert.equal(chosen({ "tpp-redirect-preferred": "false", "tpp-decoupled-preferred": "true" }),
    "decoupled");
  assert.equal(chosen({ "tpp-redirect-preferred": "false", "tpp-decoupled-preferred": "false" },
    ["redirect", "decoupled"]), "redirect");
  assert.equal(chosen({ "tpp-decoupled-preferred": "true" }), "decoupled");
  assert.equal(chosen({ "tpp-decoupled-preferred": "true" }, ["redirect"]), "redirect");
});

async function created(target: TestBank, path: string, body: object, headers: object) {
  const res = await target.tpp.post(path, body, headers as Record<string, string>);
  assert.equal(res.status, createdStatus(target.tpp), res.text);
  return res;
}

/** The approach named by the answer's ASPSP-SCA-Approach header, in either dialect. */
function approachOf(_target: TestBank, res: { headers: Record<string, unknown> }) {
  return res.headers["aspsp-sca-approach"];
}

test("no preference: the redirect, with its scaRedirect", async () => {
  const res = await created(bank, SCT, paymentBody(), CREATION_HEADERS);
  assert.ok(optionalLink(bank.tpp, res.body._links.scaRedirect));
  assert.equal(approachOf(bank, res), "REDIRECT");
});

test("TPP-Redirect-Preferred false with PSU-ID: embedded, the PSU's password next", async () => {
  const res = await created(bank, SCT, paymentBody(), EMBEDDED);
  assert.equal(approachOf(bank, res), "EMBEDDED");
  const self = `${SCT}/${res.body.paymentId}`;
  const [id] = (await bank.tpp.get(`${self}/authorisations`)).body.authorisationIds;
  const authorisation = `${self}/authorisations/${id}`;
  assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
  assert.equal(linkOf(bank.tpp, res.body._links.updatePsuAuthentication), authorisation);
  const status = await bank.tpp.get(linkOf(bank.tpp, res.body._links.scaStatus));
  assert.equal(status.body.scaStatus, "psuIdentified", "the PSU is named: PSU-ID");
  assert.equal(res.body.psuMessage ?? null, null);
});

test("without PSU-ID, embedded asks the TPP to identify the PSU first", async () => {
  const { "PSU-ID": _, ...anonymous } = EMBEDDED;
  const res = await created(bank, SCT, paymentBody(), anonymous);
  assert.equal(approachOf(bank, res), "EMBEDDED");
  assert.ok(linkOf(bank.tpp, res.body._links.updatePsuIdentification));
  assert.equal(res.body._links.updatePsuAuthentication, undefined);
});

test("TPP-Decoupled-Preferred true: decoupled, a message for the PSU and the status link",
  async () => {
    for (const [path, body] of [[SCT, paymentBody()], ["/psd2/v1/consents", consentBody()]]) {
      const res = await created(bank, path as string, body as object, DECOUPLED);
      assert.equal(approachOf(bank, res), "DECOUPLED");
      assert.match(res.body.psuMessage, /app/);
      const status = await bank.tpp.get(linkOf(bank.tpp, res.body._links.scaStatus));
      assert.equal(status.status, 200, status.text);
      assert.equal(optionalLink(bank.tpp, res.body._links.scaRedirect), null);
    }
  });

test("a consent in embedded names the PSU's authentication as its next step", async () => {
  const res = await created(bank, "/psd2/v1/consents", consentBody(), EMBEDDED);
  assert.equal(approachOf(bank, res), "EMBEDDED");
  assert.match(linkOf(bank.tpp, res.body._links.updatePsuAuthentication),
    new RegExp(`/consents/${res.body.consentId}/authorisations/`));
});

test("a preference header that is not true or false is refused", async () => {
  const res = await bank.tpp.post(SCT, paymentBody(),
    { ...CREATION_HEADERS, "TPP-Redirect-Preferred": "maybe" });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.tppMessages[0].code, "FORMAT_ERROR");
  assert.equal(res.body.tppMessages[0].path, "TPP-Redirect-Preferred");
});

test("a bank offering the redirect only answers every preference with it", async (t) => {
  const own = await startOwnBank(t, { env: { SCA_APPROACHES: "redirect" } });
  const res = await created(own, SCT, paymentBody(), EMBEDDED);
  assert.equal(approachOf(own, res), "REDIRECT");
  assert.ok(optionalLink(own.tpp, res.body._links.scaRedirect));
});

test("SCA_DEFAULT_APPROACH embedded: no preference with PSU-ID goes embedded", async (t) => {
  const own = await startOwnBank(t,
    { env: { SCA_APPROACHES: ALL, SCA_DEFAULT_APPROACH: "embedded" } });
  const { "TPP-Redirect-Preferred": _, ...plain } = EMBEDDED;
  const res = await created(own, SCT, paymentBody(), plain);
  assert.equal(approachOf(own, res), "EMBEDDED");
  assert.ok(linkOf(own.tpp, res.body._links.updatePsuAuthentication));
});

test("the approach settings refuse unknown names and a default the bank does not offer", () => {
  const refusal = (env: Record<string, string>) =>
    assert.throws(() => loadConfig(env), (e) => e instanceof ConfigError && /SCA_/.test(e.message));
  refusal({ SCA_APPROACHES: "redirect,telepathy" });
  refusal({ SCA_APPROACHES: "redirect", SCA_DEFAULT_APPROACH: "decoupled" });
  refusal({ SCA_DEFAULT_APPROACH: "post" });
});
