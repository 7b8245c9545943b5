/**
 * The openFinance Consent API 2.1 account-access body and answer, read into and shown from the
 * one consent aggregate: a `detailed` consent names its payment accounts (1.3's named accounts),
 * an `aspspManaged` one names none and the PSU picks them on the bank's pages (1.3's
 * bank-offered consent). Rights map onto 1.3's lists: `accountDetails` the accounts list,
 * `balances` and `transactions` theirs, `ais` all three.
 */
import type { ConsentDetails, ConsentInput } from "../../domain/consent/registration.js";
import { CONSENT_TYPES, type Consent, type ConsentType } from "../../domain/consent/model.js";
import {
  consentTypeNotSupported, formatError, parameterNotSupported,
} from "../../domain/kernel/errors.js";

export const text = (maxLength: number) => ({ type: "string", maxLength }) as const;

const accessRights = {
  type: "object",
  required: ["rights"],
  properties: {
    // Any reference the file allows; which ones the bank takes is said naming the field.
    account: { type: "object", maxProperties: 10 },
    rights: { type: "array", minItems: 1, maxItems: 20, items: text(40) },
  },
  additionalProperties: false,
} as const;

/** One access category's entries (access.payments, ...), as the file shapes them. */
const category = { type: "array", minItems: 1, maxItems: 100, items: accessRights } as const;

/** A 2.x consent's access: the account categories, each judged by the category's reader. */
export const v2Access = {
  type: "object",
  properties: {
    payments: category, cards: category, cardAccounts: category, savings: category,
    loans: category, securities: category,
  },
  additionalProperties: false,
} as const;

/** Shapes only; the consent type, the categories and the rights are judged in readV2Consent. */
export const v2ConsentBody = {
  type: "object",
  required: ["access", "consentType", "recurringIndicator", "validTo", "frequencyPerDay"],
  properties: {
    access: v2Access,
    consentType: text(35),
    recurringIndicator: { type: "boolean" },
    validTo: text(10),
    frequencyPerDay: { type: "integer", minimum: 1, maximum: 1000 },
  },
  additionalProperties: false,
} as const;

export interface AccessRights { account?: Record<string, unknown>; rights: string[] }

/** The categories of the file's accountAccess. */
export type AccountAccess = Partial<Record<"payments" | "cards" | "cardAccounts" | "savings"
  | "loans" | "securities", AccessRights[]>>;

export interface V2ConsentBody {
  access: AccountAccess;
  consentType: string;
  recurringIndicator: boolean;
  validTo: string;
  frequencyPerDay: number;
}

const READ_RIGHTS = ["ais", "accountDetails", "balances", "transactions"];
const grants = (rights: string[], right: string) =>
  rights.includes(right) || rights.includes("ais");

function isConsentType(value: string): value is ConsentType {
  return (CONSENT_TYPES as readonly string[]).includes(value);
}

function checkRights(entry: AccessRights, path: string, offered: readonly string[]): void {
  const other = entry.rights.find((right) => !offered.includes(right));
  if (other !== undefined) {
    throw parameterNotSupported(`${path}.rights`,
      `This bank grants the rights ${offered.join(", ")} here; not "${other}".`);
  }
}

/** A detailed entry's account: an IBAN alone, as the bank's payment accounts are known. */
export function ibanOf(entry: AccessRights, path: string): { iban: string } {
  const account = entry.account;
  if (account === undefined) {
    throw formatError("body", `${path}.account`, "A detailed consent names each account.");
  }
  const { iban, ...rest } = account;
  if (typeof iban !== "string" || Object.keys(rest).length > 0) {
    throw formatError("body", `${path}.account`, "Name a payment account by its iban alone.");
  }
  return { iban };
}

/**
 * The entries of access.payments, each asking for some of the `offered` rights; other categories
 * are not offered.
 */
