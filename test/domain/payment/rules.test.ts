/**
 * Tests for src/domain/payment/rules.ts: one table in rule order, each row breaking one rule, and
 * the happy paths in the spec's shape and in Berlin Group's.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Xs2aError } from "../../../src/domain/kernel/errors.js";
import {
  validatePayment, type PaymentInitiationInput,
} from "../../../src/domain/payment/rules.js";
import { addDays } from "../../../src/lib/clock.js";

const TODAY = "2026-03-16";
const DEBTOR = "DE89370400440532013000";
const CREDITOR = "FR1420041010050500013M02606";
/** DEBTOR with one digit changed: right length and structure, wrong check digits. */
const BAD_IBAN = "DE89370400440532013001";

/** The spec's shape: IBAN strings and a number amount, with every optional field set. */
function specInput(): PaymentInitiationInput {
  return {
    debtorAccount: DEBTOR,
    creditorAccount: CREDITOR,
    creditorName: "Marie Dupont",
    instructedAmount: { currency: "EUR", amount: 12.5 },
    creditorAgent: "BNPAFRPPXXX",
    creditorAddress: {
      street: "Rue de Rivoli", buildingNumber: "12", city: "Paris", postalCode: "75001",
      country: "FR",
    },
    remittanceInformationUnstructured: "Invoice 42/2026",
    endToEndIdentification: "E2E-42",
    requestedExecutionDate: addDays(TODAY, 1),
  };
}

type Break = (p: PaymentInitiationInput) => PaymentInitiationInput;

const amount = (value: string | number): Break =>
  (p) => ({ ...p, instructedAmount: { ...p.instructedAmount, amount: value } });
const currency = (value: string): Break =>
  (p) => ({ ...p, instructedAmount: { ...p.instructedAmount, currency: value } });
const executionDate = (value: string): Break => (p) => ({ ...p, requestedExecutionDate: value });

/** In the order validatePayment checks; each row breaks one rule and names the offending path. */
const RULES: { name: string; path: string; breakRule: Break }[] = [
  { name: "the debtor IBAN string is invalid", path: "debtorAccount",
    breakRule: (p) => ({ ...p, debtorAccount: BAD_IBAN }) },
  { name: "the debtor account object has no iban", path: "debtorAccount",
    breakRule: (p) => ({ ...p, debtorAccount: { bban: "370400440532013000" } }) },
  { name: "the debtor account object's iban is invalid", path: "debtorAccount.iban",
    breakRule: (p) => ({ ...p, debtorAccount: { iban: BAD_IBAN } }) },
  { name: "the debtor account's currency is unknown", path: "debtorAccount.currency",
    breakRule: (p) => ({ ...p, debtorAccount: { iban: DEBTOR, currency: "EURO" } }) },
  { name: "the creditor IBAN string is invalid", path: "creditorAccount",
    breakRule: (p) => ({ ...p, creditorAccount: "FR14 2004" }) },
  { name: "the creditor account object's iban is invalid", path: "creditorAccount.iban",
    breakRule: (p) => ({ ...p, creditorAccount: { iban: "XX00123", currency: "EUR" } }) },
  { name: "the currency is unknown", path: "instructedAmount.currency",
    breakRule: currency("XYZ") },
  { name: "the amount is not a number", path: "instructedAmount.amount",
    breakRule: amount("12,50") },
  { name: "the amount is written in exponent form", path: "instructedAmount.amount",
    breakRule: amount(1e21) },
  { name: "the amount has more decimals than the currency", path: "instructedAmount.amount",
    breakRule: amount("12.505") },
  { name: "the amount is zero", path: "instructedAmount.amount", breakRule: amount("0.00") },
  { name: "the amount is negative", path: "instructedAmount.amount", breakRule: amount(-1) },
  { name: "the amount is above the cap", path: "instructedAmount.amount",
    breakRule: amount("1000000000.00") },
  { name: "the currency is not EUR", path: "instructedAmount.currency",
    breakRule: currency("USD") },
  { name: "the creditor name is blank", path: "creditorName",
    breakRule: (p) => ({ ...p, creditorName: "   " }) },
  { name: "the creditor name is longer than 70 characters", path: "creditorName",
    breakRule: (p) => ({ ...p, creditorName: "A".repeat(71) }) },
  { name: "the creditor name leaves the SEPA character set", path: "creditorName",
    breakRule: (p) => ({ ...p, creditorName: "Jürgen Müller" }) },
  { name: "the creditor agent is not a BIC", path: "creditorAgent",
    breakRule: (p) => ({ ...p, creditorAgent: "BNPAFRP" }) },
  { name: "the requested execution date is in the past", path: "requestedExecutionDate",
    breakRule: executionDate(addDays(TODAY, -1)) },
  { name: "the requested execution date is not a date", path: "requestedExecutionDate",
    breakRule: executionDate("2026-02-30") },
  { name: "the requested execution date is more than a year ahead",
    path: "requestedExecutionDate", breakRule: executionDate(addDays(TODAY, 366)) },
  { name: "the creditor's country is not an ISO 3166 code", path: "creditorAddress.country",
    breakRule: (p) => ({ ...p, creditorAddress: { city: "Paris", country: "XX" } }) },
  { name: "the remittance is longer than 140 characters",
    path: "remittanceInformationUnstructured",
    breakRule: (p) => ({ ...p, remittanceInformationUnstructured: "x".repeat(141) }) },
  { name: "the remittance leaves the SEPA character set",
    path: "remittanceInformationUnstructured",
    breakRule: (p) => ({ ...p, remittanceInformationUnstructured: "Invoice #42 – thanks" }) },
  { name: "the end-to-end id is longer than 35 characters", path: "endToEndIdentification",
    breakRule: (p) => ({ ...p, endToEndIdentification: "E".repeat(36) }) },
];

