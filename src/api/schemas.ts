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
    iban: text(34), maskedPan: text(35), pan: text(35),
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
  },
  // No anyOf of the three: a reference of another kind (bban, msisdn) is refused naming it.
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
  required: [
    "access", "recurringIndicator", "validUntil", "frequencyPerDay", "combinedServiceIndicator",
  ],
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

/**
 * The links of the embedded, decoupled and oauth approaches (Berlin Group implementation
 * guidelines).
 */
const APPROACH_LINKS = [
  "scaStatus", "scaOAuth", "updatePsuIdentification", "updatePsuAuthentication",
  "startAuthorisationWithPsuIdentification", "startAuthorisationWithPsuAuthentication",
] as const;

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
    _links: links("scaRedirect", "psuMessage", "tppMessages", "startAuthorisation",
      ...APPROACH_LINKS),
    psuMessage: nullable("string"),
    tppMessages: { type: "null" },
  },
} as const;

const accountObject = {
  type: "object",
  properties: { iban: { type: "string" }, currency: nullable("string") },
} as const;

/** A standing order's schedule: a periodic payment's fields and an account report's details. */
const standingOrderFields = {
  startDate: { type: "string" }, endDate: nullable("string"), frequency: { type: "string" },
  dayOfExecution: nullable("string"), executionRule: nullable("string"),
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
    /** Verification of Payee at creation (EPC VOP codes); null before it was introduced. */
    vopResult: {
      type: ["object", "null"],
      properties: {
        partyNameMatch: { type: "string", enum: ["MTCH", "CMTC", "NMTC", "NOAP"] },
        matchedName: nullable("string"),
      },
    },
    ...standingOrderFields,
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
    _links: links("startAuthorisation", "scaRedirect", "scaOAuth", "scaStatus",
      "updatePsuIdentification", "updatePsuAuthentication"),
  },
} as const;

const scaMethod = {
  type: "object",
  properties: {
    authenticationType: { type: "string" }, authenticationMethodId: { type: "string" },
    name: { type: "string" },
  },
} as const;

/** What an embedded authorisation shows of its next step (Berlin Group's names). */
const EMBEDDED_STATE = {
  scaMethods: { type: "array", items: scaMethod },
  chosenScaMethod: scaMethod,
  challengeData: {
    type: "object",
    properties: {
      otpMaxLength: { type: "integer" }, otpFormat: { type: "string" },
      additionalInformation: { type: "string" },
    },
  },
} as const;

export const authorisationStartedResponse = {
  type: "object",
  properties: {
    scaStatus: { type: "string" },
    authorisationId: { type: "string" },
    psuMessage: { type: "string" },
    ...EMBEDDED_STATE,
    _links: links("scaRedirect", "scaOAuth", "confirmation", "scaStatus",
      "updatePsuIdentification", "updatePsuAuthentication", "selectAuthenticationMethod",
      "authoriseTransaction"),
  },
} as const;

/** A signing basket's body: the TPP's payments and consents that await their authorisation. */
const basketIds = {
  type: "array", minItems: 1, maxItems: 50, items: { type: "string", maxLength: 100 },
} as const;
export const basketBody = {
  type: "object",
  properties: { paymentIds: basketIds, consentIds: basketIds },
  additionalProperties: false,
} as const;

export const basketCreatedResponse = {
  type: "object",
  properties: {
    basketId: { type: "string" },
    transactionStatus: { type: "string" },
    scaMethods: { type: "null" },
    chosenScaMethod: { type: "null" },
    challengeData: { type: "null" },
    _links: links("scaRedirect", "confirmation", "self", "status", "scaStatus",
      "startAuthorisation", ...APPROACH_LINKS),
    psuMessage: nullable("string"),
    tppMessages: { type: "null" },
  },
} as const;

