/**
 * The SMS a PSU gets with its code, read from the sandbox outbox (`GET {auth}/sandbox/sms/{login}`):
 * in the language of the PSU's pages, naming what the code authorises and nothing it does not
 * (a consent names no amount), with amounts and IBANs written as the pages write them, and a
 * payment's own account by its name and masked IBAN, as a bank names it (issue 36).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  BOB_MAIN, CAROL_MAIN, CREATION_HEADERS, consentBody, createConsent, createPayment, linkOf,
  logIn, open, paymentBody,
} from "../support/flows.js";
import { lastSmsCode } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

/** Bob (an SMS user) opens the link in `lang` and logs in: his SMS, its code replaced by N. */
async function smsFor(scaRedirect: string, lang: string): Promise<string> {
  const browser = bank.browser();
  const page = await open(browser, scaRedirect.replace("lang=en", `lang=${lang}`));
  await browser.follow(await logIn(browser, page, "bob", "bob-demo"));
  return (await lastSmsCode(browser, "bob")).text.replace(/\b\d{6}\b/, "N");
}

const toCarol = (amount: string) => paymentBody({ debtorAccount: BOB_MAIN,
  creditorAccount: CAROL_MAIN, creditorName: "Carol Weber",
  instructedAmount: { currency: "EUR", amount } });

test("a payment's SMS, in German: the amount and the IBAN as the pages write them, the account "
  + "it leaves by name", async () => {
  const { scaRedirect } = await createPayment(bank.tpp, toCarol("1234.50"));
  assert.equal(await smsFor(scaRedirect, "de"), "PSD2 Demo Bank: Ihr Code N gibt die Zahlung von "
    + "1.234,50 € an Carol Weber (DE06 5001 0000 3000 0000 01) zulasten Girokonto DE51 **** 0001 "
    + "frei. Geben Sie ihn nie weiter.");
});

test("a payment's SMS, in English", async () => {
  const { scaRedirect } = await createPayment(bank.tpp, toCarol("12.50"));
  assert.equal(await smsFor(scaRedirect, "en"), "PSD2 Demo Bank: your code N authorises the "
    + "payment of €12.50 to Carol Weber (DE06 5001 0000 3000 0000 01) from Girokonto "
    + "DE51 **** 0001. Never share it.");
});

test("a bulk payment's SMS, in Dutch: the total and how many payments", async () => {
  const res = await bank.tpp.post("/psd2/v1/bulk-payments/sepa-credit-transfers", {
    debtorAccount: BOB_MAIN, payments: [toCarol("10.00"), toCarol("2.50")].map(
      ({ debtorAccount: _debtor, ...entry }) => entry),
  }, CREATION_HEADERS);
  const sms = await smsFor(linkOf(bank.tpp, res.body._links.scaRedirect), "nl");
  assert.equal(sms, "PSD2 Demo Bank: uw code N keurt de bulkbetaling van in totaal € 12,50 "
    + "(betalingen: 2) vanaf Girokonto DE51 **** 0001 goed. Deel hem nooit.");
});

test("a consent's SMS, in French: who gets access to which account and until when, no amount "
  + "nor payee", async () => {
  const body = consentBody({ access: { accounts: [BOB_MAIN], balances: [BOB_MAIN],
    transactions: [] } });
  const { scaRedirect } = await createConsent(bank.tpp, body);
  assert.match(await smsFor(scaRedirect, "fr"), new RegExp("^PSD2 Demo Bank : votre code N donne "
    + "à Demo TPP l'accès aux données de Girokonto DE51 \\*{4} 0001 jusqu'au \\d{1,2} \\p{L}+ "
    + "\\d{4}\\. Ne le communiquez jamais\\.$", "u"));
});

test("a consent on all the PSU's accounts names none: the PSU's accounts, not a list", async () => {
  const { scaRedirect } = await createConsent(bank.tpp,
    consentBody({ access: { allPsd2: "allAccounts" } }));
  assert.match(await smsFor(scaRedirect, "en"), new RegExp("^PSD2 Demo Bank: your code N gives "
    + "Demo TPP access to your account data until "));
});

test("a signing basket's SMS, in Italian: its payments' total and its consents", async () => {
  const explicit = { ...CREATION_HEADERS, "TPP-Explicit-Authorisation-Preferred": "true" };
  const payment = await bank.tpp.post("/psd2/v1/payments/sepa-credit-transfers", toCarol("7.00"),
    explicit);
  const consent = await bank.tpp.post("/psd2/v1/consents",
    consentBody({ access: { accounts: [BOB_MAIN] } }), explicit);
  const res = await bank.tpp.post("/psd2/v1/signing-baskets", {
    paymentIds: [payment.body.paymentId], consentIds: [consent.body.consentId],
  }, CREATION_HEADERS);
  assert.equal(await smsFor(linkOf(bank.tpp, res.body._links.scaRedirect), "it"),
    "PSD2 Demo Bank: il Suo codice N autorizza il paniere di firma: 7,00 € in totale "
    + "(pagamenti: 1), accesso ai conti (consensi: 1). Non lo comunichi mai a nessuno.");
});
