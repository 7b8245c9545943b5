/**
 * A page of transactions answered as JSON joined from each booked entry's own bytes, kept beside
 * the entry: a committed entry never changes and the ledger hands out one frozen object per
 * entry (ledger/statements.ts), so it is serialised once, not on every page that lists it.
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
 * Texts as bytes in one buffer of their own: one allocation for a page's new entries, not one
 * each, and not a slice of Node's shared pool, which a kept slice would hold whole.
 */
function bytesOf(texts: readonly string[]): Buffer[] {
  const sizes = texts.map((text) => Buffer.byteLength(text));
  const slab = Buffer.allocUnsafeSlow(sizes.reduce((sum, size) => sum + size, 0));
  let at = 0;
  return texts.map((text, i) => {
    const bytes = slab.subarray(at, at + sizes[i]!);
    bytes.write(text);
    at += sizes[i]!;
    return bytes;
  });
}

const COMMA = Buffer.from(",");

/**
 * Each entry's bytes in the profile's dialect, serialised once per frozen entry. A slab of a
 * page's new entries lives as long as one of them is kept.
 */
function entryBytes(presentEntry: (t: BookedTransaction) => unknown) {
  const kept = new WeakMap<BookedTransaction, Buffer>();
  return (entries: readonly BookedTransaction[], serialize: Serialize): Buffer[] => {
    const fresh = entries.filter((t) => !kept.has(t));
    if (fresh.length === 0) return entries.map((t) => kept.get(t)!);
    const made = new Map<BookedTransaction, Buffer>();
    bytesOf(fresh.map((t) => serialize(presentEntry(t)))).forEach((bytes, i) => {
      const t = fresh[i]!;
      made.set(t, bytes);
      if (Object.isFrozen(t)) kept.set(t, bytes);
    });
    return entries.map((t) => made.get(t) ?? kept.get(t)!);
  };
}

/** Whole bodies kept at most, per route: each is a page of about 60 kB. */
const BODIES_KEPT = 16;

interface KeptBody { entries: readonly BookedTransaction[]; body: Buffer }

/**
 * The last bodies answered with kept entries only, by the page's text without them: a page asked
 * for again (a first page, a last page) is answered with the same bytes, not joined anew. Each
 * joined copy was a buffer outside the JavaScript heap that lived until the next collection: at
 * thousands of pages a second they held tens of megabytes of the C library's heap, which it kept.
 */
function keptBodies() {
  let kept = new Map<string, KeptBody>();
  return {
    get(text: string, entries: readonly BookedTransaction[]): Buffer | undefined {
      const hit = kept.get(text);
      const same = hit && hit.entries.length === entries.length
        && hit.entries.every((t, i) => t === entries[i]);
      return same ? hit.body : undefined;
    },
    set(text: string, entries: readonly BookedTransaction[], body: Buffer): void {
      if (!entries.every((t) => Object.isFrozen(t))) return;
      if (kept.size >= BODIES_KEPT) kept = new Map();
      kept.set(text, { entries, body });
    },
  };
}

/**
 * The answer to `view`: the bytes joined as above where the page lists booked entries, else the
 * presented body for Fastify to serialise. `entrySchema` is one booked entry's response schema in
 * the profile's dialect, `presentEntry` its presented form there. Bytes rather than text: joining
 * 100 texts fast-json-stringify built piece by piece walked each piece again on every page, and
 * the socket then encoded the whole text to UTF-8.
 */
export function pageBodies(entrySchema: object, presentEntry: (t: BookedTransaction) => unknown) {
  const bytesOfEntry = entryBytes(presentEntry);
  const bodies = keptBodies();
  return <B>(reply: FastifyReply, view: TransactionsView, present: (view: TransactionsView) => B):
    B | Buffer => {
    const entries = view.page.transactions;
    const page = reply.getSerializationFunction("200") as Serialize | undefined;
    if (entries.length === 0 || !page) return present(view);
    const text = page(present({ ...view, page: { ...view.page, transactions: [] } }));
    const open = text.indexOf(NO_BOOKED) + NO_BOOKED.length - 1;
    if (open < NO_BOOKED.length) return present(view);
    reply.type(JSON_TYPE);
    const kept = bodies.get(text, entries);
    if (kept) return kept;
    const entry = reply.compileSerializationSchema(
      entrySchema as Record<string, unknown>) as Serialize;
    const parts: Buffer[] = [Buffer.from(text.slice(0, open))];
    for (const bytes of bytesOfEntry(entries, entry)) {
      if (parts.length > 1) parts.push(COMMA);
      parts.push(bytes);
    }
    parts.push(Buffer.from(text.slice(open)));
    const body = Buffer.concat(parts);
    bodies.set(text, entries, body);
    return body;
  };
}
