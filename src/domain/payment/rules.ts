/**
 * The rules a payment initiation must pass before anything is stored. Each refusal names the
 * offending field in `path`, in the request's own words.
 */
import { addDays, isIsoDate } from "../../lib/clock.js";
import { isCountryCode, isValidBic, validateIban } from "../../lib/iban.js";
import { currencyMinorUnits, parseAmount } from "../../lib/money.js";
import { isSepaText } from "../../lib/sepa-text.js";
import {
  formatError, instantNotFutureDated, paymentToItself, Xs2aError,
} from "../kernel/errors.js";
import type { AccountReference, Payment, PaymentProduct, PostalAddress } from "./model.js";

/** An account as TPPs send it: the spec's plain IBAN string or Berlin Group's object. */
export type AccountInput =
  | string
  | { iban?: unknown; currency?: unknown; [other: string]: unknown };

export interface AddressInput {
  street?: string; streetName?: string; buildingNumber?: string; city?: string; townName?: string;
  postalCode?: string; postCode?: string; country: string;
}

export interface PaymentInitiationInput {
  debtorAccount: AccountInput;
  creditorAccount: AccountInput;
  creditorName: string;
  instructedAmount: { currency: string; amount: string | number };
  creditorAddress?: AddressInput;
  creditorAgent?: string;
  remittanceInformationUnstructured?: string;
  endToEndIdentification?: string;
  requestedExecutionDate?: string;
}

/** What the rules make of the TPP's input: the payment's fields as the model keeps them. */
export type ValidPayment = Pick<Payment,
  | "debtorAccount" | "creditorAccount" | "creditorName" | "creditorAgent" | "creditorAddress"
  | "amountMinor" | "currency" | "remittance" | "endToEndId" | "requestedExecutionDate">;

/** 999,999,999.99 in minor units of a two-decimal currency: the bank's single-payment cap. */
const AMOUNT_MAX_MINOR = 99_999_999_999n;

export function readAccount(input: AccountInput, path: string): AccountReference {
  const iban = typeof input === "string" ? input : input.iban;
  if (typeof iban !== "string") {
    throw formatError("body", path, "Give the account as an IBAN string or as {\"iban\": ...}.");
  }
  const checked = validateIban(iban);
  if (!checked.ok) {
    throw formatError("body", typeof input === "string" ? path : `${path}.iban`,
      `"${iban}" is not a valid IBAN (${checked.problem}).`);
  }
  const currency = typeof input === "object" ? input.currency : undefined;
  if (currency !== undefined
    && (typeof currency !== "string" || currencyMinorUnits(currency) === undefined)) {
    throw formatError("body", `${path}.currency`, "The account currency is not an ISO 4217 code.");
  }
  return { iban: checked.iban, currency: currency ?? null };
}

export function readAmount(input: PaymentInitiationInput["instructedAmount"]): bigint {
  if (currencyMinorUnits(input.currency) === undefined) {
    throw formatError("body", "instructedAmount.currency",
      `"${input.currency}" is not an ISO 4217 currency.`);
  }
  const parsed = parseAmount(String(input.amount), input.currency);
  if (!parsed.ok) {
    const why = parsed.problem === "scale"
      ? `${input.currency} has ${currencyMinorUnits(input.currency)} decimal places`
      : "it must be a decimal number such as 123.45";
    throw formatError("body", "instructedAmount.amount",
      `The amount "${input.amount}" is invalid: ${why}.`);
  }
  if (parsed.minor <= 0n) {
    throw formatError("body", "instructedAmount.amount", "The amount must be greater than zero.");
  }
  if (parsed.minor > AMOUNT_MAX_MINOR) {
    throw formatError("body", "instructedAmount.amount",
      "The amount must be at most 999999999.99.");
  }
  return parsed.minor;
}

function readAddress(input: AddressInput | undefined): PostalAddress | null {
  if (!input) return null;
  if (!isCountryCode(input.country)) {
    throw formatError("body", "creditorAddress.country",
      `"${input.country}" is not an ISO 3166 country code.`);
  }
  return {
    streetName: input.streetName ?? input.street ?? null,
    buildingNumber: input.buildingNumber ?? null,
    townName: input.townName ?? input.city ?? null,
    postCode: input.postCode ?? input.postalCode ?? null,
    country: input.country,
  };
}

