/**
 * The result page for every outcome it can tell, in English and German: the heading and how the
 * page marks it (a refusal is an alert), and the sentence, read from the resource's status now.
 * Written out here rather than taken from the catalogues, so a wrong key or a lost word shows.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Consent } from "../../src/domain/consent/model.js";
import type { Payment, StandingOrder } from "../../src/domain/payment/model.js";
import type { SubjectView } from "../../src/domain/sca/subject.js";
import type { ScaStatus } from "../../src/domain/sca/model.js";
import { translator } from "../../src/sca/messages/index.js";
import { resultPage } from "../../src/sca/result-view.js";

const payment = (over: Partial<Payment> = {}): Payment => ({
  id: "p-1", tppId: "tpp-1", service: "payments", product: "sepa-credit-transfers",
  status: "ACSC", statusReason: null, psuId: "psu-1",
  debtorAccount: { iban: "DE96500100001000000001", currency: "EUR" },
  creditorAccount: { iban: "DE89370400440532013000", currency: null },
  creditorName: "Merchant GmbH",
  creditorAgent: null, creditorAddress: null, amountMinor: 1250n, currency: "EUR",
  remittance: null, endToEndId: null, requestedExecutionDate: null, standingOrder: null,
  executions: 0, bulkId: null, batchBooking: null, vop: null, vopOverriddenAt: null,
  redirectUri: "https://tpp.example/ok", nokRedirectUri: "https://tpp.example/nok",
  createdAt: "2030-03-01T09:00:00Z", updatedAt: "2030-03-01T09:00:00Z", ...over,
});

const paid = (over: Partial<Payment> = {}, cancellation = false): SubjectView =>
  ({ type: "payment", payment: payment(over), cancellation, entries: [] });

const consent = (status: Consent["status"]): SubjectView => ({ type: "consent", consent: {
  id: "c-1", tppId: "tpp-1", status, psuId: "psu-1", access: {
    accounts: [], balances: [], transactions: [], availableAccounts: "allAccounts",
    availableAccountsWithBalance: null, allPsd2: null,
  }, recurringIndicator: true,
  validUntil: "2030-06-30", frequencyPerDay: 4, combinedServiceIndicator: false,
  redirectUri: "https://tpp.example/ok", nokRedirectUri: null, createdAt: "2030-03-01T09:00:00Z",
  updatedAt: "2030-03-01T09:00:00Z", authorisedAt: null,
} });

type Tone = "done" | "refused" | "unchanged";

const TITLES: Record<Tone, { en: string; de: string; role: string }> = {
  done: { en: "Done", de: "Erledigt", role: "status" },
  refused: { en: "Not carried out", de: "Nicht ausgeführt", role: "alert" },
  unchanged: { en: "Nothing was changed", de: "Nichts wurde geändert", role: "status" },
};

const ORDER: StandingOrder = {
  frequency: "Monthly", startDate: "2030-03-15", endDate: null, executionRule: null,
  dayOfExecution: null,
};

const REFUSED_EN = (reason: string) =>
  `The bank did not make this payment: ${reason}. No money has left your account.`;
const REFUSED_DE = (reason: string) =>
  `Die Bank hat diese Zahlung nicht ausgeführt: ${reason}. Es wurde kein Geld von Ihrem Konto `
  + "abgebucht.";

/** Each outcome: the resource and SCA status, how it reads, in English and in German. */
const OUTCOMES: [string, SubjectView, ScaStatus, Tone, string, string][] = [
  ["executed", paid(), "finalised", "done", "The payment has been made.",
    "Die Zahlung wurde ausgeführt."],
  ["executed, credited", paid({ status: "ACCC" }), "finalised", "done",
    "The payment has been made.", "Die Zahlung wurde ausgeführt."],
  ["sent", paid({ status: "ACSP" }), "finalised", "done",
    "The payment has left your account and is on its way to the payee's bank.",
    "Die Zahlung hat Ihr Konto verlassen und ist unterwegs zur Bank des Empfängers."],
  ["accepted", paid({ status: "ACTC" }), "finalised", "done",
    "The bank has accepted the payment and is carrying it out.",
    "Die Bank hat die Zahlung angenommen und führt sie aus."],
  ["scheduled", paid({ status: "ACTC", requestedExecutionDate: "2030-03-15" }), "finalised",
    "done", "The payment is authorised and will be made on March 15, 2030.",
    "Die Zahlung ist freigegeben und wird am 15. März 2030 ausgeführt."],
  ["standing order", paid({ status: "ACCP", requestedExecutionDate: "2030-03-15",
    standingOrder: ORDER }), "finalised", "done",
  "The standing order is set up. The next payment is due on March 15, 2030.",
  "Der Dauerauftrag ist eingerichtet. Die nächste Zahlung ist am 15. März 2030 fällig."],
  ["waiting for another signature", paid({ status: "PATC" }), "finalised", "done",
    "Your signature is recorded. The payment is made once everyone who must sign has signed.",
    "Ihre Unterschrift ist erfasst. Die Zahlung wird ausgeführt, sobald alle unterschrieben "
      + "haben, die unterschreiben müssen."],
  ["partly executed", paid({ status: "PART" }), "finalised", "refused",
    "Only some payments of this bulk were made: the provider shows you which.",
    "Nur ein Teil der Zahlungen dieser Sammelzahlung wurde ausgeführt: der Anbieter zeigt "
      + "Ihnen, welche."],
  ["refused: funds", paid({ status: "RJCT", statusReason: "insufficient_funds" }), "finalised",
    "refused", REFUSED_EN("the account does not hold enough money, overdraft included"),
    REFUSED_DE("das Konto ist nicht ausreichend gedeckt, Dispositionskredit eingerechnet")],
  ["refused: limit", paid({ status: "RJCT", statusReason: "limit_exceeded" }), "finalised",
    "refused", REFUSED_EN("the amount is above the account's limit"),
    REFUSED_DE("der Betrag übersteigt das Limit des Kontos")],
  ["refused: blocked", paid({ status: "RJCT", statusReason: "account_blocked" }), "finalised",
    "refused", REFUSED_EN("the account is blocked"), REFUSED_DE("das Konto ist gesperrt")],
  ["refused: another reason", paid({ status: "RJCT", statusReason: "currency_mismatch" }),
    "finalised", "refused", REFUSED_EN("it could not be booked"),
    REFUSED_DE("sie konnte nicht gebucht werden")],
  ["cancelled by the PSU", paid({ status: "RJCT" }), "failed", "unchanged",
    "You cancelled. Nothing will be paid.", "Sie haben abgebrochen. Es wird nichts bezahlt."],
  ["cancelled", paid({ status: "CANC" }), "failed", "unchanged",
    "You cancelled. Nothing will be paid.", "Sie haben abgebrochen. Es wird nichts bezahlt."],
  ["pending", paid({ status: "RCVD" }), "psuAuthenticated", "unchanged",
    "The bank is still processing this request.", "Die Bank bearbeitet diesen Auftrag noch."],
  ["cancellation authorised", paid({ status: "CANC" }, true), "finalised", "done",
    "The payment has been cancelled and will not be made.",
    "Die Zahlung wurde storniert und wird nicht ausgeführt."],
  ["cancellation refused", paid({ status: "ACTC" }, true), "failed", "unchanged",
    "The payment was not cancelled: it stays as it was.",
    "Die Zahlung wurde nicht storniert: sie bleibt, wie sie war."],
  ["consent given", consent("valid"), "finalised", "done",
    "Demo TPP may now access the accounts you chose until June 30, 2030.",
    "Demo TPP darf nun bis zum 30. Juni 2030 auf die gewählten Konten zugreifen."],
  ["consent refused", consent("rejected"), "failed", "unchanged", "No access was given.",
    "Es wurde kein Zugriff erteilt."],
];

