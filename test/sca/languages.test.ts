/**
 * Language choice on the PSU pages: the TPP's PSU-Accept-Language picks the link's `lang`, the
 * switcher on every step changes it, and the choice holds across the following steps.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BOB_MAIN, createPayment, enterCode, logIn, open, paymentBody } from "../support/flows.js";
import { codeFor } from "../support/psu.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const bobPayment = (headers: Record<string, string> = {}) =>
  createPayment(bank.tpp, paymentBody({ debtorAccount: BOB_MAIN }), headers);

const heading = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";

for (const [accept, lang] of [["fr-FR,fr;q=0.9", "fr"], ["it", "it"], ["es-ES", "es"],
  ["nl-NL", "nl"], ["pl", "en"]] as const) {
  test(`PSU-Accept-Language ${accept} gives the link lang=${lang} and pages in it`, async () => {
    const { scaRedirect } = await bobPayment({ "PSU-Accept-Language": accept });
    assert.equal(new URL(scaRedirect).searchParams.get("lang"), lang);
    const login = await open(bank.browser(), scaRedirect);
    assert.match(login.html, new RegExp(`<html lang="${lang}">`));
  });
}

/** The href of the page's language switch to `lang`, as a browser would follow it. */
const switchTo = (html: string, lang: string) =>
  (new RegExp(`href="([^"]+)" lang="${lang}"`).exec(html)?.[1] ?? "").replace(/&#38;|&amp;/g, "&");

test("every step links to each language; a switch holds for the next steps", async () => {
  const { scaRedirect } = await bobPayment();
  const browser = bank.browser();
  const english = await open(browser, scaRedirect);
  const token = new URL(scaRedirect).searchParams.get("token");
  for (const lang of ["en", "de", "fr", "it", "es", "nl"]) {
    assert.equal(switchTo(english.html, lang), `/sca/payment?token=${token}&lang=${lang}`,
      "the link's own page switches without using the link up");
  }
  assert.match(english.html, /lang="en" hreflang="en" aria-current="true"/);

  const dutch = await browser.get(switchTo(english.html, "nl"));
  assert.equal(dutch.status, 200);
  assert.match(dutch.html, /<html lang="nl">/);
  assert.equal(heading(dutch.html), "Demo TPP vraagt u een betaling goed te keuren.");
  const code = await browser.follow(await logIn(browser, dutch, "bob", "bob-demo"));
  assert.match(code.html, /<html lang="nl">/);
  assert.match(code.html, /href="\/sca\/code\?lang=de"/);
  const review = await browser.follow(await enterCode(browser, code, await codeFor(browser, "bob")));
  assert.match(review.html, /<html lang="nl">/);
  assert.match(review.html, /<dt>Bedrag<\/dt>/);
});

test("an unknown lang in the switcher link keeps the current language", async () => {
  const { scaRedirect } = await bobPayment({ "PSU-Accept-Language": "de" });
  const browser = bank.browser();
  const login = await browser.follow(await logIn(browser, await open(browser, scaRedirect), "bob", "x"));
  assert.match(login.html, /<html lang="de">/);
  const page = await browser.get("/sca/login?lang=xx");
  assert.equal(page.status, 200);
  assert.match(page.html, /<html lang="de">/);
});

test("a page without a session speaks the asked language, every word from the catalogue", async () => {
  const page = await bank.browser().get("/sca/login?lang=it");
  assert.equal(page.status, 401);
  assert.match(page.html, /<html lang="it">/);
  assert.match(page.html, /La sessione è terminata\. Ricominci presso il fornitore\./);
});
