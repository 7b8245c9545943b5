import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createConsent, enterCode, logIn, open } from "../support/flows.js";
import { nextTotp } from "../support/psu.js";
import { assertRefused, jsonOf, runOperator } from "../support/cli.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

/** The operator's CLI on the running bank's own database, as a second process. */
const psu = (...args: string[]) => runOperator(bank.app.config.dataDir, ["psu", ...args]);

/** Logs in on the PSU pages for a fresh consent; answers the page after the password step. */
async function tryLogin(login: string, password: string) {
  const { scaRedirect } = await createConsent(bank.tpp);
  const browser = bank.browser();
  const page = await browser.follow(await logIn(browser, await open(browser, scaRedirect), login, password));
  return { browser, page };
}

let secret = "";
let password = "";

test("an enrolled PSU logs in with the generated password and the TOTP device from the printed URI", async () => {
  password = jsonOf(psu("add", "--login", "greta", "--name", "Greta Demo", "--json")).password;
  assert.match(password, /^[\w-]{16}$/);
  const { provisioningUri } = jsonOf(psu("enrol-device", "greta", "--kind", "totp", "--json"));
  assert.match(provisioningUri, /^otpauth:\/\/totp\/PSD2%20Demo%20Bank%3Agreta\?secret=[A-Z2-7]{32}&issuer=PSD2%20Demo%20Bank&/);
  secret = new URL(provisioningUri).searchParams.get("secret") ?? "";
  const { browser, page } = await tryLogin("greta", password);
  assert.match(page.html, /name="code"/, page.html);
  const review = await browser.follow(await enterCode(browser, page, await nextTotp(secret, browser.authUrl)));
  assert.match(review.html, /action="\/sca\/confirm"/, review.html);
  const people = psu("enrol-device", "greta", "--kind", "totp");
  assert.equal(people.status, 0, people.stderr);
  assert.match(people.stdout, /▄|█/, "the QR code is drawn in the terminal");
});

/** The code step, or (greta has two devices by now) the choice of device before it. */
const PAST_PASSWORD = /name="(code|device)"/;

test("a blocked PSU cannot log in until unblocked; a reset password replaces the old one", async () => {
  assert.equal(psu("block", "greta").status, 0);
  assert.doesNotMatch((await tryLogin("greta", password)).page.html, PAST_PASSWORD);
  assert.equal(jsonOf(psu("list", "--json")).find((p: { login: string }) => p.login === "greta").status, "blocked");
  assert.equal(psu("unblock", "greta").status, 0);
  assert.equal(psu("reset-password", "greta", "--password", "correct-horse-9").status, 0);
  assert.doesNotMatch((await tryLogin("greta", password)).page.html, PAST_PASSWORD);
  assert.match((await tryLogin("greta", "correct-horse-9")).page.html, PAST_PASSWORD);
  const table = psu("list");
  assert.match(table.stdout, /^login\s+name\s+status/);
  assert.match(table.stdout, /\ngreta\s+Greta Demo\s+enabled\s+\d+\s+Authenticator app, Authenticator app\n/);
});

test("bad input exits 2 with a message naming the problem and changes nothing", () => {
  const cases: [string[], RegExp][] = [
    [["add", "--login", "X!", "--name", "N"], /login: A login is 3 to 32 characters/],
    [["add", "--login", "greta", "--name", "Other"], /login: The login "greta" is taken/],
    [["add", "--login", "emil", "--name", "Emil", "--password", "short"], /password: A password needs at least 8/],
    [["add", "--name", "No Login"], /--login is required/],
    [["block", "nobody"], /login: No PSU with the login "nobody"/],
    [["enrol-device", "greta", "--kind", "sms", "--phone", "0151"], /phone: A phone number is in E\.164 form/],
    [["enrol-device", "greta", "--kind", "fax"], /--kind must be totp or sms/],
    [["frobnicate"], /psu needs one of: list, add/],
    [["list", "--colour"], /psu has no option --colour; "psd2-bank psu --help" lists its options/],
  ];
  for (const [args, message] of cases) {
    assertRefused(psu(...args), message);
  }
  const logins = jsonOf(psu("list", "--json")).map((p: { login: string }) => p.login);
  assert.deepEqual(logins.filter((l: string) => l === "emil" || l === "X!"), []);
});
