/**
 * Valid openFinance 2.x request bodies, for the /v2 tests and the /v2 fuzzer: PIS 2.4.1 single,
 * periodic and bulk payments (Bob pays a merchant), Consent API 2.1 funds-confirmation consents
 * and PIIS 2.4.1 funds confirmations, an account-access consent, and the Client-* headers of a
 * redirect creation. `over` replaces top-level fields. Bob's accounts: he confirms
 * with an SMS code, at once, where a TOTP PSU waits for the next time step each time.
 */
import { ALICE_MAIN, BOB_MAIN, EXTERNAL_IBAN, NOK_URI, OK_URI } from "./flows.js";

type Over = Record<string, unknown>;

/** A creation's headers for the redirect approach: the way back, and the PSU present. */
export const CLIENT = {
  "Client-Redirect-URI": OK_URI, "Client-Nok-Redirect-URI": NOK_URI, "PSU-IP-Address": "192.0.2.1",
};

/** An account-access consent on Alice's main account (or `iban`), as detailed as the bank keeps them. */
export const accountAccessConsent = (rights: string[] = ["balances"], iban = ALICE_MAIN) => ({
  access: { payments: [{ account: { iban }, rights }] },
  consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31", frequencyPerDay: 4,
});

/** What a single payment and a bulk's entry share. */
export const entry = (over: Over = {}) => ({
  paymentIdentification: { endToEndId: "E2E-4711" },
  instructedAmount: { currency: "EUR", amount: "12.50" },
  creditorAccount: { iban: EXTERNAL_IBAN },
  creditor: { name: "Merchant GmbH",
    postalAddress: { streetName: "Hauptstr.", buildingNumber: "1", townName: "Berlin",
      postCode: "10115", country: "DE" } },
  remittanceInformationUnstructured: ["Order 42"],
  ...over,
});

export const singlePayment = (over: Over = {}) =>
  ({ ...entry(), debtorAccount: { iban: BOB_MAIN }, ...over });

/** A monthly standing order from `startDate` (a future date in the bank's zone). */
export const periodicPayment = (startDate: string, over: Over = {}) => singlePayment({
  startDate, startDateTime: `${startDate}T09:00:00Z`, frequency: "Monthly",
  dayOfExecution: "1", executionRule: "following", ...over,
});

export const bulkPayment = (over: Over = {}) => ({
  paymentInformationId: "BULK-2026-11", batchBooking: true, numberOfTransactions: 2,
  controlSum: "3.30", debtorAccount: { iban: BOB_MAIN },
  creditTransfers: [
    entry({ instructedAmount: { currency: "EUR", amount: "1.10" } }),
    entry({ instructedAmount: { currency: "EUR", amount: "2.2" },
      creditor: { name: "Alice Schmidt" }, creditorAccount: { iban: ALICE_MAIN },
      paymentIdentification: undefined }),
  ],
  ...over,
});

export const fundsConsent = (over: Over = {}) => ({
  access: { payments: [{ account: { iban: BOB_MAIN }, rights: ["fundsConfirmations"] }] },
  consentType: "detailed", recurringIndicator: true, validTo: "9999-12-31",
  cardNumber: "1234567890123456", cardInformation: "Shop card", ...over,
});

export const fundsQuestion = (iban = BOB_MAIN, amount = "1.00") =>
  ({ account: { iban }, payee: "Shop", instructedAmount: { currency: "EUR", amount } });