function readText(value: string | undefined, path: string, max: number): string | null {
  if (value === undefined) return null;
  if (value.length > max) throw formatError("body", path, `At most ${max} characters.`);
  if (!isSepaText(value)) {
    throw formatError("body", path,
      "Only the SEPA character set is allowed: a-z A-Z 0-9 / - ? : ( ) . , ' + and space.");
  }
  return value;
}

/** Validates an initiation in rule order; `today` is the bank's current date. */
export function validatePayment(
  input: PaymentInitiationInput, product: PaymentProduct, today: string,
): ValidPayment {
  const debtorAccount = readAccount(input.debtorAccount, "debtorAccount");
  const creditorAccount = readAccount(input.creditorAccount, "creditorAccount");
  if (creditorAccount.iban === debtorAccount.iban) {
    throw paymentToItself(typeof input.creditorAccount === "string"
      ? "creditorAccount" : "creditorAccount.iban");
  }
  const amountMinor = readAmount(input.instructedAmount);
  if (input.instructedAmount.currency !== "EUR") {
    throw formatError("body", "instructedAmount.currency", `${product} are made in EUR only.`);
  }
  const creditorName = input.creditorName.trim();
  if (creditorName.length === 0) {
    throw formatError("body", "creditorName", "The creditor name is empty.");
  }
  readText(creditorName, "creditorName", 70);
  if (input.creditorAgent !== undefined && !isValidBic(input.creditorAgent)) {
    throw formatError("body", "creditorAgent", `"${input.creditorAgent}" is not a valid BIC.`);
  }
  const date = readExecutionDate(input.requestedExecutionDate, product, today);
  return {
    debtorAccount, creditorAccount, creditorName, amountMinor,
    currency: input.instructedAmount.currency,
    creditorAgent: input.creditorAgent ?? null,
    creditorAddress: readAddress(input.creditorAddress),
    remittance: readText(
      input.remittanceInformationUnstructured, "remittanceInformationUnstructured", 140),
    endToEndId: readText(input.endToEndIdentification, "endToEndIdentification", 35),
    requestedExecutionDate: date,
  };
}

/** requestedExecutionDate: from today up to a year ahead; an instant payment only today. */
function readExecutionDate(
  date: string | undefined, product: PaymentProduct, today: string,
): string | null {
  if (date === undefined) return null;
  if (!isIsoDate(date) || date < today || date > addDays(today, 365)) {
    throw formatError("body", "requestedExecutionDate",
      "requestedExecutionDate must be a date (YYYY-MM-DD) from today up to one year ahead.");
  }
  if (product === "instant-sepa-credit-transfers" && date > today) {
    throw instantNotFutureDated();
  }
  return date;
}

/** One payment of a bulk: a single payment's fields without the bulk's debtor and date. */
export type BulkEntryInput =
  Omit<PaymentInitiationInput, "debtorAccount" | "requestedExecutionDate">;

export interface BulkPaymentInput {
  debtorAccount: AccountInput;
  batchBookingPreferred?: boolean;
  requestedExecutionDate?: string;
  payments: BulkEntryInput[];
}

export interface ValidBulk {
  debtorAccount: AccountReference;
  requestedExecutionDate: string | null;
  batchBooking: boolean;
  entries: ValidPayment[];
}

/**
 * Validates a bulk: its own fields, then each payment by the single payment's rules, a refusal
 * naming the payment as in `payments[3].creditorAccount.iban`.
 */
export function validateBulk(
  input: BulkPaymentInput, product: PaymentProduct, today: string, entriesMax: number,
): ValidBulk {
  const debtorAccount = readAccount(input.debtorAccount, "debtorAccount");
  const requestedExecutionDate = readExecutionDate(input.requestedExecutionDate, product, today);
  if (input.payments.length === 0 || input.payments.length > entriesMax) {
    throw formatError("body", "payments", `A bulk carries 1 to ${entriesMax} payments.`);
  }
  const entries = input.payments.map((entry, i) => {
    try {
      return validatePayment({ ...entry, debtorAccount: input.debtorAccount }, product, today);
    } catch (error) {
      if (!(error instanceof Xs2aError)) throw error;
      throw error.under(`payments[${i}]`);
    }
  });
  return {
    debtorAccount, requestedExecutionDate, batchBooking: input.batchBookingPreferred ?? false,
    entries,
  };
}
