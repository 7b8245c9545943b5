/** A standing order's review says its schedule in words, in the PSU's language. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addDays } from "../../src/lib/clock.js";
import { BOB_MAIN, CREATION_HEADERS, createdStatus, paymentBody, reachReview } from "../support/flows.js";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

const today = () => new Date().toISOString().slice(0, 10);

async function reviewOf(order: Record<string, string>, lang: string) {
  const res = await bank.tpp.post("/psd2/v1/periodic-payments/sepa-credit-transfers",
    { ...paymentBody({ debtorAccount: BOB_MAIN }), ...order }, CREATION_HEADERS);
  assert.equal(res.status, createdStatus(bank.tpp), res.text);
  const link = String(res.body._links.scaRedirect.href ?? res.body._links.scaRedirect);
  const review = await reachReview(bank.browser(), link.replace("lang=en", `lang=${lang}`), "bob");
  return /<dt>(?:Schedule|Ausführungsplan)<\/dt><dd>([^<]*)<\/dd>/.exec(review.html)?.[1];
}

const long = (date: string, lang: string) => new Intl.DateTimeFormat(lang,
  { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));

test("monthly with an end date, in English; weekly until cancelled, in German", async () => {
  const start = addDays(today(), 3);
  const end = addDays(today(), 180);
  assert.equal(await reviewOf({ startDate: start, endDate: end, frequency: "Monthly" }, "en"),
    `Monthly from ${long(start, "en")} until ${long(end, "en")}`);
  assert.equal(await reviewOf({ startDate: start, frequency: "Weekly" }, "de"),
    `Wöchentlich ab ${long(start, "de")}, bis Sie den Dauerauftrag löschen`);
});
