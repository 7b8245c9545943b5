/** The documentation's examples are run, so a change of the API cannot leave them wrong. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { setTimeout } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { errorCatalogue, renderError } from "../src/api/errors.js";
import * as errors from "../src/domain/kernel/errors.js";
import { execFileSync } from "node:child_process";
import { addDays, dateInZone } from "../src/lib/clock.js";
import { ALICE_MAIN, authorisedConsent, confirm, reachReview } from "./support/flows.js";
import { GuideShell, section, shBlocks, type Answer } from "./support/guide-shell.js";
import { startReceiver, type Receiver } from "./support/notification-receiver.js";
import { pushViolations } from "./support/openfinance.js";
import { pain001 } from "./support/pain001.js";
import { authoriseInBrowser, mtlsFetch } from "./support/oauth-client.js";
import { lastSmsCode } from "./support/psu.js";
import { startBank, type TestBank } from "./support/start-app.js";

const doc = (name: string) => readFile(fileURLToPath(new URL(`../../docs/${name}`, import.meta.url)), "utf8");

let bank: TestBank;
let shell: GuideShell;
before(async () => { bank = await startBank(); shell = await GuideShell.open(bank); });
after(async () => { await shell.close(); await bank.close(); });

/** The curl call's headers and JSON body, as the guide shows them. */
function curlRequest(text: string): { headers: Record<string, string>; body: unknown; path: string } {
  const block = /```sh\n(curl[^`]*-d '[^`]*)```/.exec(text)?.[1] ?? "";
  const headers: Record<string, string> = {};
  for (const [, name = "", value = ""] of block.matchAll(/-H "([\w-]+): ([^"$]+)"/g)) headers[name] = value;
  const body = JSON.parse(/-d '([^']*)'/.exec(block)?.[1] ?? "null");
  const path = /\$API(\/\S+)/.exec(block)?.[1] ?? "";
  return { headers, body, path };
}

test("the getting-started guide's payment is accepted, approved by alice and booked", async () => {
  const guide = await doc("getting-started.md");
  const { headers, body, path } = curlRequest(guide);
  assert.equal(path, "/payments/sepa-credit-transfers");
  const created = await bank.tpp.post(`/psd2/v1${path}`, body, {
    ...headers, "TPP-Redirect-URI": `${bank.authUrl}/sandbox/tpp/ok`, "TPP-Nok-Redirect-URI": `${bank.authUrl}/sandbox/tpp/nok`,
  });
  assert.ok(created.status === 200 || created.status === 201, created.text);
  assert.match(guide, new RegExp(`"transactionStatus": ${JSON.stringify(created.body.transactionStatus)}`));
  const received = await bank.tpp.get(`/psd2/v1/payments/${created.body.paymentId}/status`);
  assert.match(guide, new RegExp(`reads \`\\{"transactionStatus":"${received.body.transactionStatus}"\\}\` until`));
  const browser = bank.browser();
  assert.match(guide, /`alice` with password `alice-demo`/);
  await confirm(browser, await reachReview(browser, created.body._links.scaRedirect, "alice"));
  const status = await bank.tpp.get(`/psd2/v1/payments/${created.body.paymentId}/status`);
  assert.match(guide, new RegExp(`\\{"transactionStatus":"${status.body.transactionStatus}"\\}`));
});

/** A section of the guide, from its heading to the next, and the creation its first curl sends. */
async function guideCreation(heading: string) {
  const guide = await doc("getting-started.md");
  const from = guide.indexOf(heading);
  const section = guide.slice(from, guide.indexOf("\n## ", from + 1));
  const { headers, body, path } = curlRequest(section);
  const created = await bank.tpp.post(`/psd2/v1${path}`, body, { ...headers, "PSU-IP-Address": "192.0.2.1" });
  assert.ok(created.status === 200 || created.status === 201, created.text);
  const link = (name: string) => {
    const found = created.body._links[name];
    return typeof found === "string" ? found : found.href as string;
  };
  /** What the guide says the payment's status then reads. */
  const statusSaid = async () => {
    const status = await bank.tpp.get(`/psd2/v1/payments/${created.body.paymentId}/status`);
    assert.match(section, new RegExp(`\\{"transactionStatus":"${status.body.transactionStatus}"\\}`));
  };
  return { section, created, link, statusSaid };
}

