/**
 * A page of transactions answered as JSON text joined from each booked entry's own text, kept
 * beside the entry: a committed entry never changes and the ledger hands out one frozen object per
 * entry (ledger/statements.ts), so its text is serialised once, not on every page that lists it.
 * Serialising 100 entries with the route's schema was a fifth of a first page's CPU. Every text
 * comes from the route's own serialisers (the page's and one entry's, compiled from the profile's
 * schemas), so the answer is what the schema alone would write.
 */
import type { FastifyReply } from "fastify";
import type { BookedTransaction } from "../domain/account-information/core-banking.js";
import type { TransactionsView } from "../domain/consent/accounts.js";

type Serialize = (value: unknown) => string;

/** Where the booked entries go: the page's text written with none. */
const NO_BOOKED = "\"booked\":[]";
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The answer to `view`: the text joined as above where the page lists booked entries, else the
 * presented body for Fastify to serialise. `entrySchema` is one booked entry's response schema in
 * the profile's dialect, `presentEntry` its presented form there.
 */
export function pageBodies(entrySchema: object, presentEntry: (t: BookedTransaction) => unknown) {
  const texts = new WeakMap<BookedTransaction, string>();
  return <B>(reply: FastifyReply, view: TransactionsView, present: (view: TransactionsView) => B):
    B | string => {
    const entries = view.page.transactions;
    const page = reply.getSerializationFunction("200") as Serialize | undefined;
    if (entries.length === 0 || !page) return present(view);
    const text = page(present({ ...view, page: { ...view.page, transactions: [] } }));
    const at = text.indexOf(NO_BOOKED);
    if (at < 0) return present(view);
    const entry = reply.compileSerializationSchema(entrySchema as Record<string, unknown>) as Serialize;
    const textOf = (t: BookedTransaction) => {
      let known = texts.get(t);
      if (known === undefined) {
        known = entry(presentEntry(t));
        if (Object.isFrozen(t)) texts.set(t, known);
      }
      return known;
    };
    const open = at + NO_BOOKED.length - 1;
    reply.type(JSON_TYPE);
    return `${text.slice(0, open)}${entries.map(textOf).join(",")}${text.slice(open)}`;
  };
}
