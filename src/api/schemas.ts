/**
 * JSON schemas of the request bodies and responses, shared by the routes. Shapes only: the
 * semantic rules (IBAN check digits, currency minor units, dates) live in domain/.
 */
const text = (maxLength: number) => ({ type: "string", maxLength }) as const;
const nullable = (type: string) => ({ type: [type, "null"] }) as const;

/** The spec's plain IBAN string or Berlin Group's account reference object. */
export const accountReference = {
  type: ["string", "object"],
  maxLength: 34,
  properties: { iban: text(34), currency: { type: "string", pattern: "^[A-Z]{3}$" } },
  required: ["iban"],
  additionalProperties: false,
} as const;

/** An account or a card account, named by its masked PAN (or, for funds confirmation, its PAN). */
export const cardOrAccountReference = {
  type: ["string", "object"],
  maxLength: 34,
  properties: {
    iban: text(34), maskedPan: text(35), pan: text(35), currency: { type: "string", pattern: "^[A-Z]{3}$" },
  },
  anyOf: [{ type: "string" }, { required: ["iban"] }, { required: ["maskedPan"] }, { required: ["pan"] }],
  additionalProperties: false,
} as const;

export const amount = {
  type: "object",
  required: ["currency", "amount"],
  properties: {
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    amount: { type: ["string", "number"] },
  },
  additionalProperties: false,
} as const;

/** Both the spec's (street, city, postalCode) and Berlin Group 1.3.4+ names are accepted. */
const address = {
  type: "object",
  required: ["country"],
  properties: {
    street: text(70), streetName: text(70), buildingNumber: text(16), city: text(35),
    townName: text(35), postalCode: text(16), postCode: text(16), country: text(2),
  },
  additionalProperties: false,
} as const;

export const paymentInitiationBody = {
  type: "object",
  required: ["debtorAccount", "creditorAccount", "creditorName", "instructedAmount"],
  properties: {
    debtorAccount: accountReference,
    creditorAccount: accountReference,
    creditorName: text(70),
    instructedAmount: amount,
    creditorAddress: address,
    creditorAgent: text(11),
    remittanceInformationUnstructured: text(140),
    endToEndIdentification: text(35),
    requestedExecutionDate: text(10),
  },
  additionalProperties: false,
} as const;

/** A standing order: a single payment's fields, its schedule instead of requestedExecutionDate. */
const { requestedExecutionDate: _single, ...paymentFields } = paymentInitiationBody.properties;
export const periodicPaymentInitiationBody = {
  ...paymentInitiationBody,
  required: [...paymentInitiationBody.required, "startDate", "frequency"],
  properties: {
    ...paymentFields,
    startDate: text(10), endDate: text(10), frequency: text(20), dayOfExecution: text(2),
    executionRule: text(9),
  },
} as const;