test("the getting-started guide's embedded payment goes through with bob's password and SMS code", async () => {
  const { section, link, statusSaid } = await guideCreation("## Without a browser");
  const [password, code] = [...section.matchAll(/-d '(\{"(?:psuData|scaAuthenticationData)[^']*)'/g)]
    .map(([, json]) => JSON.parse(json ?? "null"));
  const selected = await bank.tpp.call("PUT", link("updatePsuAuthentication"), { body: password });
  assert.match(section, new RegExp(`"scaStatus": "${selected.body.scaStatus}"`));
  const sms = await lastSmsCode(bank.browser(), "bob");
  const done = await bank.tpp.call("PUT", link("updatePsuAuthentication"),
    { body: { ...code, scaAuthenticationData: sms.code } });
  assert.match(section, new RegExp(`"scaStatus": "${done.body.scaStatus}"`));
  await statusSaid();
});

test("the getting-started guide's decoupled payment is approved through the sandbox's app", async () => {
  const { section, created, link, statusSaid } = await guideCreation("## In the customer's app");
  assert.ok(created.body.psuMessage);
  const scaStatus = async () => (await bank.tpp.get(link("scaStatus"))).body.scaStatus;
  assert.match(section, new RegExp(`"scaStatus": "${await scaStatus()}"`));
  const approve = /-X POST https:\/\/localhost:8444(\/sandbox\/app\/\w+\/approve)/.exec(section)?.[1] ?? "";
  assert.equal((await bank.browser().post(approve, {})).status, 200);
  assert.match(section, new RegExp(`"scaStatus": "${await scaStatus()}"`));
  await statusSaid();
});

/** The `-d name=value` fields of a curl call, with the guide's placeholders filled in. */
function formOf(block: string, values: Record<string, string>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [, name = "", value = ""] of block.matchAll(/-d (\w+)=(\S+)/g)) {
    form.append(name, Object.entries(values).reduce((v, [from, to]) => v.replaceAll(from, to), value));
  }
  return form;
}

/** What the guide's shell line `NAME=$(node -p "...")` prints, `$earlier` names filled in. */
function nodeLine(section: string, name: string, values: Record<string, string>): string {
  const expression = new RegExp(`${name}=\\$\\(node -p "([^"]+)"\\)`).exec(section)?.[1] ?? "";
  const filled = Object.entries(values).reduce((e, [from, to]) => e.replaceAll(from, to), expression);
  return execFileSync(process.execPath, ["-p", filled], { encoding: "utf8" }).trim();
}