const decode = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

function rendered(lang: string, resource: SubjectView, scaStatus: ScaStatus) {
  const html = resultPage({
    lang, t: translator(lang), bankName: "PSD2 Demo Bank", tppName: "Demo TPP",
    back: "https://tpp.example/ok",
  }, resource, scaStatus, null);
  const outcome = /<p class="[^"]*" role="(\w+)" id="outcome">([^<]*)<\/p>/.exec(html);
  return {
    title: decode(/<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? ""), role: outcome?.[1],
    text: decode(outcome?.[2] ?? ""), html,
  };
}

for (const lang of ["en", "de"] as const) {
  test(`in ${lang} the result page tells each of the ${OUTCOMES.length} outcomes`, () => {
    for (const [name, resource, scaStatus, tone, en, de] of OUTCOMES) {
      const shown = rendered(lang, resource, scaStatus);
      assert.equal(shown.title, TITLES[tone][lang], name);
      assert.equal(shown.role, TITLES[tone].role, name);
      assert.equal(shown.text, lang === "en" ? en : de, name);
      assert.match(shown.html, /<a class="button" href="https:\/\/tpp\.example\/ok">/, name);
    }
  });
}

test("a payment's result names its amount and payee; a bulk's the number of payees", () => {
  const single = rendered("de", paid(), "finalised").html;
  assert.match(single, /<dd class="amount">12,50\s€<\/dd>/);
  assert.match(single, /<dd>Merchant GmbH<\/dd>/);
  const bulk: SubjectView = { type: "payment", payment: payment({ status: "ACTC" }),
    cancellation: false, entries: [payment({ id: "e-1" }), payment({ id: "e-2" })] };
  assert.match(rendered("en", bulk, "finalised").html, /<dd>2 payees<\/dd>/);
});

test("a payment's result is a receipt: when, the reference to quote, from and to which account, "
  + "a standing order's schedule (issue 36)", () => {
  const single = rendered("en", paid({ endToEndId: "E2E-4711", remittance: "Order 42" }),
    "finalised").html;
  assert.match(single, /<h2 id="receipt-heading">Receipt<\/h2>/);
  assert.match(single, /<dt>Date and time<\/dt><dd>March 1, 2030 at 9:00\sAM<\/dd>/);
  assert.match(single, /<dt>Reference<\/dt><dd><span class="reference">E2E-4711<\/span><\/dd>/);
  assert.match(single,
    /<dt>From account<\/dt><dd><span class="iban">DE96 5001 0000 1000 0000 01<\/span><\/dd>/);
  assert.match(single,
    /<dt>Payee IBAN<\/dt><dd><span class="iban">DE89 3704 0044 0532 0130 00<\/span><\/dd>/);
  assert.match(single, /<dt>Purpose<\/dt><dd>Order 42<\/dd>/);
  // No end-to-end id from the TPP: the payment's own id, short enough to read out.
  assert.match(rendered("de", paid(), "finalised").html,
    /<dt>Referenz<\/dt><dd><span class="reference">P1<\/span><\/dd>/);
  const order = rendered("de", paid({ status: "ACTC", standingOrder: ORDER,
    requestedExecutionDate: "2030-03-15" }), "finalised").html;
  assert.match(order, /<dt>Ausführungsplan<\/dt><dd>Monatlich ab 15\. März 2030, bis Sie den Dauerauftrag löschen/);
});
