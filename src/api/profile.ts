/**
 * The two wire dialects of the TPP API, chosen once by API_PROFILE at route registration: the
 * spec's (shared/spec/psd2-interface.md: 200 on create, plain-string links, nulls present) and
 * strict Berlin Group NextGenPSD2 1.3.12 (201 with Location and ASPSP-SCA-Approach, {"href"}
 * links, optional fields omitted). Routes and domain are the same for both; a route asks its
 * Presenters for the body, the status and headers of a creation, and its response schema.
 */
import type { FastifyReply } from "fastify";
import type {
  AccountView, CardAccountView, CardTransactionsView, TransactionsView,
} from "../domain/consent/accounts.js";
import type { CreatedBasket } from "../domain/basket/baskets.js";
import type { Basket } from "../domain/basket/model.js";
import type { ConsentDetails, RegisteredConsent } from "../domain/consent/registration.js";
import type {
  Balance, BankAccount, BookedTransaction, CardAccount,
} from "../domain/account-information/core-banking.js";
import type { StoredResponse } from "../domain/kernel/idempotency.js";
import type { InitiatedPayment } from "../domain/payment/initiation.js";
import type { Payment } from "../domain/payment/model.js";
import {
  presentAccountReference, presentCardAccount, presentCardReference, presentCardTransactions,
  presentConsent, presentTransaction, presentTransactions,
} from "./present-accounts.js";
import {
  presentAccount, presentBalance, presentBasket, presentBasketCreated, presentBulk,
  presentConsentCreated, presentPayment, presentPaymentCreated,
} from "./present.js";
import { DECOUPLED_PSU_MESSAGE } from "../domain/sca/decoupled.js";
import { approachHeader, approachLinks, type ChosenApproach } from "./sca-approach.js";
import { initialScaStatus } from "../domain/sca/transitions.js";

export type ApiProfile = "spec" | "berlin-group";

/** The paths of a created resource: Location, and the links Berlin Group names. */
export interface ResourcePaths {
  self: string;
  status: string;
  /** Where the TPP starts an authorisation itself (POST). */
  authorisations: string;
  /** The authorisation sub-resource the creation started; null when the TPP starts it. */
  authorisation: string | null;
}

export function resourcePaths(self: string, authorisationId: string | null): ResourcePaths {
  const authorisations = `${self}/authorisations`;
  const authorisation = authorisationId && `${authorisations}/${authorisationId}`;
  return { self, status: `${self}/status`, authorisations, authorisation };
}

/** The approach a creation gets when the TPP's request says nothing (the redirect). */
export const REDIRECT: ChosenApproach = { approach: "redirect", psuId: null };

/** A creation's links: the redirect and its authorisation, or where the TPP starts one. */
function creationLinks(scaRedirect: string | null, paths: ResourcePaths, chosen: ChosenApproach) {
  const { self, status } = paths;
  if (chosen.approach !== "redirect") return { ...approachLinks(chosen, paths), self, status };
  if (scaRedirect === null) return { startAuthorisation: paths.authorisations, self, status };
  return { scaRedirect, self, status, scaStatus: paths.authorisation,
    ...confirmationLink(chosen, paths.authorisation) };
}

/** Where the TPP sends the confirmation code the redirect back carries (the guidelines). */
function confirmationLink(chosen: ChosenApproach, authorisation: string | null) {
  return chosen.confirmation && authorisation ? { confirmation: authorisation } : {};
}

/** The spec dialect shows no startAuthorisation; it is added only where the TPP must start one. */
function withStart<T extends { _links: object }>(
  body: T, scaRedirect: string | null, paths: ResourcePaths,
): T {
  if (scaRedirect !== null) return body;
  return { ...body, _links: { ...body._links, startAuthorisation: paths.authorisations } };
}

type Json = Record<string, unknown>;

/** The decoupled approach's message to the PSU, once the PSU is known. */
function psuMessage(chosen: ChosenApproach) {
  const waits = chosen.approach === "decoupled" && chosen.psuId !== null;
  return waits ? { psuMessage: DECOUPLED_PSU_MESSAGE } : {};
}

/** The spec dialect's creation answer for an embedded or decoupled approach: its links instead. */
function withApproach<T extends { _links: object }>(
  body: T, chosen: ChosenApproach, paths: ResourcePaths,
): T {
  if (chosen.approach === "redirect") return body;
  const { startAuthorisation: _, ...kept } = body._links as Json;
  return {
    ...body, ...psuMessage(chosen),
    _links: { ...kept, scaRedirect: null, ...approachLinks(chosen, paths) },
  };
}
type Query = Record<string, string | undefined>;

