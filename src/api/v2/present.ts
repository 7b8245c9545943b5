/**
 * /v2's answers: the berlin-group profile's NextGenPSD2 shapes, which the 2.4.1 files keep but
 * for three things: a transaction's remittanceInformationUnstructured is a list of lines (1.3: one
 * string), a transaction's details come as transactionDetails (1.3.12: transactionsDetails), and
 * an authentication method's type is one of the files' list (below).
 * Answers and their response schemas are converted alike, so Fastify's serializer keeps them.
 */
import { presentersFor, type Presenters } from "../profile.js";

type Json = Record<string, unknown>;

const REMITTANCE = "remittanceInformationUnstructured";

/** The answer with each field `change` gives a new value (undefined: kept, and looked into). */
function changed(value: unknown, change: (name: string, v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => changed(v, change));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, v]) =>
    [name, change(name, v) ?? changed(v, change)]));
}

const remittanceLines = (value: unknown) => changed(value, (name, v) =>
  (name === REMITTANCE && typeof v === "string" ? [v] : undefined));

/**
 * 2.x closes AuthenticationType to the guidelines' list (1.3 let an ASPSP add its own): the
 * authenticator app's one-time code, our APP_OTP, is the list's PUSH_OTP, an OTP a dedicated app
 * shows.
 */
const listedTypes = (value: unknown) => changed(value, (name, v) =>
  (name === "authenticationType" && v === "APP_OTP" ? "PUSH_OTP" : undefined));

const DETAILS_1_3 = "transactionsDetails";
const DETAILS = "transactionDetails";

/** The schema of a 2.x answer: remittance lines, and the details' 2.x name (also if required). */
function v2Schema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((v) => (v === DETAILS_1_3 ? DETAILS : v2Schema(v)));
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([name, v]) => [
    name === DETAILS_1_3 ? DETAILS : name,
    name === REMITTANCE ? { type: "array", items: { type: "string", maxLength: 140 } }
      : v2Schema(v)]));
}

const berlinGroup = presentersFor("berlin-group");
const lines = (body: Json) => remittanceLines(body) as Json;

export const v2Presenters: Presenters = {
  ...berlinGroup,
  answer: (body) => berlinGroup.answer(listedTypes(body) as Json),
  transactions: (view, accountPath, query) =>
    lines(berlinGroup.transactions(view, accountPath, query)),
  bookedEntry: (t) => lines(berlinGroup.bookedEntry(t)),
  transaction: (t) => {
    const { [DETAILS_1_3]: details } = lines(berlinGroup.transaction(t));
    return { [DETAILS]: details };
  },
  cardTransactions: (view, accountPath, query) =>
    lines(berlinGroup.cardTransactions(view, accountPath, query)),
  schema: (s) => v2Schema(berlinGroup.schema(s)) as object,
};