export function paymentEntries(access: AccountAccess, offered: readonly string[]): AccessRights[] {
  const other = Object.keys(access).find((name) => name !== "payments");
  if (other !== undefined) {
    throw parameterNotSupported(`access.${other}`,
      "This bank offers access to payment accounts (access.payments) only.");
  }
  const entries = access.payments;
  if (entries === undefined) {
    throw formatError("body", "access.payments", "Ask for access to payment accounts.");
  }
  entries.forEach((entry, i) => checkRights(entry, `access.payments[${i}]`, offered));
  return entries;
}

function detailedAccess(entries: AccessRights[]): ConsentInput["access"] {
  const named = entries.map((entry, i) =>
    ({ ...entry, ...ibanOf(entry, `access.payments[${i}]`) }));
  return {
    accounts: named.map(({ iban }) => ({ iban })),
    balances: named.filter((e) => grants(e.rights, "balances")).map(({ iban }) => ({ iban })),
    transactions: named.filter((e) => grants(e.rights, "transactions"))
      .map(({ iban }) => ({ iban })),
  };
}

/** Empty lists: the PSU picks the accounts, and what each shares, on the bank's pages. */
function managedAccess(entries: AccessRights[]): ConsentInput["access"] {
  const named = entries.findIndex((entry) => entry.account !== undefined);
  if (named >= 0) {
    throw formatError("body", `access.payments[${named}].account`,
      "An aspspManaged consent names no account: the PSU picks them on the bank's pages.");
  }
  const all = entries.flatMap((entry) => entry.rights);
  return {
    accounts: [], ...(grants(all, "balances") ? { balances: [] } : {}),
    ...(grants(all, "transactions") ? { transactions: [] } : {}),
  };
}

/**
 * The 2.x body as the aggregate's input. Throws CONSENT_TYPE_NOT_SUPPORTED, PARAMETER_NOT_SUPPORTED
 * or FORMAT_ERROR (with path).
 */
export function readV2Consent(body: V2ConsentBody): { input: ConsentInput; type: ConsentType } {
  const type = body.consentType;
  if (!isConsentType(type)) throw consentTypeNotSupported(...CONSENT_TYPES);
  const entries = paymentEntries(body.access, READ_RIGHTS);
  const access = type === "detailed" ? detailedAccess(entries) : managedAccess(entries);
  return {
    type,
    input: {
      access, recurringIndicator: body.recurringIndicator, validUntil: body.validTo,
      frequencyPerDay: body.frequencyPerDay, combinedServiceIndicator: false,
    },
  };
}

const rightsOf = (balances: boolean, transactions: boolean) => [
  "accountDetails", ...(balances ? ["balances"] : []), ...(transactions ? ["transactions"] : []),
];

/**
 * What a consent gives: the granted accounts (a card the PSU picked on an aspspManaged consent
 * under cards), else the accounts asked for (none: {}).
 */
function accessOf(consent: Consent, granted: ConsentDetails["granted"]) {
  const entries = granted.length > 0
    ? granted.map((g) => ({ account: g.reference, rights: rightsOf(g.balances, g.transactions) }))
    : consent.access.accounts.map((iban) => ({
      account: { iban },
      rights: rightsOf(consent.access.balances.includes(iban),
        consent.access.transactions.includes(iban)),
    }));
  const payments = entries.filter((e) => "iban" in e.account);
  const cards = entries.filter((e) => !("iban" in e.account));
  return { ...(payments.length > 0 ? { payments } : {}), ...(cards.length > 0 ? { cards } : {}) };
}

/** The Consent API 2.1 answer of GET /v2/consents/account-access/{consentId}. */
export function presentV2Consent({ consent, granted }: ConsentDetails) {
  return {
    access: accessOf(consent, granted),
    consentType: consent.consentType ?? "detailed",
    recurringIndicator: consent.recurringIndicator,
    validTo: consent.validUntil,
    frequencyPerDay: consent.frequencyPerDay,
    consentStatus: consent.status,
  };
}