/** One payment of a bulk: a single payment's fields without the bulk's debtor and date. */
const { debtorAccount: _debtor, ...entryFields } = paymentFields;
export const bulkPaymentInitiationBody = {
  type: "object",
  required: ["debtorAccount", "payments"],
  properties: {
    batchBookingPreferred: { type: "boolean" },
    debtorAccount: accountReference,
    requestedExecutionDate: text(10),
    payments: {
      type: "array",
      items: {
        type: "object",
        required: paymentInitiationBody.required.filter((name) => name !== "debtorAccount"),
        properties: entryFields,
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

export const consentBody = {
  type: "object",
  required: ["access", "recurringIndicator", "validUntil", "frequencyPerDay", "combinedServiceIndicator"],
  properties: {
    access: {
      type: "object",
      properties: {
        accounts: { type: "array", maxItems: 100, items: cardOrAccountReference },
        balances: { type: "array", maxItems: 100, items: cardOrAccountReference },
        transactions: { type: "array", maxItems: 100, items: cardOrAccountReference },
        availableAccounts: text(30),
        availableAccountsWithBalance: text(30),
        allPsd2: text(30),
      },
      additionalProperties: false,
    },
    recurringIndicator: { type: "boolean" },
    validUntil: text(10),
    frequencyPerDay: { type: "integer", minimum: 1, maximum: 1000 },
    combinedServiceIndicator: { type: "boolean" },
  },
  additionalProperties: false,
} as const;

export const links = (...names: string[]) => ({
  type: "object",
  properties: Object.fromEntries(names.map((n) => [n, nullable("string")])),
});

export const paymentCreatedResponse = {
  type: "object",
  properties: {
    paymentId: { type: "string" },
    transactionStatus: nullable("string"),
    transactionFees: { type: "null" },
    transactionFeeIndicator: { type: "null" },
    scaMethods: { type: "null" },
    chosenScaMethod: { type: "null" },
    challengeData: { type: "null" },
    _links: links("scaRedirect", "psuMessage", "tppMessages", "startAuthorisation"),
    psuMessage: { type: "null" },
    tppMessages: { type: "null" },
  },
} as const;

const accountObject = {
  type: "object",
  properties: { iban: { type: "string" }, currency: nullable("string") },
} as const;

export const paymentDetailsResponse = {
  type: "object",
  properties: {
    endToEndIdentification: nullable("string"),
    debtorAccount: accountObject,
    creditorAccount: accountObject,
    instructedAmount: {
      type: "object", properties: { currency: { type: "string" }, amount: { type: "string" } },
    },
    creditorAgent: nullable("string"),
    creditorName: { type: "string" },
    creditorAddress: {
      type: ["object", "null"],
      properties: {
        street: nullable("string"), buildingNumber: nullable("string"), city: nullable("string"),
        postalCode: nullable("string"), country: { type: "string" },
      },
    },
    remittanceInformationUnstructured: nullable("string"),
    transactionStatus: { type: "string" },
    startDate: { type: "string" }, endDate: nullable("string"), frequency: { type: "string" },
    dayOfExecution: nullable("string"), executionRule: nullable("string"),
  },
} as const;

const { debtorAccount: _bulkDebtor, ...entryDetails } = paymentDetailsResponse.properties;
export const bulkPaymentDetailsResponse = {
  type: "object",
  properties: {
    batchBookingPreferred: { type: "boolean" },
    debtorAccount: accountObject,
    requestedExecutionDate: nullable("string"),
    payments: { type: "array", items: { type: "object", properties: entryDetails } },
    transactionStatus: { type: "string" },
  },
} as const;

/** DELETE of an authorised payment: its cancellation waits for the PSU (Berlin Group 202). */
export const cancellationStartedResponse = {
  type: "object",
  properties: {
    transactionStatus: { type: "string" },
    _links: links("startAuthorisation", "scaRedirect", "scaStatus"),
  },
} as const;

export const authorisationStartedResponse = {
  type: "object",
  properties: {
    scaStatus: { type: "string" },
    authorisationId: { type: "string" },
    _links: links("scaRedirect", "scaStatus"),
  },
} as const;

export const transactionStatusResponse = {
  type: "object", properties: { transactionStatus: { type: "string" } },
} as const;

export const consentCreatedResponse = {
  type: "object",
  properties: {
    consentStatus: { type: "string" },
    consentId: { type: "string" },
    scaMethods: { type: "null" },
    chosenScaMethod: { type: "null" },
    challengeData: { type: "null" },
    _links: links("scaStatus", "scaRedirect", "startAuthorisation"),
    message: { type: "null" },
  },
} as const;

export const consentStatusResponse = {
  type: "object", properties: { consentStatus: { type: "string" } },
} as const;

const balance = {
  type: "object",
  properties: {
    balanceAmount: {
      type: "object", properties: { currency: { type: "string" }, amount: { type: "string" } },
    },
    balanceType: { type: "string" },
    creditLimitIncluded: { type: "boolean" },
    referenceDate: nullable("string"),
    lastChangeDateTime: nullable("string"),
  },
} as const;

export const accountListResponse = {
  type: "object",
  properties: {
    accounts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          ownerName: nullable("string"),
          resourceId: { type: "string" }, iban: { type: "string" }, bban: nullable("string"),
          msisdn: nullable("string"), currency: { type: "string" }, name: nullable("string"),
          product: nullable("string"), cashAccountType: nullable("string"),
          status: { type: "string" }, bic: nullable("string"), linkedAccounts: nullable("string"),
          usage: nullable("string"), details: nullable("string"),
          balances: { type: ["array", "null"], items: balance },
          _links: { type: ["object", "null"] },
        },
      },
    },
  },
} as const;

const tppMessage = {
  type: "object",
  properties: {
    category: { type: "string" }, code: { type: "string" }, path: { type: "string" },
    text: { type: "string" },
  },
} as const;

export const errorResponse = {
  type: "object",
  properties: { tppMessages: { type: "array", items: tppMessage } },
} as const;