export interface Presenters {
  /** Status code of an answer that creates a payment or consent. */
  createdStatus: 200 | 201;
  /** Headers of that answer and of an authorisation's start (201). */
  createdHeaders(self: string, chosen: ChosenApproach): Record<string, string>;
  paymentCreated(initiated: InitiatedPayment, paths: ResourcePaths, chosen: ChosenApproach): Json;
  payment(payment: Payment): Json;
  bulkPayment(bulk: { payment: Payment; entries: Payment[] }): Json;
  /** A small answer a route writes itself (cancellation started, ...), in this dialect. */
  answer(body: Json): Json;
  consentCreated(
    registered: RegisteredConsent, paths: ResourcePaths, chosen: ChosenApproach,
  ): Json;
  consent(details: ConsentDetails): Json;
  basketCreated(created: CreatedBasket, paths: ResourcePaths, chosen: ChosenApproach): Json;
  basket(basket: Basket, self: string): Json;
  account(view: AccountView): Json;
  balances(account: BankAccount, balances: Balance[]): Json;
  transactions(view: TransactionsView, accountPath: string, query: Query): Json;
  transaction(transaction: BookedTransaction): Json;
  /** One entry of a page's booked list (its schema: schemas.ts bookedTransaction). */
  bookedEntry(transaction: BookedTransaction): Json;
  cardAccount(view: CardAccountView): Json;
  cardBalances(account: CardAccount, balances: Balance[]): Json;
  cardTransactions(view: CardTransactionsView, accountPath: string, query: Query): Json;
  /** A response schema in this dialect, from the spec dialect's. */
  schema(specSchema: object): object;
  /** The headers schema of a request creating a payment or consent: what this dialect requires. */
  creationHeaders: object;
}

const specPresenters: Presenters = {
  createdStatus: 200,
  // The spec's samples show no headers; the approach taken is still said, as Berlin Group does.
  createdHeaders: (_self, chosen) => ({ "ASPSP-SCA-Approach": approachHeader(chosen) }),
  paymentCreated: (initiated, paths, chosen) => withApproach(
    withStart(presentPaymentCreated(initiated), initiated.scaRedirect, paths), chosen, paths),
  payment: presentPayment,
  bulkPayment: presentBulk,
  answer: (body) => body,
  consentCreated: (registered, paths, chosen) => withApproach(
    withStart(presentConsentCreated(registered), registered.scaRedirect, paths), chosen, paths),
  consent: presentConsent,
  basketCreated: (created, paths, chosen) => withApproach(withStart(
    presentBasketCreated(created, paths, paths.authorisation), created.scaRedirect, paths),
  chosen, paths),
  basket: presentBasket,
  account: presentAccount,
  balances: (account, balances) =>
    ({ account: presentAccountReference(account), balances: balances.map(presentBalance) }),
  transactions: presentTransactions,
  transaction: (t) => ({ transactionsDetails: presentTransaction(t) }),
  bookedEntry: presentTransaction,
  cardAccount: presentCardAccount,
  cardBalances: (account, balances) =>
    ({ cardAccount: presentCardReference(account), balances: balances.map(presentBalance) }),
  cardTransactions: presentCardTransactions,
  schema: (s) => s,
  // The spec does not say which of its headers are mandatory (its section 4, rule 4).
  creationHeaders: { type: "object" },
};

/** Berlin Group 1.3.4+ address names; the spec's answer uses street/city/postalCode. */
const ADDRESS_NAMES: Readonly<Record<string, string>> = {
  street: "streetName", city: "townName", postalCode: "postCode",
};

/**
 * Berlin Group omits what it does not know instead of sending null, every link is an object
 * {"href": ...}, addresses use its names: the spec dialect's answer, converted.
 */
function strict(value: unknown, names: Readonly<Record<string, string>> = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => strict(v));
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [name, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    out[names[name] ?? name] = name === "_links" ? hrefs(v as Json)
      : strict(v, name === "creditorAddress" ? ADDRESS_NAMES : {});
  }
  return out;
}

function hrefs(links: Json): Json {
  const present = Object.entries(links).filter(([, v]) => typeof v === "string");
  return Object.fromEntries(present.map(([name, href]) => [name, { href }]));
}

const hrefType = {
  type: "object", properties: { href: { type: "string" } }, required: ["href"],
} as const;

const text = { type: "string" } as const;
const address = {
  type: "object",
  properties: {
    streetName: text, buildingNumber: text, townName: text, postCode: text, country: text,
  },
} as const;

/** The spec dialect's response schema in Berlin Group form: no nulls, links as href objects. */
function strictSchema(schema: unknown, name = ""): unknown {
  if (name === "_links") return { type: "object", additionalProperties: hrefType };
  if (name === "creditorAddress") return address;
  if (Array.isArray(schema)) return schema.map((s) => strictSchema(s));
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Json = {};
  for (const [key, v] of Object.entries(schema)) {
    if (key === "properties" && typeof v === "object" && v !== null) {
      const kept = Object.entries(v).filter(([, p]) => (p as { type?: unknown }).type !== "null");
      out[key] = Object.fromEntries(kept.map(([n, p]) => [n, strictSchema(p, n)]));
    } else if (key === "type" && Array.isArray(v)) {
      const types = v.filter((t) => t !== "null");
      out[key] = types.length === 1 ? types[0] : types;
    } else {
      out[key] = strictSchema(v);
    }
  }
  return out;
}