function expectFormatError(input: PaymentInitiationInput, path: string, message: string) {
  assert.throws(() => validatePayment(input, "sepa-credit-transfers", TODAY), (e: unknown) => {
    assert.ok(e instanceof Xs2aError, message);
    assert.deepEqual([e.code, e.origin, e.path], ["FORMAT_ERROR", "body", path], message);
    assert.ok(e.text.length > 0 && e.text.length <= 500, message);
    return true;
  }, message);
}

describe("validatePayment", () => {
  for (const rule of RULES) {
    test(`refuses with FORMAT_ERROR at ${rule.path} when ${rule.name}`, () => {
      expectFormatError(rule.breakRule(specInput()), rule.path, rule.name);
    });
  }

  test("reports the first rule in order when every later rule is broken as well", () => {
    RULES.forEach((rule, i) => {
      const later = RULES.slice(i).reverse();
      const input = later.reduce((p, r) => r.breakRule(p), specInput());
      expectFormatError(input, rule.path, rule.name);
    });
  });

  test("accepts the spec's shape: IBAN strings and a number amount", () => {
    const valid = validatePayment(specInput(), "sepa-credit-transfers", TODAY);
    assert.deepEqual(valid, {
      debtorAccount: { iban: DEBTOR, currency: null },
      creditorAccount: { iban: CREDITOR, currency: null },
      creditorName: "Marie Dupont",
      amountMinor: 1250n,
      currency: "EUR",
      creditorAgent: "BNPAFRPPXXX",
      creditorAddress: {
        streetName: "Rue de Rivoli", buildingNumber: "12", townName: "Paris", postCode: "75001",
        country: "FR",
      },
      remittance: "Invoice 42/2026",
      endToEndId: "E2E-42",
      requestedExecutionDate: addDays(TODAY, 1),
    });
  });

  test("accepts Berlin Group's shape: account objects, a decimal string, ISO 20022 names", () => {
    const input: PaymentInitiationInput = {
      ...specInput(),
      requestedExecutionDate: TODAY,
      debtorAccount: { iban: "de89 3704 0044 0532 0130 00", currency: "EUR" },
      creditorAccount: { iban: CREDITOR },
      instructedAmount: { currency: "EUR", amount: "12.50" },
      creditorAddress: {
        streetName: "Rue de Rivoli", buildingNumber: "12", townName: "Paris", postCode: "75001",
        country: "FR",
      },
    };
    const valid = validatePayment(input, "instant-sepa-credit-transfers", TODAY);
    const spec = validatePayment(specInput(), "sepa-credit-transfers", TODAY);
    assert.deepEqual(valid.debtorAccount, { iban: DEBTOR, currency: "EUR" });
    assert.deepEqual(valid.creditorAccount, { iban: CREDITOR, currency: null });
    assert.equal(valid.amountMinor, 1250n);
    assert.deepEqual(valid.creditorAddress, spec.creditorAddress);
  });

  test("accepts the boundaries: cap amount, 70-character name, today and a year ahead", () => {
    for (const input of [
      amount("999999999.99")(specInput()),
      amount("0.01")(specInput()),
      { ...specInput(), creditorName: "A".repeat(70) },
      { ...specInput(), remittanceInformationUnstructured: "x".repeat(140) },
      executionDate(TODAY)(specInput()),
      executionDate(addDays(TODAY, 365))(specInput()),
    ]) {
      assert.doesNotThrow(() => validatePayment(input, "sepa-credit-transfers", TODAY));
    }
  });

  test("maps absent optional fields to null and trims the creditor name", () => {
    const { debtorAccount, creditorAccount, instructedAmount } = specInput();
    const required = { debtorAccount, creditorAccount, instructedAmount };
    const valid = validatePayment({ ...required, creditorName: "  Marie Dupont " },
      "sepa-credit-transfers", TODAY);
    assert.equal(valid.creditorName, "Marie Dupont");
    assert.deepEqual(
      [valid.creditorAgent, valid.creditorAddress, valid.remittance, valid.endToEndId,
        valid.requestedExecutionDate],
      [null, null, null, null, null],
    );
  });
});