const idList = { type: ["array", "null"], items: { type: "string" } } as const;
export const basketResponse = {
  type: "object",
  properties: {
    payments: idList, consents: idList, transactionStatus: { type: "string" },
    _links: links("self", "status", "startAuthorisation"),
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
    _links: links("scaStatus", "scaRedirect", "confirmation", "startAuthorisation",
      ...APPROACH_LINKS),
    message: { type: "null" },
    psuMessage: nullable("string"),
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

const string = { type: "string" } as const;
const money = { type: "object", properties: { currency: string, amount: string } } as const;
const nullableArray = (items: object) => ({ type: ["array", "null"], items }) as const;

const accountDetails = {
  type: "object",
  properties: {
    ownerName: nullable("string"),
    resourceId: string, iban: string, bban: nullable("string"),
    msisdn: nullable("string"), currency: string, name: nullable("string"),
    product: nullable("string"), cashAccountType: nullable("string"),
    status: string, bic: nullable("string"), linkedAccounts: nullable("string"),
    usage: nullable("string"), details: nullable("string"),
    balances: nullableArray(balance),
    // Always null: the spec's sample shows no account links.
    _links: { type: "null" },
  },
} as const;

export const accountListResponse = {
  type: "object", properties: { accounts: { type: "array", items: accountDetails } },
} as const;

export const accountDetailsResponse = {
  type: "object", properties: { account: accountDetails },
} as const;

export const balancesResponse = {
  type: "object",
  properties: { account: accountObject, balances: { type: "array", items: balance } },
} as const;

const counterparty = { type: ["object", "null"], properties: { iban: string } } as const;

/** What a booked and a pending transaction share: the amount and the parties. */
const transactionParties = {
  transactionAmount: money,
  creditorName: nullable("string"),
  creditorAccount: counterparty,
  debtorName: nullable("string"),
  debtorAccount: counterparty,
  remittanceInformationUnstructured: nullable("string"),
  bankTransactionCode: nullable("string"),
} as const;

export const bookedTransaction = {
  type: "object",
  properties: {
    transactionId: string, entryReference: string, endToEndId: nullable("string"),
    bookingDate: string, valueDate: string,
    ...transactionParties,
    balanceAfterTransaction: {
      type: "object", properties: { balanceType: string, balanceAmount: money },
    },
  },
} as const;

const pendingTransaction = {
  type: "object",
  properties: {
    transactionId: string, endToEndId: nullable("string"), valueDate: string,
    ...transactionParties,
  },
} as const;

/** A standing order in the information list of an account report. */
const standingOrderEntry = {
  type: "object",
  properties: {
    transactionId: string,
    endToEndId: nullable("string"),
    transactionAmount: money,
    creditorName: string,
    creditorAccount: { type: "object", properties: { iban: string } },
    remittanceInformationUnstructured: nullable("string"),
    additionalInformationStructured: {
      type: ["object", "null"],
      properties: { standingOrderDetails: { type: "object", properties: standingOrderFields } },
    },
  },
} as const;

/** The pages of a report; `owner` names the link back to its account. */
const pageLinks = (owner: "account" | "cardAccount") => ({
  type: "object",
  properties: {
    [owner]: string, first: string,
    next: nullable("string"), previous: nullable("string"), last: nullable("string"),
  },
});

export const transactionsResponse = {
  type: "object",
  properties: {
    account: accountObject,
    transactions: {
      type: "object",
      properties: {
        booked: nullableArray(bookedTransaction),
        pending: nullableArray(pendingTransaction),
        information: { type: "array", items: standingOrderEntry },
        _links: pageLinks("account"),
      },
    },
    balances: nullableArray(balance),
    /** Instead of the rest, for a transaction file too large to answer at once. */
    _links: { type: "object", properties: { download: string } },
  },
} as const;

export const transactionDetailsResponse = {
  type: "object", properties: { transactionsDetails: bookedTransaction },
} as const;

/** An account or card the PSU granted, as the consent names it. */
const grantedReference = {
  type: "object", properties: { iban: string, maskedPan: string, currency: string },
} as const;

export const consentDetailsResponse = {
  type: "object",
  properties: {
    access: {
      type: "object",
      properties: {
        accounts: { type: "array", items: grantedReference },
        balances: { type: "array", items: grantedReference },
        transactions: { type: "array", items: grantedReference },
        availableAccounts: nullable("string"),
        availableAccountsWithBalance: nullable("string"),
        allPsd2: nullable("string"),
      },
    },
    recurringIndicator: { type: "boolean" },
    validUntil: string,
    frequencyPerDay: { type: "integer" },
    lastActionDate: string,
    consentStatus: string,
  },
} as const;

const cardAccountDetails = {
  type: "object",
  properties: {
    resourceId: string, maskedPan: string, currency: string, ownerName: nullable("string"),
    name: nullable("string"), product: nullable("string"), debitAccounting: { type: "boolean" },
    status: string, usage: nullable("string"), details: { type: "null" }, creditLimit: money,
    balances: nullableArray(balance),
    _links: { type: "null" },
  },
} as const;

export const cardAccountListResponse = {
  type: "object", properties: { cardAccounts: { type: "array", items: cardAccountDetails } },
} as const;

export const cardAccountDetailsResponse = {
  type: "object", properties: { cardAccount: cardAccountDetails },
} as const;

const cardReference = {
  type: "object", properties: { maskedPan: string, currency: string },
} as const;

export const cardBalancesResponse = {
  type: "object",
  properties: { cardAccount: cardReference, balances: { type: "array", items: balance } },
} as const;

/** A booked card transaction; a pending one has a subset of its fields. */
const cardTransaction = {
  type: "object",
  properties: {
    cardTransactionId: string,
    terminalId: { type: "null" },
    transactionDate: string,
    acceptorTransactionDateTime: nullable("string"),
    bookingDate: string,
    valueDate: string,
    transactionAmount: money,
    currencyExchange: nullableArray({
      type: "object",
      properties: {
        sourceCurrency: string, exchangeRate: string, unitCurrency: string, targetCurrency: string,
        quotationDate: string,
      },
    }),
    originalAmount: { ...money, type: ["object", "null"] },
    cardAcceptorId: nullable("string"),
    cardAcceptorAddress: {
      type: ["object", "null"], properties: { townName: string, country: nullable("string") },
    },
    merchantCategoryCode: nullable("string"),
    maskedPAN: string,
    transactionDetails: nullable("string"),
    invoiced: { type: "null" },
    proprietaryBankTransactionCode: nullable("string"),
  },
} as const;

export const cardTransactionsResponse = {
  type: "object",
  properties: {
    cardAccount: cardReference,
    debitAccounting: { type: "boolean" },
    cardTransactions: {
      type: "object",
      properties: {
        booked: nullableArray(cardTransaction),
        pending: nullableArray(cardTransaction),
        _links: pageLinks("cardAccount"),
      },
    },
    balances: nullableArray(balance),
  },
} as const;

export const authorisationListResponse = {
  type: "object", properties: { authorisationIds: { type: "array", items: string } },
} as const;

/** chosenScaMethod appears once the PSU has chosen its device. */
export const scaStatusResponse = {
  type: "object",
  properties: { scaStatus: string, chosenScaMethod: scaMethod },
} as const;

/** Berlin Group's PUT bodies on an authorisation (embedded approach): one of the three. */
export const authorisationUpdateBody = {
  type: "object",
  properties: {
    psuData: {
      type: "object", properties: { password: { type: "string", maxLength: 256 } },
      additionalProperties: false,
    },
    authenticationMethodId: { type: "string", maxLength: 35 },
    scaAuthenticationData: { type: "string", maxLength: 64 },
    confirmationCode: { type: "string", maxLength: 64 },
  },
  additionalProperties: false,
} as const;

/** The answer to an embedded update: where the authorisation stands and what comes next. */
export const authorisationUpdateResponse = {
  type: "object",
  properties: {
    scaStatus: string,
    psuMessage: string,
    ...EMBEDDED_STATE,
    _links: links("scaStatus", "updatePsuAuthentication", "selectAuthenticationMethod",
      "authoriseTransaction", "status"),
  },
} as const;

/** Query parameters are text; their rules and Berlin Group codes are the domain's. */
const withBalance = { type: "string", enum: ["true", "false"] } as const;

export const withBalanceQuery = { type: "object", properties: { withBalance } } as const;

export const transactionsQuery = {
  type: "object",
  properties: {
    dateFrom: string, dateTo: string, entryReferenceFrom: string, bookingStatus: string,
    deltaList: string, withBalance, pageIndex: string, itemsPerPage: string,
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