test("the getting-started guide's OAuth walk-through: PAR, the browser, the token, the call", async () => {
  const { section, created } = await guideCreation("## With OAuth2");
  const consentId = created.body.consentId as string;
  const blocks = [...section.matchAll(/```sh\n([^`]*)```/g)].map(([, block]) => block ?? "");
  const [par = "", token = "", call = ""] = ["/oauth/par", "/oauth/token", "Bearer"]
    .map((marker) => blocks.find((block) => block.includes(marker)));
  const verifier = nodeLine(section, "VERIFIER", {});
  const challenge = nodeLine(section, "CHALLENGE", { $VERIFIER: verifier });
  const [cert, key] = await Promise.all([readFile(bank.certs.tppCert), readFile(bank.certs.tppKey)]);
  const post = async (path: string, form: URLSearchParams) => (await mtlsFetch({ ca: bank.ca, cert, key })(
    `${bank.apiUrl}${path}`, { method: "POST", body: form, redirect: "manual",
      headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded" }) } as never)).text()
    .then((text) => (text ? JSON.parse(text) : {}) as Record<string, any>);
  const pushed = await post("/oauth/par", formOf(par, { CONSENT_ID: consentId, $CHALLENGE: challenge }));
  assert.match(section, new RegExp(`\\{"expires_in":${pushed.expires_in},"request_uri":"urn:ietf:params:oauth:request_uri:\\.\\.\\."\\}`));
  const authorize = /`(https:\/\/localhost:8444\/oauth\/authorize\?[^`]+)`/.exec(section)?.[1] ?? "";
  const url = new URL(authorize.replace("https://localhost:8444", bank.authUrl).replace("REQUEST_URI", encodeURIComponent(pushed.request_uri)));
  const redirectUri = formOf(par, {}).get("redirect_uri") ?? "";
  const back = await authoriseInBrowser(bank.browser(), url, "alice", { accounts: [ALICE_MAIN], redirectUri });
  assert.match(section, /`alice`, enter her code, choose the account/);
  const tokens = await post("/oauth/token", formOf(token, { CODE: back.searchParams.get("code") ?? "", $VERIFIER: verifier }));
  assert.match(section, new RegExp(`"expires_in":${tokens.expires_in},"token_type":"${tokens.token_type}","scope":"AIS:CONSENT_ID"`));
  assert.equal(tokens.scope, `AIS:${consentId}`);
  const headers: Record<string, string> = {};
  for (const [, name = "", value = ""] of call.matchAll(/-H "([\w-]+): ([^"$]+)"/g)) headers[name] = value;
  const accounts = await bank.tpp.get("/psd2/v1/accounts", {
    ...headers, "Consent-ID": consentId, Authorization: `Bearer ${tokens.access_token}` });
  assert.equal(accounts.status, 200, accounts.text);
  assert.ok(call.includes('-H "Consent-ID: CONSENT_ID"') && call.includes('-H "Authorization: Bearer ACCESS_TOKEN"'));
  await introspectAndRevoke(section, post, tokens.access_token);
});

/** The guide's introspection and revocation lines, each sent as written with the token filled in. */
async function introspectAndRevoke(section: string,
  post: (path: string, form: URLSearchParams) => Promise<Record<string, any>>, token: string) {
  const line = (path: string) => section.split("\n").find((l) => l.startsWith("curl") && l.endsWith(path)) ?? "";
  const [introspect, revoke] = ["/oauth/introspect", "/oauth/revoke"].map(line);
  const active = await post("/oauth/introspect", formOf(introspect ?? "", { ACCESS_TOKEN: token }));
  assert.equal(active.active, true, JSON.stringify(active));
  assert.match(section, new RegExp(`\\{"active":true,\\.\\.\\.,"scope":"${active.scope.replace(/:.*/, ":CONSENT_ID")}"`));
  await post("/oauth/revoke", formOf(revoke ?? "", { ACCESS_TOKEN: token }));
  const gone = await post("/oauth/introspect", formOf(introspect ?? "", { ACCESS_TOKEN: token }));
  assert.deepEqual(gone, { active: false });
  assert.match(section, /the token is then `\{"active":false\}`/);
}

test("the getting-started guide's code URL answers alice's current code", async () => {
  const guide = await doc("getting-started.md");
  const url = /curl -s --cacert data\/certs\/ca\.crt https:\/\/localhost:8444(\/sandbox\/totp\/alice)\n/.exec(guide)?.[1];
  assert.ok(url, "the guide shows the sandbox's code URL");
  const answer = await bank.browser().get(url);
  assert.equal(answer.status, 200);
  assert.match(guide, /`\{"code":"\d{6}","validForSeconds":\d+\}`/);
  assert.deepEqual(Object.keys(JSON.parse(answer.html)), ["code", "validForSeconds"]);
});

/**
 * The (code, status) pairs the catalog's named constructors can produce: each is called with every
 * origin and certificate code in every argument, so a constructor's fixed code and origin show.
 */
function constructedPairs(): string[] {
  const samples = [...errors.ORIGINS, ...errors.CERTIFICATE_CODES];
  const pairs = Object.entries(errors)
    .filter(([name, make]) => typeof make === "function" && /^[a-z]/.test(name))
    .flatMap(([, make]) => samples.map((s) => (make as (...args: string[]) => unknown)(s, s, s)))
    .filter((made): made is errors.Xs2aError => made instanceof errors.Xs2aError)
    .flatMap((made) => [renderError(made), renderError(made, "apiClientMessages")])
    // A certificate constructor given an origin as its code makes no refusal at all.
    .filter(({ status }) => status !== undefined)
    .map(({ status, body }) =>
      `${(body.tppMessages ?? body.apiClientMessages)?.[0]?.code} ${status}`);
  return [...new Set(pairs)].sort();
}

test("the error catalogue describes exactly the codes and statuses the bank sends", async () => {
  const rows = [...(await doc("errors.md")).matchAll(/^\| ([A-Z_]+) \| (\d{3}) \| (.+) \| (.+) \|$/gm)];
  const documented = rows.map(([, code, status]) => `${code} ${status}`).sort();
  const sent = errorCatalogue().map(({ code, status }) => `${code} ${status}`).sort();
  assert.deepEqual(documented, sent);
  assert.deepEqual(documented, constructedPairs(), "the constructors of src/domain/kernel/errors.ts");
  for (const [, code, , when, what] of rows) {
    assert.ok((when ?? "").length > 20 && (what ?? "").length > 10, `${code} says when it happens and what to do`);
  }
});

/** The TPP guide's `sh` blocks run so far: the last test checks that none was left out. */
const ranBlocks = new Set<string>();

/** The guide section's `sh` blocks, each run as written; the answers of each block's calls. */
async function runGuide(heading: string): Promise<{ text: string; answers: Answer[][] }> {
  const text = section(await doc("tpp-guide.md"), heading);
  const answers: Answer[][] = [];
  for (const block of shBlocks(text)) {
    answers.push(await shell.runBlock(block));
    ranBlocks.add(block);
  }
  return { text, answers };
}

const ok = (answer: Answer | undefined) => {
  assert.ok(answer && answer.status >= 200 && answer.status < 300, answer?.stdout);
  return answer;
};

test("the TPP guide's walkthrough: the curl payment, alice's approval, its status", async () => {
  const heading = "## A payment with curl and a browser";
  const text = section(await doc("tpp-guide.md"), heading);
  const [create = "", status = ""] = shBlocks(text);
  const [created] = await shell.runBlock(create);
  const { paymentId, _links } = ok(created).json;
  assert.match(text, /The answer carries `paymentId` and `_links.scaRedirect`/);
  const browser = bank.browser();
  const done = await confirm(browser, await reachReview(browser, _links.scaRedirect, "alice"));
  assert.equal(done.location, `${bank.authUrl}/sandbox/tpp/ok`, done.html);
  shell.values.PAYMENT_ID = paymentId;
  const [read] = await shell.runBlock(status);
  assert.equal(ok(read).stdout, '{"transactionStatus":"ACSC"}');
  assert.match(text, /`\{"transactionStatus":"ACSC"\}`: booked on the ledger/);
  [create, status].forEach((block) => ranBlocks.add(block));
});

/** Alice's current account as a consent with its transactions shows it, and that consent. */
async function alicesAccount(): Promise<{ consentId: string; accountId: string }> {
  const iban = [{ iban: ALICE_MAIN }];
  const consentId = await authorisedConsent(bank.tpp, bank.browser(), "alice", [ALICE_MAIN], {
    access: { accounts: iban, balances: iban, transactions: iban }, recurringIndicator: true,
    validUntil: addDays(dateInZone(new Date(), bank.app.config.timeZone), 30),
    frequencyPerDay: 4, combinedServiceIndicator: false });
  const list = await bank.tpp.get("/psd2/v1/accounts",
    { "Consent-ID": consentId, "PSU-IP-Address": "192.0.2.1" });
  assert.equal(list.status, 200, list.text);
  return { consentId, accountId: list.body.accounts[0].resourceId };
}

test("the TPP guide's payment files: a pain.001, its pain.002, camt and MT940", async () => {
  const today = dateInZone(new Date(), bank.app.config.timeZone);
  await writeFile(join(shell.dir, "pain001.xml"), pain001("09", today));
  const { consentId, accountId } = await alicesAccount();
  Object.assign(shell.values, { CONSENT_ID: consentId, ACCOUNT_ID: accountId });
  const heading = "## Payment services";
  const blocks = shBlocks(section(await doc("tpp-guide.md"), heading));
  assert.equal(blocks.length, 4);
  const [sent] = await shell.runBlock(blocks[0] ?? "");
  shell.values.PAYMENT_ID = ok(sent).json.paymentId;
  const [report, camt, mt940] = await Promise.all(blocks.slice(1).map(async (block) => {
    ranBlocks.add(block);
    return (await shell.runBlock(block))[0];
  }));
  assert.match(ok(report).stdout, /xmlns="urn:iso:std:iso:20022:tech:xsd:pain\.002\.001\.10"/);
  assert.match(ok(camt).stdout, /camt\.053\.001\.08/);
  assert.match(ok(mt940).stdout, /^:20:[\s\S]*^:60F:[\s\S]*^:62F:/m);
  ranBlocks.add(blocks[0] ?? "");
});

test("the TPP guide's signing basket: a payment, a consent, the basket holding both", async () => {
  const { text, answers: [calls = []] } = await runGuide(
    "## Signing baskets: several payments and consents with one SCA");
  const [payment, consent, basket] = calls.map(ok);
  assert.ok(payment?.json.paymentId && consent?.json.consentId);
  assert.equal(basket?.json.transactionStatus, "RCVD");
  assert.match(text, /\{"basketId":"6175\.\.\.","transactionStatus":"RCVD"/);
  assert.ok(basket?.json._links.scaRedirect);
});

test("the TPP guide's v2 signing basket: a /v2 payment, a /v2 consent, the basket holding both",
  async () => {
    const { text, answers: [calls = []] } = await runGuide(
      "## Signing baskets on v2 (openFinance BASK 2.4)");
    const [payment, consent, basket] = calls.map(ok);
    assert.ok(payment?.json.paymentId && consent?.json.consentId);
    assert.equal(basket?.status, 201);
    assert.equal(basket?.json.transactionStatus, "RCVD");
    assert.match(text, /\{"transactionStatus":"RCVD","basketId":"8c1e\.\.\."/);
    const browser = bank.browser();
    const done = await confirm(browser,
      await reachReview(browser, basket?.json._links.scaRedirect.href, "alice"));
    assert.equal(done.location, `${bank.authUrl}/sandbox/tpp/ok`, done.html);
    const read = await bank.tpp.get(`/psd2/v2/signing-baskets/${basket?.json.basketId}`);
    assert.deepEqual([read.body.paymentIds, read.body.consentIds, read.body.transactionStatus],
      [[payment?.json.paymentId], [consent?.json.consentId], "ACTC"]);
  });

/** Runs `work` with a real receiver at the guides' `NOTIFY`. */
async function withReceiver(work: (receiver: Receiver) => Promise<void>): Promise<void> {
  const receiver = await startReceiver(bank.certs);
  try {
    shell.values.NOTIFY = receiver.url;
    await work(receiver);
  } finally {
    delete shell.values.NOTIFY;
    await receiver.close();
  }
}

/** The PUSH 2.4 bodies pushed about `paymentId`, once the last says `status`. */
async function pushedUntil(receiver: Receiver, paymentId: string, status: string) {
  const pushed = () => receiver.received.filter((r) => r.body.paymentId === paymentId);
  // The bank's own scheduler may hold a push in a round of its own while the test asks.
  for (let round = 0; round < 1_000 && pushed().at(-1)?.body.transactionStatus !== status;
    round++) {
    await bank.app.deliverNotifications();
    await setTimeout(20);
  }
  for (const push of pushed()) assert.deepEqual(pushViolations(push), [], push.raw);
  return pushed().map((push) => push.body);
}

test("the TPP guide's /v2 payment with Client-Notification-URI is pushed PUSH 2.4's body", () =>
  withReceiver(async (receiver) => {
    const { text, answers: [[created] = []] } = await runGuide(
      "### Pushed statuses on /v2: openFinance PUSH 2.4");
    const { paymentId, _links } = ok(created).json;
    const browser = bank.browser();
    const done = await confirm(browser, await reachReview(browser, _links.scaRedirect.href, "bob"));
    assert.equal(done.location, `${bank.authUrl}/sandbox/tpp/ok`, done.html);
    const pushed = await pushedUntil(receiver, paymentId, "ACSC");
    assert.deepEqual(pushed.at(-1), { paymentId, transactionStatus: "ACSC" });
    assert.match(text, /\{"paymentId":"1e5a\.\.\.","transactionStatus":"ACSC"\}/);
  }));

test("the README's openFinance services: a payee checked, a pushed /v2 payment in a basket, "
  + "authorised once, booked and pushed as PUSH 2.4 says", () => withReceiver(async (receiver) => {
  const readme = await readFile(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  const text = section(readme, "## openFinance services on /v2");
  const answers: Answer[][] = [];
  for (const [i, block] of shBlocks(text).entries()) answers.push(await shell.runBlock(block, i === 0));
  const [, [checked] = [], [created] = [], [basket] = []] = answers;
  assert.deepEqual(ok(checked).json, { partyNameMatch: "CMTC", matchedName: "Bob Meyer" });
  assert.match(text, /holds the name "Bob Meyer", so "Bob Meier" is a close match/);
  const { paymentId } = ok(created).json;
  assert.equal(ok(basket).status, 201);
  const browser = bank.browser();
  const done = await confirm(browser,
    await reachReview(browser, basket?.json._links.scaRedirect.href, "bob"));
  assert.equal(done.location, `${bank.authUrl}/sandbox/tpp/ok`, done.html);
  const pushed = await pushedUntil(receiver, paymentId, "ACSC");
  assert.deepEqual(pushed.at(-1), { paymentId, transactionStatus: "ACSC" });
  assert.ok(text.includes('`{"paymentId":"…","transactionStatus":"ACSC"}`'));
}));

test("the TPP guide's company payment waits for its signers' authorisations", async () => {
  const { answers: [[created] = []] } = await runGuide(
    "## Payments that need two signatures (multi-level SCA)");
  assert.ok(ok(created).json._links.startAuthorisation);
  assert.equal(created?.json._links.scaRedirect ?? null, null);
});

test("the TPP guide's certificates are issued by the command line", async () => {
  const { answers: [issued = []] } = await runGuide("## TPP certificates");
  assert.equal(issued.length, 2);
  for (const command of issued) assert.equal(command.status, 0, command.stderr);
  for (const dir of ["other-tpp", "shop"]) {
    const files = await readFile(join(shell.dir, dir, "tpp.crt"), "utf8").catch(() => "");
    assert.match(files, /BEGIN CERTIFICATE/, dir);
  }
});

test("the TPP guide's OpenAPI document is served and its client types are generated", async () => {
  const { answers: [[served] = []] } = await runGuide("### The published OpenAPI document");
  assert.match(ok(served).json.openapi, /^3\.1\./);
  const { answers: [[saved, generated] = []] } = await runGuide("### A typed client for TPPs");
  assert.equal(ok(saved).stdout, "");
  assert.equal(generated?.status, 0, generated?.stderr);
  const types = await readFile(join(shell.dir, "client/generated/bank.ts"), "utf8");
  assert.match(types, /export interface paths/);
});

test("the TPP guide's Verification of Party: a payee's check, a payment's creditor confirmation", async () => {
  const { text, answers: [[checked] = [], [created, confirmed] = []] } = await runGuide(
    "## Verification of Party at /v2 (openFinance VOP 1.1)");
  assert.equal(ok(checked).stdout, '{"partyNameMatch":"CMTC","matchedName":"Bob Meyer"}');
  assert.match(text, /answers `\{"partyNameMatch":"CMTC","matchedName":"Bob Meyer"\}`/);
  assert.equal(ok(created).json.transactionStatus, "RVCM");
  assert.ok(created?.json._links.creditorNameConfirmation);
  assert.equal(ok(confirmed).json.transactionStatus, "RCVD");
  assert.ok(confirmed?.json._links.startAuthorisation);
});

test("every sh example of the TPP guide was run", async () => {
  const blocks = shBlocks(await doc("tpp-guide.md"));
  assert.deepEqual(blocks.filter((block) => !ranBlocks.has(block)), []);
});