const json = (value: unknown) => strict(value) as Json;

const berlinGroupPresenters: Presenters = {
  createdStatus: 201,
  createdHeaders: (self, chosen) =>
    ({ Location: self, "ASPSP-SCA-Approach": approachHeader(chosen) }),
  paymentCreated: ({ payment, scaRedirect }, paths, chosen) => json({
    transactionStatus: payment.status,
    paymentId: payment.id,
    _links: creationLinks(scaRedirect, paths, chosen),
    ...psuMessage(chosen),
  }),
  payment: (payment) => json(presentPayment(payment)),
  bulkPayment: (bulk) => json(presentBulk(bulk)),
  answer: json,
  consentCreated: ({ consent, scaRedirect }, paths, chosen) => json({
    consentStatus: consent.status,
    consentId: consent.id,
    _links: creationLinks(scaRedirect, paths, chosen),
    ...psuMessage(chosen),
  }),
  consent: (details) => json(specPresenters.consent(details)),
  basketCreated: ({ basket, scaRedirect }, paths, chosen) => json({
    transactionStatus: basket.status,
    basketId: basket.id,
    _links: creationLinks(scaRedirect, paths, chosen),
    ...psuMessage(chosen),
  }),
  basket: (basket, self) => json(presentBasket(basket, self)),
  account: (view) => json(specPresenters.account(view)),
  balances: (account, balances) => json(specPresenters.balances(account, balances)),
  transactions: (view, accountPath, query) =>
    json(specPresenters.transactions(view, accountPath, query)),
  transaction: (t) => json(specPresenters.transaction(t)),
  bookedEntry: (t) => json(specPresenters.bookedEntry(t)),
  cardAccount: (view) => json(specPresenters.cardAccount(view)),
  cardBalances: (account, balances) => json(specPresenters.cardBalances(account, balances)),
  cardTransactions: (view, accountPath, query) =>
    json(specPresenters.cardTransactions(view, accountPath, query)),
  schema: (s) => strictSchema(s) as object,
  creationHeaders: {
    type: "object",
    // Mandatory for initiatePayment and createConsent in the Berlin Group file, which writes it
    // as an IPv4 address; an IPv6 PSU is not refused for it.
    required: ["PSU-IP-Address"],
    properties: {
      "PSU-IP-Address": {
        anyOf: [{ type: "string", format: "ipv4" }, { type: "string", format: "ipv6" }],
      },
    },
  },
};

/**
 * Sends a creation's answer, first or replayed for a repeated X-Request-ID, with the dialect's
 * headers; `idField` names the created id in the body, `selfOf` its path.
 */
export function sendCreated(reply: FastifyReply, presenters: Presenters, response: StoredResponse,
  idField: string, selfOf: (id: string) => string, chosen = REDIRECT): FastifyReply {
  const id = (response.body as Json)[idField];
  if (typeof id === "string") void reply.headers(presenters.createdHeaders(selfOf(id), chosen));
  return reply.code(response.statusCode).send(response.body);
}

/** The links of an authorisation just started, whose scaStatus is at `scaStatus`. */
export function startedLinks(chosen: ChosenApproach, scaRedirect: string, scaStatus: string) {
  return chosen.approach === "redirect"
    ? { scaRedirect, scaStatus, ...confirmationLink(chosen, scaStatus) }
    : approachLinks(chosen, { authorisations: scaStatus, authorisation: scaStatus });
}

/**
 * The answer to a POST that starts an authorisation (201, startScaprocessResponse): the
 * redirect's scaRedirect, or the embedded approach's next step; `outcome` is the embedded state
 * when the POST carried the PSU's password already.
 */
export function sendStarted(reply: FastifyReply, presenters: Presenters,
  started: { authorisationId: string; scaRedirect: string }, scaStatus: string,
  chosen = REDIRECT, outcome?: Json): FastifyReply {
  const headers = presenters.createdHeaders(scaStatus, chosen);
  const _links = startedLinks(chosen, started.scaRedirect, scaStatus);
  const status = initialScaStatus({ approach: chosen.approach, namedPsu: chosen.psuId });
  return reply.code(201).headers(headers).send(presenters.answer({
    scaStatus: status, authorisationId: started.authorisationId, _links,
    ...psuMessage(chosen), ...outcome,
  }));
}

export function presentersFor(profile: ApiProfile): Presenters {
  return profile === "berlin-group" ? berlinGroupPresenters : specPresenters;
}
